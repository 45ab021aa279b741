"""OTLP export requests as span entries by trace, merged and read as traces (pure).

An ``ExportTraceServiceRequest`` arrives as OTLP JSON or protobuf. Both become the OTLP
JSON form (ids as lower-case hex), split into one :class:`SpanEntry` per span (the span
with its resource and scope) grouped by trace id. A trace's entries are kept as an OTLP
JSON export (:func:`export_of`), so spans that arrive in a later request are merged in
(:func:`merge_entries`) and the whole set is read again by tracegrade's own OpenInference
or OTel GenAI reader (:func:`read_received`).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from google.protobuf.json_format import MessageToDict  # type: ignore[import-untyped]
from google.protobuf.message import DecodeError  # type: ignore[import-untyped]
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_trace

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence

    from tracegrade.redact import Redactor
    from tracegrade.traces import Trace

__all__ = [
    "ExportBatch",
    "SpanEntry",
    "entries_of",
    "export_of",
    "merge_entries",
    "parse_json_export",
    "parse_protobuf_export",
    "read_received",
    "split_export",
    "touchpoint_of",
]

BODY = "request body"
"""What errors about the request name as their place."""

TOUCHPOINT_ATTRIBUTE = "tracegrade.touchpoint"
"""The resource or span attribute that names the touchpoint a run belongs to."""

_REQUEST_FIX = (
    "send an OTLP ExportTraceServiceRequest: {'resourceSpans': [{'resource': {...},"
    " 'scopeSpans': [{'scope': {...}, 'spans': [...]}]}]} as JSON, or its protobuf encoding"
)
_TRACE_ID = re.compile(r"[0-9a-f]{32}")
_SPAN_ID = re.compile(r"[0-9a-f]{16}")
_ID_FIELDS = (("traceId", 16), ("spanId", 8), ("parentSpanId", 8))
# Attribute names that say which convention a span follows, most specific first.
_OPENINFERENCE = ("openinference.", "llm.", "input.value", "output.value", "tool.name")
_GENAI = ("gen_ai.",)


@dataclass(frozen=True, slots=True)
class SpanEntry:
    """One received span, with the resource and scope it was sent under (OTLP JSON)."""

    resource: dict[str, Any]
    scope: dict[str, Any]
    span: dict[str, Any]

    @property
    def span_id(self) -> str:
        """The span's id (hex)."""
        return str(self.span["spanId"])


@dataclass(frozen=True, slots=True)
class ExportBatch:
    """The spans of one export request, by trace id, and the spans it could not read.

    Attributes:
        traces: Trace id to its spans, in request order (trace ids in first appearance).
        rejected: How many spans were not read.
        problems: Why, one line per rejected span (the first few are reported).
    """

    traces: dict[str, tuple[SpanEntry, ...]]
    rejected: int
    problems: tuple[str, ...]


def _not_otlp(what: str) -> TraceFormatError:
    return TraceFormatError(f"not an OTLP trace export: {what}", fix=_REQUEST_FIX, path=BODY)


def parse_json_export(body: bytes) -> dict[str, Any]:
    """The OTLP JSON request as parsed JSON.

    Raises:
        TraceFormatError: The body is not JSON, or not an object with a ``resourceSpans`` list.
    """
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise _not_otlp(f"the body is not valid JSON ({exc})") from exc
    if not isinstance(parsed, dict):
        raise _not_otlp(f"expected a JSON object, got {type(parsed).__name__}")
    unknown = sorted(set(parsed) - {"resourceSpans"})
    if unknown:
        raise _not_otlp(f"unknown field {unknown[0]!r} (an export has only 'resourceSpans')")
    return parsed


def parse_protobuf_export(body: bytes) -> dict[str, Any]:
    """The protobuf request in its OTLP JSON form: ids in hex, enums as numbers.

    Raises:
        TraceFormatError: The body is not an ``ExportTraceServiceRequest`` message.
    """
    message = ExportTraceServiceRequest()
    try:
        message.ParseFromString(body)
    except DecodeError as exc:
        raise _not_otlp(f"the body is not an ExportTraceServiceRequest message ({exc})") from exc
    export: dict[str, Any] = MessageToDict(message, use_integers_for_enums=True)
    for resource in export.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                _hex_ids(span)
                for link in span.get("links", []):
                    _hex_ids(link)
    return export


def _hex_ids(item: dict[str, Any]) -> None:
    """Protobuf JSON writes bytes as base64; OTLP JSON writes ids as hex."""
    for name, _size in _ID_FIELDS:
        value = item.get(name)
        if isinstance(value, str):
            try:
                item[name] = base64.b64decode(value, validate=True).hex()
            except binascii.Error:
                item[name] = value  # left for the id check to reject


def split_export(export: dict[str, Any]) -> ExportBatch:
    """Group an export's spans by trace id; a span with a bad id or shape is rejected.

    Raises:
        TraceFormatError: The request's ``resourceSpans`` or ``scopeSpans`` are not lists
            of objects (nothing in it can be read).
    """
    resources = export.get("resourceSpans", [])
    if not isinstance(resources, list):
        raise _not_otlp("'resourceSpans' must be a list")
    traces: dict[str, list[SpanEntry]] = {}
    problems: list[str] = []
    for r, block in enumerate(resources):
        if not isinstance(block, dict) or not isinstance(block.get("scopeSpans", []), list):
            raise _not_otlp(f"resourceSpans {r} must be an object with a 'scopeSpans' list")
        resource = block.get("resource") or {}
        if not isinstance(resource, dict):
            raise _not_otlp(f"resourceSpans {r}: 'resource' must be an object")
        for s, scope_block in enumerate(block.get("scopeSpans", [])):
            spans = scope_block.get("spans", []) if isinstance(scope_block, dict) else None
            if not isinstance(spans, list):
                raise _not_otlp(f"resourceSpans {r}, scopeSpans {s} must have a 'spans' list")
            scope = scope_block.get("scope") or {}
            if not isinstance(scope, dict):
                raise _not_otlp(f"resourceSpans {r}, scopeSpans {s}: 'scope' must be an object")
            for index, span in enumerate(spans):
                problem = _span_problem(span)
                if problem is not None:
                    problems.append(f"resourceSpans {r}, scopeSpans {s}, span {index}: {problem}")
                    continue
                kept = {
                    **span,
                    "traceId": span["traceId"].lower(),
                    "spanId": span["spanId"].lower(),
                }
                if span.get("parentSpanId"):
                    kept["parentSpanId"] = span["parentSpanId"].lower()
                traces.setdefault(kept["traceId"], []).append(SpanEntry(resource, scope, kept))
    return ExportBatch(
        {trace_id: tuple(entries) for trace_id, entries in traces.items()},
        len(problems),
        tuple(problems),
    )


def _span_problem(span: Any) -> str | None:  # noqa: ANN401, PLR0911 - any JSON value; one return per check
    """Why a span cannot be kept, or ``None`` when it can."""
    if not isinstance(span, dict):
        return "a span must be an object"
    trace_id, span_id, parent = span.get("traceId"), span.get("spanId"), span.get("parentSpanId")
    if not isinstance(trace_id, str) or not _TRACE_ID.fullmatch(trace_id.lower()):
        return f"'traceId' must be 32 hex digits, got {trace_id!r}"
    if trace_id.strip("0") == "":
        return "'traceId' is all zeros (an invalid trace id)"
    if not isinstance(span_id, str) or not _SPAN_ID.fullmatch(span_id.lower()):
        return f"'spanId' must be 16 hex digits, got {span_id!r}"
    if span_id.strip("0") == "":
        return "'spanId' is all zeros (an invalid span id)"
    if parent not in (None, "") and (
        not isinstance(parent, str) or not _SPAN_ID.fullmatch(parent.lower())
    ):
        return f"'parentSpanId' must be 16 hex digits or empty, got {parent!r}"
    start = span.get("startTimeUnixNano")
    if start is not None and not (
        (isinstance(start, int) and not isinstance(start, bool))
        or (isinstance(start, str) and start.isdigit())
    ):
        return f"'startTimeUnixNano' must be an integer, got {start!r}"
    if not _attributes_ok(span.get("attributes", [])):
        return "'attributes' must be a list of {key, value} objects"
    events = span.get("events", [])
    if not isinstance(events, list) or not all(
        isinstance(event, dict) and _attributes_ok(event.get("attributes", [])) for event in events
    ):
        return "'events' must be a list of {name, attributes} objects"
    return None


def _attributes_ok(attributes: Any) -> bool:  # noqa: ANN401 - any JSON value
    """Whether ``attributes`` is a list of ``{key, value}`` objects (OTLP JSON)."""
    return isinstance(attributes, list) and all(
        isinstance(item, dict)
        and isinstance(item.get("key"), str)
        and isinstance(item.get("value", {}), dict)
        for item in attributes
    )


def merge_entries(stored: Sequence[SpanEntry], new: Iterable[SpanEntry]) -> list[SpanEntry]:
    """The stored spans with the new ones added; a span sent again replaces its old copy."""
    merged = {entry.span_id: entry for entry in stored}
    for entry in new:
        merged.pop(entry.span_id, None)  # re-sent: the new copy goes last
        merged[entry.span_id] = entry
    return list(merged.values())


def export_of(entries: Iterable[SpanEntry]) -> dict[str, Any]:
    """An OTLP JSON export of the spans, one block per resource and scope (first seen first)."""
    blocks: dict[bytes, dict[str, Any]] = {}
    for entry in entries:
        key = orjson.dumps([entry.resource, entry.scope], option=orjson.OPT_SORT_KEYS)
        block = blocks.get(key)
        if block is None:
            block = {
                "resource": entry.resource,
                "scopeSpans": [{"scope": entry.scope, "spans": []}],
            }
            blocks[key] = block
        block["scopeSpans"][0]["spans"].append(entry.span)
    return {"resourceSpans": list(blocks.values())}


def entries_of(export: dict[str, Any]) -> list[SpanEntry]:
    """The span entries of an export written by :func:`export_of` (a stored trace's spans)."""
    return [entry for entries in split_export(export).traces.values() for entry in entries]


def _string_attribute(attributes: Any, key: str) -> str | None:  # noqa: ANN401 - any JSON value
    for item in attributes if isinstance(attributes, list) else []:
        if isinstance(item, dict) and item.get("key") == key:
            value = item.get("value")
            text = value.get("stringValue") if isinstance(value, dict) else None
            return text if isinstance(text, str) and text else None
    return None


def touchpoint_of(entries: Sequence[SpanEntry], touchpoint_ids: Collection[str]) -> str | None:
    """The touchpoint a run belongs to.

    The resource or span attribute ``tracegrade.touchpoint``, else the resource's
    ``service.name`` when it is the id of a touchpoint in ``touchpoint_ids``, else ``None``.
    """
    for entry in entries:
        named = _string_attribute(entry.resource.get("attributes"), TOUCHPOINT_ATTRIBUTE)
        named = named or _string_attribute(entry.span.get("attributes"), TOUCHPOINT_ATTRIBUTE)
        if named is not None:
            return named
    for entry in entries:
        service = _string_attribute(entry.resource.get("attributes"), "service.name")
        if service is not None and service in touchpoint_ids:
            return service
    return None


def _conventions(entries: Sequence[SpanEntry]) -> list[str]:
    """The readers to try, by the attribute names the spans carry (most evidence first)."""
    counts = {"openinference": 0, "otel-genai": 0}
    for entry in entries:
        for item in entry.span.get("attributes", []):
            key = item["key"]
            if key.startswith(_OPENINFERENCE):
                counts["openinference"] += 1
            elif key.startswith(_GENAI):
                counts["otel-genai"] += 1
    found = [name for name, count in counts.items() if count]
    return sorted(found, key=lambda name: -counts[name])


def read_received(entries: Sequence[SpanEntry], redactor: Redactor | None = None) -> Trace:
    """The run the spans record, read by the OpenInference or OTel GenAI reader.

    Its secrets are redacted by ``redactor`` (default: the packaged rules), as every trace
    read is.

    The reader whose attributes the spans carry most is tried first; the other when it
    cannot read them.

    Raises:
        TraceFormatError: No span carries OpenInference or OTel GenAI attributes, or no
            reader can read the spans (yet: a later request may bring the missing ones).
    """
    conventions = _conventions(entries)
    if not conventions:
        raise TraceFormatError(
            "no span carries OpenInference (openinference.*, llm.*, input.value) or OTel GenAI"
            " (gen_ai.*) attributes",
            fix="instrument the agent with OpenInference or the OTel GenAI conventions",
            path=BODY,
        )
    data = orjson.dumps(export_of(entries))
    failures: list[TraceFormatError] = []
    for name in conventions:
        try:
            return read_trace(data, format_name=name, redactor=redactor)
        except TraceFormatError as exc:
            failures.append(exc)
    raise failures[0]  # the reader the spans looked most like: its reason
