"""OpenTelemetry GenAI semantic-convention spans (``gen_ai.*``).

See docs/formats/otel-genai.md. Model calls (``gen_ai.operation.name`` = ``chat``,
``generate_content``, ``text_completion``) carry ``gen_ai.input.messages``,
``gen_ai.output.messages`` and ``gen_ai.system_instructions`` (JSON ``{role, parts}``);
``execute_tool`` spans carry ``gen_ai.tool.name``, ``gen_ai.tool.call.id``,
``gen_ai.tool.call.arguments`` and ``gen_ai.tool.call.result``. The deprecated
``gen_ai.prompt`` / ``gen_ai.completion`` attributes and span events are read too.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TraceFormatError
from tracegrade.traces._message_lists import MessageLists
from tracegrade.traces._openinference import chat_message
from tracegrade.traces._reading import (
    json_type,
    loads_nested,
    parse_arguments,
    starts_with,
    suffix_ok,
)
from tracegrade.traces._registry import reader
from tracegrade.traces._span_walk import (
    Message,
    SpanRole,
    ToolRun,
    read_span_file,
    read_span_lines,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from tracegrade.traces._model import Trace
    from tracegrade.traces._spans import Span

__all__: list[str] = []

_FIX = "see docs/formats/otel-genai.md for the attributes read"
_MODEL_CALLS = frozenset({"chat", "generate_content", "text_completion"})
_MESSAGE_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


def _looks_genai(name: str, head: bytes) -> bool:
    return (
        suffix_ok(name, ".json", ".jsonl") and starts_with(head, rb"[\[{]") and b"gen_ai." in head
    )


def _read_genai_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    return read_span_lines(lines, name, OtelGenAI)


@reader(
    "otel-genai",
    description="OpenTelemetry GenAI spans (gen_ai.* attributes, execute_tool spans): an OTLP"
    " JSON export (.json/.jsonl), Phoenix-style span JSON or an attribute map",
    can_read=_looks_genai,
    priority=10,
    read_lines=_read_genai_lines,
)
def _read_genai(data: bytes, name: str) -> Iterator[Trace]:
    return read_span_file(data, name, OtelGenAI)


class OtelGenAI:
    """The OTel GenAI attribute convention (one instance per trace)."""

    def __init__(self) -> None:
        self._lists = MessageLists()

    def _message_list(self, value: Any, span: Span, key: str, name: str) -> list[Message]:  # noqa: ANN401 - any JSON value
        """:func:`_message_list`, parsing only what follows the last list of ``key``."""
        if not isinstance(value, str):
            return _message_list(value, span, key, name)
        return self._lists.read(
            value,
            key,
            f"{span.origin}, {key}",
            lambda text: _json(text, span, key, name),
            lambda parsed, start: _parsed_messages(parsed, span, key, name, start=start),
        )

    def role(self, span: Span) -> SpanRole:
        """``execute_tool`` is a tool span; a model operation or messages make an LLM span."""
        attrs = span.attributes
        operation = attrs.get("gen_ai.operation.name")
        if operation is not None and not isinstance(operation, str):
            raise TraceFormatError(
                f"{span.where}: 'gen_ai.operation.name' must be a string,"
                f" got {json_type(operation)}",
                fix="the operation is a name such as 'chat' or 'execute_tool'",
            )
        if operation == "execute_tool" or (operation is None and "gen_ai.tool.name" in attrs):
            return "tool"
        if operation in _MODEL_CALLS:
            return "llm"
        has_messages = any(
            key in attrs
            for key in (
                "gen_ai.input.messages",
                "gen_ai.output.messages",
                "gen_ai.prompt",
                "gen_ai.completion",
            )
        )
        has_events = any(
            event in _MESSAGE_EVENTS or event == "gen_ai.choice" for event, _ in span.events
        )
        return "llm" if operation is None and (has_messages or has_events) else "other"

    def messages(self, span: Span, name: str) -> tuple[list[Message], list[Message]]:
        """System instructions and input messages; output messages (or their older spellings)."""
        attrs = span.attributes
        inputs: list[Message] = []
        system = _json(
            attrs.get("gen_ai.system_instructions"), span, "gen_ai.system_instructions", name
        )
        if isinstance(system, list):
            text = "\n".join(
                p["content"]
                for p in system
                if isinstance(p, dict) and isinstance(p.get("content"), str)
            )
            inputs.append(Message("system", text, f"{span.origin}, gen_ai.system_instructions"))
        elif isinstance(system, str):
            inputs.append(Message("system", system, f"{span.origin}, gen_ai.system_instructions"))
        key = "gen_ai.input.messages" if "gen_ai.input.messages" in attrs else "gen_ai.prompt"
        inputs.extend(self._message_list(attrs.get(key), span, key, name))
        key = "gen_ai.output.messages" if "gen_ai.output.messages" in attrs else "gen_ai.completion"
        outputs = self._message_list(attrs.get(key), span, key, name)
        for number, (event, fields) in enumerate(span.events):
            origin, where = (
                f"{span.origin}, event {number}",
                f"{span.where}: event {number} ({event})",
            )
            if event == "gen_ai.content.prompt":
                inputs.extend(
                    _message_list(fields.get("gen_ai.prompt"), span, "gen_ai.prompt", name)
                )
            elif event == "gen_ai.content.completion":
                outputs.extend(
                    _message_list(fields.get("gen_ai.completion"), span, "gen_ai.completion", name)
                )
            elif event in _MESSAGE_EVENTS:
                body = {"role": _MESSAGE_EVENTS[event], **_event_body(fields)}
                inputs.append(chat_message(body, where, origin, name))
            elif event == "gen_ai.choice":
                body = _event_body(fields)
                message = body.get("message")
                message = message if isinstance(message, dict) else body
                outputs.append(chat_message({"role": "assistant", **message}, where, origin, name))
        return inputs, outputs

    def tool(self, span: Span, name: str) -> ToolRun:
        """``gen_ai.tool.*``: name (else from the span name), id, arguments, result."""
        attrs = span.attributes
        tool = attrs.get("gen_ai.tool.name") or span.name.removeprefix("execute_tool").strip()
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{span.where}: the execute_tool span has no 'gen_ai.tool.name'",
                fix=_FIX,
                path=name,
            )
        call_id = attrs.get("gen_ai.tool.call.id")
        result = attrs.get("gen_ai.tool.call.result")
        return ToolRun(
            id=str(call_id) if call_id not in (None, "") else None,
            name=tool,
            args=parse_arguments(attrs.get("gen_ai.tool.call.arguments")),
            result="" if result is None else result,
            ok=not span.error and not attrs.get("error.type"),
        )

    def model(self, span: Span) -> str | None:
        """``gen_ai.response.model``, else ``gen_ai.request.model``."""
        attrs = span.attributes
        model = attrs.get("gen_ai.response.model") or attrs.get("gen_ai.request.model")
        return model if isinstance(model, str) and model else None

    def usage(self, span: Span) -> tuple[int | None, int | None]:
        """``gen_ai.usage.input_tokens`` and ``output_tokens``."""
        attrs = span.attributes
        found = (attrs.get("gen_ai.usage.input_tokens"), attrs.get("gen_ai.usage.output_tokens"))
        return tuple(v if isinstance(v, int) and not isinstance(v, bool) else None for v in found)  # type: ignore[return-value]

    def text_io(self, span: Span) -> tuple[str | None, str | None]:
        """GenAI agent spans record no plain-text input or output."""
        return None, None


def _json(value: Any, span: Span, key: str, name: str) -> Any:  # noqa: ANN401 - any JSON value
    """A JSON-string attribute parsed (already-parsed values as they are)."""
    if not isinstance(value, str):
        return value
    try:
        return loads_nested(value)
    except orjson.JSONDecodeError as exc:
        if key in {"gen_ai.completion", "gen_ai.system_instructions"}:
            return value  # older instrumentations wrote plain text
        raise TraceFormatError(
            f"{span.where}: {key!r} is not valid JSON ({exc})",
            fix="the attribute holds a JSON list of {role, parts} messages; re-export the span",
            path=name,
        ) from exc


def _message_list(value: Any, span: Span, key: str, name: str) -> list[Message]:  # noqa: ANN401 - any JSON value
    return _parsed_messages(_json(value, span, key, name), span, key, name)


def _parsed_messages(
    parsed: Any,  # noqa: ANN401 - any JSON value
    span: Span,
    key: str,
    name: str,
    start: int = 0,
) -> list[Message]:
    """The messages of an attribute's parsed value, from list index ``start`` on."""
    origin = f"{span.origin}, {key}"
    if parsed is None:
        return []
    if isinstance(parsed, str):
        return [Message("assistant", parsed, origin)]
    if isinstance(parsed, dict):
        if isinstance(parsed.get("text"), str):
            return [Message("assistant", parsed["text"], origin)]
        parsed = [parsed]
    if not isinstance(parsed, list):
        raise TraceFormatError(
            f"{span.where}: {key!r} must be a list of messages, got {json_type(parsed)}",
            fix=_FIX,
            path=name,
        )
    return [
        chat_message(message, f"{span.where}: {key}[{index}]", f"{origin}[{index}]", name)
        for index, message in enumerate(parsed[start:], start)
    ]


def _event_body(fields: dict[str, Any]) -> dict[str, Any]:
    """An event's body: a JSON ``gen_ai.event.content``, else its attributes."""
    content = fields.get("gen_ai.event.content")
    if isinstance(content, str):
        try:
            parsed = loads_nested(content)
        except orjson.JSONDecodeError:
            return {"content": content}
        if isinstance(parsed, dict):
            return parsed
    body = dict(fields)
    for key in ("tool_calls", "message"):
        if isinstance(body.get(key), str):
            with contextlib.suppress(orjson.JSONDecodeError):
                body[key] = loads_nested(body[key])
    return body
