"""Span files shared by the OpenInference and OTel GenAI readers: shapes, envelopes, values.

A file is turned into :class:`Span` values, each with flat attributes (``a.b.0.c`` keys),
its parent, its start time and its place in the file for errors. Shapes read:

- a list of Phoenix spans ``{name, context{trace_id, span_id}, parent_id, start_time, ...}``,
  an object of named span lists, a Phoenix REST page ``{"data": [spans]}``, or one span;
- an OTLP JSON export ``{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}``, a list of
  them, or a ``.jsonl`` file with one export (or one span) per line;
- spans as OpenTelemetry JS's ConsoleSpanExporter builds them, ``{traceId, id, parentId
  (or parentSpanContext.spanId), name, timestamp (microseconds), attributes, status, events}``,
  written as JSON (a list, or one a line);
- a bare attribute map (one span's attributes, no envelope).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._limits import parse_int
from tracegrade.traces._reading import json_type, load_json

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Span", "SpanGroup", "load_spans", "short_id"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_FIX = (
    "a span file is a list of spans, an object of span lists, an OTLP JSON export"
    " ({'resourceSpans': [...]}) or one span's attribute map"
)
# Indexed OpenInference lists: a nested attribute dict spells them as JSON lists of objects.
_INDEXED_LISTS = frozenset(
    {"input_messages", "output_messages", "tool_calls", "contents", "tools", "documents"}
)
_NESTED = frozenset({dict, list})
_NUMBERS = (int, float)  # a tuple: an `int | float` union is built again at every test
_ATTRIBUTE_PREFIXES = ("gen_ai.", "llm.", "openinference.", "input.", "output.", "tool.")


# Not frozen, though never changed (as _span_walk.Message): one is built per span, and a
# frozen dataclass's __init__ costs three times as much. unsafe_hash keeps the same hash.
@dataclass(slots=True, unsafe_hash=True)
class Span:
    """One span, read from any envelope.

    Attributes:
        trace_id: The trace it belongs to.
        span_id: Its id (``attributes`` for a bare attribute map).
        parent_id: The parent span's id, or ``None`` for a root.
        name: The span name.
        kind: The envelope's span kind (Phoenix ``span_kind``), or ``None``.
        start: Start time in nanoseconds since the epoch, or ``None`` when not recorded.
        order: Position in the file, for ties.
        attributes: Flat attributes (nested dicts joined with dots).
        error: The span's status is ERROR.
        events: ``(name, flat attributes)`` of each span event.
        where: Its place in the file, for errors (``span 3 (9f2c1a04…)``).
    """

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    kind: str | None
    start: int | None
    order: int
    attributes: dict[str, Any]
    error: bool
    events: tuple[tuple[str, dict[str, Any]], ...]
    where: str

    @property
    def origin(self) -> str:
        """The frame origin of what this span contributes."""
        return "attributes" if self.span_id == "attributes" else f"span {self.span_id}"


@dataclass(frozen=True, slots=True)
class SpanGroup:
    """The spans of one trace, in file order; ``label`` names the span list it came from."""

    trace_id: str
    spans: tuple[Span, ...]
    label: str | None = None


def short_id(span_id: str) -> str:
    """A span id short enough for a message (``9f2c1a04…``)."""
    return span_id if len(span_id) <= 12 else f"{span_id[:8]}…"


def load_span_lines(lines: Iterable[bytes], name: str, stem: str) -> list[SpanGroup]:
    """The traces of a ``.jsonl`` span file, reading one line at a time.

    Spans are grouped by trace id, so a file's spans are kept until its end; its text is not.
    """
    spans: list[Span] = []
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():  # blank as line.strip() tells, without copying the line
            where = f"line {number}"
            _collect(load_json(line, name, where), name, where, stem, spans)
    return _group(spans, None)


def load_spans(data: bytes, name: str, stem: str) -> list[SpanGroup]:
    """Every trace in a span file, grouped by trace id in order of first appearance.

    Raises:
        TraceFormatError: The file is not JSON, has no known shape, or a span is malformed;
            the message names the span (``span 3 (9f2c…)``).
    """
    if name.lower().endswith(".jsonl"):
        return load_span_lines(iter(data.splitlines()), name, stem)
    spans: list[Span] = []
    raw = load_json(data, name)
    if (
        isinstance(raw, dict)
        and raw
        and all(isinstance(v, list) for v in raw.values())
        and not {"resourceSpans", "data"} & raw.keys()
    ):
        # An object of named span lists: each list keeps its name.
        groups: list[SpanGroup] = []
        for label, listed in raw.items():
            named: list[Span] = []
            _collect(listed, name, f"{label!r}", stem, named)
            groups.extend(_group(named, label))
        return groups
    _collect(raw, name, "", stem, spans)
    return _group(spans, None)


def _group(spans: list[Span], label: str | None) -> list[SpanGroup]:
    by_trace: dict[str, list[Span]] = {}
    for span in spans:
        by_trace.setdefault(span.trace_id, []).append(span)
    return [SpanGroup(trace_id, tuple(group), label) for trace_id, group in by_trace.items()]


def _at(where: str, text: str) -> str:
    return f"{where}, {text}" if where else text


def _collect(  # noqa: PLR0912 - one branch per envelope
    raw: Any,  # noqa: ANN401 - any JSON value
    name: str,
    where: str,
    stem: str,
    out: list[Span],
) -> None:
    if isinstance(raw, dict) and isinstance(raw.get("resourceSpans"), list):
        _otlp(raw["resourceSpans"], name, where, out)
    elif isinstance(raw, dict) and isinstance(raw.get("data"), list):
        _collect(raw["data"], name, where, stem, out)
    elif isinstance(raw, dict) and isinstance(raw.get("context"), dict):
        out.append(_phoenix(raw, len(out), name, where))
    elif _is_js_span(raw, name, where):
        out.append(_js_span(raw, len(out), name, where))
    elif isinstance(raw, dict) and ("spanId" in raw or "traceId" in raw):
        out.append(_otlp_span(raw, len(out), name, where))
    elif isinstance(raw, dict) and any(str(k).startswith(_ATTRIBUTE_PREFIXES) for k in raw):
        out.append(
            Span(
                trace_id=stem,
                span_id="attributes",
                parent_id=None,
                name="",
                kind=None,
                start=None,
                order=len(out),
                attributes=flatten(raw),
                error=False,
                events=(),
                where=where or "attributes",
            )
        )
    elif isinstance(raw, list):
        for index, item in enumerate(raw):
            if isinstance(item, dict) and isinstance(item.get("resourceSpans"), list):
                _otlp(item["resourceSpans"], name, _at(where, f"export {index}"), out)
            elif _is_js_span(item, name, _at(where, f"span {index}")):
                out.append(_js_span(item, len(out), name, _at(where, f"span {index}")))
            elif isinstance(item, dict) and ("spanId" in item or "traceId" in item):
                out.append(_otlp_span(item, len(out), name, _at(where, f"span {index}")))
            else:
                out.append(_phoenix(item, index, name, _at(where, f"span {index}")))
    else:
        got = (
            "an object with no spans or span attributes"
            if isinstance(raw, dict)
            else json_type(raw)
        )
        raise TraceFormatError(f"{_at(where, 'expected spans')}, got {got}", fix=_FIX, path=name)


def _fail(where: str, text: str, name: str, fix: str = _FIX) -> TraceFormatError:
    return TraceFormatError(f"{where}: {text}", fix=fix, path=name)


def _events(raw: dict[str, Any], where: str, name: str) -> list[Any]:
    events = raw.get("events") or []
    if not isinstance(events, list):
        raise _fail(where, f"'events' must be an array, got {json_type(events)}", name)
    return events


def _phoenix(raw: Any, index: int, name: str, where: str) -> Span:  # noqa: ANN401 - any JSON value
    where = where or f"span {index}"
    if not isinstance(raw, dict):
        raise _fail(where, f"a span must be a JSON object, got {json_type(raw)}", name)
    context = raw.get("context")
    if not isinstance(context, dict):
        raise _fail(
            where,
            f"'context' must be an object with trace_id and span_id, got {json_type(context)}",
            name,
        )
    trace_id, span_id = context.get("trace_id"), context.get("span_id")
    if not isinstance(span_id, str) or not span_id:
        raise _fail(
            where, f"'context.span_id' must be a non-empty string, got {json_type(span_id)}", name
        )
    where = f"{where} ({short_id(span_id)})"
    if not isinstance(trace_id, str) or not trace_id:
        raise _fail(
            where, f"'context.trace_id' must be a non-empty string, got {json_type(trace_id)}", name
        )
    attributes = raw.get("attributes", {})
    if not isinstance(attributes, dict):
        raise _fail(where, f"'attributes' must be an object, got {json_type(attributes)}", name)
    parent = raw.get("parent_id")
    kind = raw.get("span_kind")
    events = [
        (str(event.get("name", "")), flatten(event.get("attributes") or {}))
        for event in _events(raw, where, name)
        if isinstance(event, dict) and isinstance(event.get("attributes", {}), dict)
    ]
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent if isinstance(parent, str) and parent else None,
        name=str(raw.get("name") or ""),
        kind=kind if isinstance(kind, str) else None,
        start=_iso_time(raw.get("start_time"), where, name),
        order=index,
        attributes=flatten(attributes),
        error=raw.get("status_code") == "ERROR",
        events=tuple(events),
        where=where,
    )


def _iso_time(value: Any, where: str, name: str) -> int | None:  # noqa: ANN401 - any JSON value
    if value is None:
        return None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return (moment - _EPOCH) // _MICROSECOND * 1000
    raise _fail(where, f"'start_time' must be an ISO 8601 time, got {value!r}", name)


def _otlp(resources: list[Any], name: str, where: str, out: list[Span]) -> None:
    for r, resource in enumerate(resources):
        scopes = (
            resource.get("scopeSpans", resource.get("instrumentationLibrarySpans"))
            if isinstance(resource, dict)
            else None
        )
        if not isinstance(scopes, list):
            raise _fail(_at(where, f"resourceSpans {r}"), "'scopeSpans' must be a list", name)
        for s, scope in enumerate(scopes):
            spans = scope.get("spans") if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                raise _fail(
                    _at(where, f"resourceSpans {r}, scopeSpans {s}"), "'spans' must be a list", name
                )
            for index, span in enumerate(spans):
                at = _at(where, f"resourceSpans {r}, scopeSpans {s}, span {index}")
                out.append(_otlp_span(span, len(out), name, at))


def _otlp_span(raw: Any, order: int, name: str, where: str) -> Span:  # noqa: ANN401 - any JSON value
    where = where or f"span {order}"
    if not isinstance(raw, dict):
        raise _fail(where, f"a span must be a JSON object, got {json_type(raw)}", name)
    trace_id, span_id = raw.get("traceId"), raw.get("spanId")
    if not isinstance(span_id, str) or not span_id:
        raise _fail(where, f"'spanId' must be a non-empty string, got {json_type(span_id)}", name)
    where = f"{where} ({short_id(span_id)})"
    if not isinstance(trace_id, str) or not trace_id:
        raise _fail(where, f"'traceId' must be a non-empty string, got {json_type(trace_id)}", name)
    start = raw.get("startTimeUnixNano")
    if isinstance(start, str) and start.isdigit():
        start = parse_int(start, name, f"{where}: 'startTimeUnixNano'")
    if start is not None and (isinstance(start, bool) or not isinstance(start, int)):
        raise _fail(where, f"'startTimeUnixNano' must be an integer, got {start!r}", name)
    status = raw.get("status")
    code = status.get("code") if isinstance(status, dict) else None
    events = tuple(
        (str(event.get("name", "")), _otlp_attributes(event.get("attributes"), where, name))
        for event in _events(raw, where, name)
        if isinstance(event, dict)
    )
    parent = raw.get("parentSpanId")
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent if isinstance(parent, str) and parent else None,
        name=str(raw.get("name") or ""),
        kind=None,
        start=start,
        order=order,
        attributes=_otlp_attributes(raw.get("attributes"), where, name),
        error=code in (2, "2", "STATUS_CODE_ERROR", "ERROR"),
        events=events,
        where=where,
    )


def _is_js_span(raw: Any, name: str = "", where: str = "") -> bool:  # noqa: ANN401 - any JSON value
    """A ConsoleSpanExporter span; a raw ``ReadableSpan`` dump is refused, saying why."""
    if isinstance(raw, dict) and isinstance(raw.get("_spanContext"), dict):
        raise _fail(
            where or "span 0",
            "an OpenTelemetry JS ReadableSpan serialised as it is in memory ('_spanContext',"
            " hrTime arrays), not an exporter's output",
            name,
            fix="export the spans with ConsoleSpanExporter's JSON fields or the OTLP JSON"
            " exporter (@opentelemetry/exporter-trace-otlp-http); see docs/formats/ai-sdk.md",
        )
    return isinstance(raw, dict) and "traceId" in raw and "id" in raw and "spanId" not in raw


def _js_span(raw: dict[str, Any], order: int, name: str, where: str) -> Span:
    """A span as OpenTelemetry JS's ConsoleSpanExporter (sdk-trace-base) describes it."""
    where = where or f"span {order}"
    trace_id, span_id = raw.get("traceId"), raw.get("id")
    if not isinstance(span_id, str) or not span_id:
        raise _fail(where, f"'id' must be a non-empty string, got {json_type(span_id)}", name)
    where = f"{where} ({short_id(span_id)})"
    if not isinstance(trace_id, str) or not trace_id:
        raise _fail(where, f"'traceId' must be a non-empty string, got {json_type(trace_id)}", name)
    parent = raw.get("parentId", raw.get("parentSpanId"))  # SDK 1.x
    context = raw.get("parentSpanContext")  # SDK 2.x
    if isinstance(context, dict):
        parent = context.get("spanId")
    micros = raw.get("timestamp")
    if micros is not None and (
        isinstance(micros, bool)
        or not isinstance(micros, _NUMBERS)
        or not math.isfinite(micros * 1000)
    ):
        raise _fail(
            where, f"'timestamp' must be microseconds since the epoch, got {micros!r}", name
        )
    attributes = raw.get("attributes") or {}
    if not isinstance(attributes, dict):
        raise _fail(where, f"'attributes' must be an object, got {json_type(attributes)}", name)
    status = raw.get("status")
    listed = _events(raw, where, name)
    events = (
        tuple(
            (str(event.get("name", "")), flatten(event.get("attributes") or {}))
            for event in listed
            if isinstance(event, dict) and isinstance(event.get("attributes") or {}, dict)
        )
        if listed
        else ()
    )
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent if isinstance(parent, str) and parent else None,
        name=str(raw.get("name") or ""),
        kind=None,
        start=None if micros is None else round(micros * 1000),
        order=order,
        attributes=flatten(attributes),
        error=isinstance(status, dict) and status.get("code") == 2,  # SpanStatusCode.ERROR
        events=events,
        where=where,
    )


def _otlp_attributes(raw: Any, where: str, name: str) -> dict[str, Any]:  # noqa: ANN401 - any JSON value
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise _fail(
            where, f"'attributes' must be a list of {{key, value}}, got {json_type(raw)}", name
        )
    attributes: dict[str, Any] = {}
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise _fail(where, f"an attribute must be {{key, value}}, got {json_type(item)}", name)
        attributes[item["key"]] = otlp_value(
            item.get("value"), f"{where}, attribute {item['key']!r}", name
        )
    return flatten(attributes)


def otlp_value(raw: Any, where: str, name: str) -> Any:  # noqa: ANN401 - any JSON value
    """The JSON value of an OTLP ``AnyValue`` (``{"stringValue": ...}`` and friends)."""
    if raw is None or raw == {}:
        return None
    if not isinstance(raw, dict) or len(raw) != 1:
        raise _fail(where, f"a value must be an OTLP AnyValue object, got {json_type(raw)}", name)
    ((kind, value),) = raw.items()
    if kind in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        return value
    if kind == "intValue":
        if isinstance(value, str) and value.lstrip("-").isdigit():
            return parse_int(value, name, f"{where}: 'intValue'")
        return value
    if kind == "arrayValue":
        return [otlp_value(v, where, name) for v in (value or {}).get("values", [])]
    if kind == "kvlistValue":
        return {
            kv["key"]: otlp_value(kv.get("value"), where, name)
            for kv in (value or {}).get("values", [])
            if isinstance(kv, dict) and isinstance(kv.get("key"), str)
        }
    raise _fail(
        where,
        f"unknown OTLP value type {kind!r}",
        name,
        fix="values are stringValue, intValue, doubleValue, boolValue, bytesValue, arrayValue or"
        " kvlistValue (OTLP JSON encoding)",
    )


def flatten(attributes: dict[str, Any]) -> dict[str, Any]:
    """Join nested attribute objects with dots; indexed OpenInference lists get their index.

    Already flat attributes (Phoenix writes dotted keys) are handed back as they are, not
    copied: they come from JSON parsed for this read, which nothing else holds.
    """
    if _NESTED.isdisjoint(map(type, attributes.values())):
        # Parsed JSON holds exact dicts and lists, so testing the type is the isinstance below.
        return attributes
    out: dict[str, Any] = {}
    _flatten(attributes, "", out)
    return out


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:  # noqa: ANN401 - any JSON value
    if isinstance(value, dict) and (value or not prefix):
        for key, item in value.items():
            at = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(item, (dict, list)):
                _flatten(item, at, out)
            else:
                out[at] = item  # a scalar, stored as the else branch below would, minus a call
    elif (
        isinstance(value, list)
        and value
        and prefix.rsplit(".", 1)[-1] in _INDEXED_LISTS
        and not prefix.startswith("gen_ai.")
        and all(isinstance(item, dict) for item in value)
    ):
        for index, item in enumerate(value):
            _flatten(item, f"{prefix}.{index}", out)
    else:
        out[prefix] = value
