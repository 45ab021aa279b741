"""Received spans with their secrets replaced, before anything of them is stored.

Every string of a span (its name, status message, attribute and event values) and of its
resource is redacted by the project's :class:`~tracegrade.redact.Redactor`; an attribute
whose name says it holds a credential (``http.request.header.authorization``,
``...cookie``, ``...api_key``) has every string of its value replaced whole. Each
replacement is a :class:`~tracegrade.redact.Redaction` naming the span and the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.web._otlp_convert import SpanEntry

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.redact import Redaction, Redactor

__all__ = ["redact_entries"]


def _attributes(
    attributes: Any,  # noqa: ANN401 - any JSON value (checked by split_export)
    field: str,
    redactor: Redactor,
    found: list[Redaction],
    span: str,
) -> Any:  # noqa: ANN401 - the same shape
    if not isinstance(attributes, list):
        return attributes
    out = []
    for item in attributes:
        key = item.get("key") if isinstance(item, dict) else None
        if not isinstance(key, str) or "value" not in item:
            out.append(item)
            continue
        kind = redactor.name_kind(key)
        value, made = redactor.value(item["value"], f"{field}.{key}", kind=kind, span=span)
        found.extend(made)
        out.append({**item, "value": value} if made else item)
    return out


def _span(
    entry: SpanEntry,
    redactor: Redactor,
    found: list[Redaction],
    resources: dict[int, dict[str, Any]],
) -> SpanEntry:
    span_id = entry.span_id
    span = dict(entry.span)
    span["attributes"] = _attributes(span.get("attributes"), "attributes", redactor, found, span_id)
    events = span.get("events")
    if isinstance(events, list):
        span["events"] = [
            {
                **event,
                "attributes": _attributes(
                    event.get("attributes"), f"events[{index}].attributes", redactor, found, span_id
                ),
            }
            for index, event in enumerate(events)
        ]
    if isinstance(span.get("name"), str):
        span["name"], made = redactor.value(span["name"], "name", span=span_id)
        found.extend(made)
    status = span.get("status")
    if isinstance(status, dict) and isinstance(status.get("message"), str):
        message, made = redactor.value(status["message"], "status.message", span=span_id)
        found.extend(made)
        span["status"] = {**status, "message": message}
    # The spans of one resource share it: redacted (and recorded) once, for its first span.
    resource = resources.get(id(entry.resource))
    if resource is None:
        resource = dict(entry.resource)
        resource["attributes"] = _attributes(
            resource.get("attributes"), "resource.attributes", redactor, found, span_id
        )
        resources[id(entry.resource)] = resource
    return SpanEntry(resource, entry.scope, span)


def redact_entries(
    entries: Sequence[SpanEntry], redactor: Redactor
) -> tuple[list[SpanEntry], list[Redaction]]:
    """The spans with their secrets replaced, and every replacement made."""
    found: list[Redaction] = []
    resources: dict[int, dict[str, Any]] = {}
    redacted = [_span(entry, redactor, found, resources) for entry in entries]
    return redacted, found
