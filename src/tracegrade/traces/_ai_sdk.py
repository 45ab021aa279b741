"""Vercel AI SDK telemetry spans (``ai.*`` attributes), see docs/formats/ai-sdk.md.

``generateText`` / ``streamText`` (and ``generateObject`` / ``streamObject``) write a root
span (``ai.operationId`` = ``ai.generateText``, with ``ai.prompt`` and the final
``ai.response.text``), one ``ai.generateText.doGenerate`` (``doStream``) span per model call
(``ai.prompt.messages``, ``ai.response.text``, ``ai.response.toolCalls``) and one
``ai.toolCall`` span per tool execution (``ai.toolCall.name`` / ``id`` / ``args`` /
``result``). Spans come in any envelope the span readers know, including the JSON of
OpenTelemetry JS's ConsoleSpanExporter; the tree is walked as for the other span formats.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import orjson

from tracegrade.errors import TraceFormatError
from tracegrade.traces._message_lists import MessageLists
from tracegrade.traces._reading import (
    json_type,
    loads_nested,
    parse_arguments,
    starts_with,
    suffix_ok,
)
from tracegrade.traces._registry import reader
from tracegrade.traces._span_walk import (
    Call,
    Message,
    Reply,
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

_FIX = "see docs/formats/ai-sdk.md for the ai.* attributes read"
_SIGNATURE = re.compile(rb'"ai\.(operationId|prompt|toolCall\.name|response\.text|model\.id)"')
_PROMPT_MESSAGES = "ai.prompt.messages"
_MODEL_CALLS = frozenset(
    {"ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate",
     "ai.streamObject.doStream"}
)  # fmt: skip
_ROLES: dict[str, Literal["system", "user", "assistant", "tool"]] = {
    "system": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}


def _looks_ai_sdk(name: str, head: bytes) -> bool:
    return (
        suffix_ok(name, ".json", ".jsonl")
        and starts_with(head, rb"[\[{]")
        and _SIGNATURE.search(head) is not None
    )


def _read_ai_sdk_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    return read_span_lines(lines, name, AiSdk)


@reader(
    "ai-sdk",
    description="Vercel AI SDK telemetry spans (ai.generateText, ai.streamText, ai.toolCall):"
    " OTLP JSON, OpenTelemetry JS console-exporter JSON or Phoenix-style span JSON",
    can_read=_looks_ai_sdk,
    priority=10,  # registered before otel-genai: the SDK's spans carry gen_ai.* keys too
    read_lines=_read_ai_sdk_lines,
)
def _read_ai_sdk(data: bytes, name: str) -> Iterator[Trace]:
    return read_span_file(data, name, AiSdk)


def _operation(span: Span) -> str:
    operation = span.attributes.get("ai.operationId")
    if isinstance(operation, str) and operation:
        return operation
    # operation.name is "<operation id> <function id>" when a functionId was set.
    named = span.attributes.get("operation.name")
    return named.split(" ", 1)[0] if isinstance(named, str) else span.name


class AiSdk:
    """The AI SDK's ``ai.*`` attribute convention (one instance per trace)."""

    def __init__(self) -> None:
        self._lists = MessageLists()

    def role(self, span: Span) -> SpanRole:
        """``doGenerate`` / ``doStream`` spans are model calls; ``ai.toolCall`` spans tools."""
        operation = _operation(span)
        if operation in _MODEL_CALLS:
            return "llm"
        if operation == "ai.toolCall" or "ai.toolCall.name" in span.attributes:
            return "tool"
        return "other"

    def messages(self, span: Span, name: str) -> tuple[list[Message], list[Message]]:
        """``ai.prompt.messages`` in; ``ai.response.text`` and ``ai.response.toolCalls`` out."""
        attrs, origin = span.attributes, span.origin
        key = _PROMPT_MESSAGES
        prompt = attrs.get(key)

        def parsed_messages(parsed: Any, start: int) -> list[Message]:  # noqa: ANN401 - JSON
            if parsed is None:
                return []
            if not isinstance(parsed, list):
                raise TraceFormatError(
                    f"{span.where}: '{key}' must be a list of messages, got {json_type(parsed)}",
                    fix=_FIX,
                    path=name,
                )
            return [
                _message(raw, span, i, f"{origin}, {key}[{i}]", name)
                for i, raw in enumerate(parsed[start:], start)
            ]

        if isinstance(prompt, str):  # each call re-sends the history: parse what it adds
            load = lambda text: _json(text, span, key, name)  # noqa: E731 - a one-line loader
            inputs = self._lists.read(prompt, key, f"{origin}, {key}", load, parsed_messages)
        else:
            inputs = parsed_messages(prompt, 0)
        text = attrs.get("ai.response.text")
        if not isinstance(text, str):
            text = attrs.get("ai.response.object")
        calls = _json(attrs.get("ai.response.toolCalls"), span, "ai.response.toolCalls", name)
        found = (
            tuple(_call(c) for c in calls if isinstance(c, dict)) if isinstance(calls, list) else ()
        )
        outputs = []
        if isinstance(text, str) or found:
            here = f"{origin}, ai.response"
            outputs.append(Message("assistant", text if isinstance(text, str) else "", here, found))
        return inputs, outputs

    def tool(self, span: Span, name: str) -> ToolRun:
        """``ai.toolCall.name`` / ``id`` / ``args`` (``input``) / ``result`` (``output``)."""
        attrs = span.attributes
        tool = attrs.get("ai.toolCall.name")
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{span.where}: the ai.toolCall span has no 'ai.toolCall.name'", fix=_FIX, path=name
            )
        call_id = attrs.get("ai.toolCall.id")
        args = attrs.get("ai.toolCall.args", attrs.get("ai.toolCall.input"))
        result = attrs.get("ai.toolCall.result", attrs.get("ai.toolCall.output"))
        return ToolRun(
            id=call_id if isinstance(call_id, str) and call_id else None,
            name=tool,
            args=args,
            result="" if result is None else result,
            ok=not span.error,
            parse_json=True,  # most calls and results are read off the LLM spans instead
        )

    def model(self, span: Span) -> str | None:
        """``ai.response.model``, else ``ai.model.id``."""
        attrs = span.attributes
        model = attrs.get("ai.response.model") or attrs.get("ai.model.id")
        return model if isinstance(model, str) and model else None

    def usage(self, span: Span) -> tuple[int | None, int | None]:
        """Tokens in and out: ``ai.usage.inputTokens`` and ``outputTokens`` (or v4 names)."""
        attrs = span.attributes
        tokens_in = attrs.get("ai.usage.inputTokens", attrs.get("ai.usage.promptTokens"))
        tokens_out = attrs.get("ai.usage.outputTokens", attrs.get("ai.usage.completionTokens"))
        return _count(tokens_in), _count(tokens_out)

    def text_io(self, span: Span) -> tuple[str | None, str | None]:
        """The root's ``ai.prompt`` (its ``prompt``, else its last user message) and answer."""
        attrs = span.attributes
        answer = attrs.get("ai.response.text")
        prompt = attrs.get("ai.prompt")
        try:
            parsed = loads_nested(prompt) if isinstance(prompt, str) else prompt
        except orjson.JSONDecodeError:
            parsed = prompt
        request: Any = parsed
        if isinstance(parsed, dict):
            request = parsed.get("prompt")
            messages = parsed.get("messages")
            if not isinstance(request, str) and isinstance(messages, list):
                users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
                request = _content_text(users[-1].get("content")) if users else None
        return (
            request if isinstance(request, str) else None,
            answer if isinstance(answer, str) else None,
        )


def _count(value: Any) -> int | None:  # noqa: ANN401 - any JSON value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _json(value: Any, span: Span, key: str, name: str) -> Any:  # noqa: ANN401 - any JSON value
    if not isinstance(value, str):
        return value
    try:
        return loads_nested(value)
    except orjson.JSONDecodeError as exc:
        raise TraceFormatError(
            f"{span.where}: {key!r} is not valid JSON ({exc})",
            fix="the AI SDK writes this attribute as a JSON string; re-export the span",
            path=name,
        ) from exc


def _content_text(content: Any) -> str:  # noqa: ANN401 - any JSON value
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") == "text"
            and isinstance(part.get("text"), str)
        )
    return ""


def _call(part: dict[str, Any]) -> Call:
    call_id = part.get("toolCallId")
    args = part["input"] if "input" in part else part.get("args")  # v5 "input", v4 "args"
    return Call(
        call_id if isinstance(call_id, str) and call_id else None,
        str(part.get("toolName") or ""),
        parse_arguments(args),
    )


def _reply(part: dict[str, Any]) -> Reply:
    call_id = part.get("toolCallId")
    if "output" in part:  # v5: {type: "text" | "json" | "error-text" | ..., value}
        output = part["output"]
        value = output.get("value") if isinstance(output, dict) and "value" in output else output
    else:
        value = part.get("result")
    return Reply(call_id if isinstance(call_id, str) and call_id else None, value)


def _message(raw: Any, span: Span, index: int, origin: str, name: str) -> Message:  # noqa: ANN401 - any JSON value
    """Prompt message ``index``: ``{role, content}``, content a string or a list of typed parts."""
    if not isinstance(raw, dict):
        raise TraceFormatError(
            f"{span.where}: {_PROMPT_MESSAGES}[{index}]: a message must be a JSON object, got"
            f" {json_type(raw)}",
            fix=_FIX,
            path=name,
        )
    role = _ROLES.get(str(raw.get("role")))
    if role is None:
        raise TraceFormatError(
            f"{span.where}: {_PROMPT_MESSAGES}[{index}]: unknown role {raw.get('role')!r}",
            fix="a prompt message's role is one of: system, user, assistant, tool",
            path=name,
        )
    content = raw.get("content")
    if not isinstance(content, list):
        return Message(role, content if isinstance(content, str) else "", origin)
    # One pass over the parts: the text of text parts, the calls and the results.
    texts: list[str] = []
    calls: list[Call] = []
    replies: list[Reply] = []
    for part in content:
        if isinstance(part, dict):
            kind = part.get("type")
            if kind == "text":
                text = part.get("text")
                if isinstance(text, str):
                    texts.append(text)
            elif kind == "tool-call":
                calls.append(_call(part))
            elif kind == "tool-result":
                replies.append(_reply(part))
    return Message(role, "\n".join(texts), origin, tuple(calls), tuple(replies))
