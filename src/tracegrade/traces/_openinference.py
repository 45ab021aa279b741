"""OpenInference spans: Phoenix span JSON, OTLP JSON exports, attribute maps.

See docs/formats/openinference.md. Span kinds come from ``openinference.span.kind`` (or
Phoenix's ``span_kind``); LLM spans carry ``llm.input_messages.<i>.message.*`` and
``llm.output_messages.<i>.message.*``; TOOL spans carry ``tool.name``, the call id
(``tool_call.id`` or ``tool.id``), the arguments in ``input.value`` and the result in
``output.value``. The span tree is walked by :mod:`tracegrade.traces._span_walk`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TraceFormatError
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

__all__ = ["chat_message"]

_FIX = "see docs/formats/openinference.md for the attributes read"
_MARKERS = (
    b"openinference.span.kind",
    b'"span_kind"',
    b"llm.input_messages",
    b"llm.output_messages",
    b'"input.value"',
    b"llm.model_name",
)
_MESSAGE = re.compile(r"^llm\.(input|output)_messages\.(\d+)\.message\.(.+)$")
_CALL = re.compile(r"^tool_calls\.(\d+)\.tool_call\.(.+)$")
_PART = re.compile(r"^contents\.(\d+)\.message_content\.(.+)$")
_ROLES = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "model": "assistant",
    "ai": "assistant",
    "tool": "tool",
    "function": "tool",
}
_LLM_KINDS = frozenset({"LLM"})

_Read = tuple[tuple[str, ...], tuple[Any, ...], "Message"]
"""A message read at one index: its field names and values (in attribute order), and it."""
_Layout = tuple[tuple[str, int, slice | tuple[int, ...], tuple[str, ...]], ...]
"""Per message of a span: side, index, where its values sit, and its field names."""
_LAYOUTS: dict[tuple[str, ...], _Layout] = {}
_MAX_LAYOUTS = 4096  # key sequences remembered; cleared when full


def _looks_openinference(name: str, head: bytes) -> bool:
    return (
        suffix_ok(name, ".json", ".jsonl")
        and starts_with(head, rb"[\[{]")
        and any(marker in head for marker in _MARKERS)
    )


def _read_openinference_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    return read_span_lines(lines, name, OpenInference)


@reader(
    "openinference",
    description="OpenInference spans: Phoenix span JSON, an OTLP JSON export (.json/.jsonl)"
    " or an attribute map with openinference.span.kind / llm.* / input.value",
    can_read=_looks_openinference,
    priority=10,
    read_lines=_read_openinference_lines,
)
def _read_openinference(data: bytes, name: str) -> Iterator[Trace]:
    return read_span_file(data, name, OpenInference)


class OpenInference:
    """The OpenInference attribute convention (one instance per trace)."""

    def __init__(self) -> None:
        # The last message read at each index of each side, with its fields. Every LLM span
        # re-sends the whole history, so most messages have the fields already read at their
        # index; a new input is most often the previous span's output, so outputs are tried too.
        # Fields are compared, not hashed: hashing every message's text cost more than it saved.
        self._inputs: dict[int, _Read] = {}
        self._outputs: dict[int, _Read] = {}

    def _indexed(
        self,
        fields: tuple[str, ...],
        values: tuple[Any, ...],
        span: Span,
        *,
        side: str,
        index: int,
        name: str,
    ) -> Message:
        """The message of one set of field values, read once for all the spans that send it.

        A message read before is handed back as it was, with the origin of its first
        reading: spans are read in the order the walk visits them, so that is where the
        walk first meets it, and a re-sent history adds no frame.
        """
        read = self._inputs if side == "input" else self._outputs
        last = read.get(index)
        if last is None or last[1] != values or last[0] != fields:
            last = next(
                (o for o in self._outputs.values() if o[1] == values and o[0] == fields), None
            )
        if last is not None:
            read[index] = last
            return last[2]
        at = f"llm.{side}_messages.{index}"
        message = _indexed(dict(zip(fields, values, strict=True)), span, at, name)
        # Only string fields are remembered: 1 == 1.0 == True, but they read differently.
        if all(type(value) is str for value in values):
            read[index] = (fields, values, message)
        return message

    def role(self, span: Span) -> SpanRole:
        """LLM and TOOL spans by kind; a span with messages but no kind is an LLM span."""
        attrs = span.attributes
        kind = str(attrs.get("openinference.span.kind") or span.kind or "").upper()
        if kind in _LLM_KINDS:
            return "llm"
        if kind == "TOOL":
            return "tool"
        if not kind and any(key.startswith("llm.input_messages.") for key in attrs):
            return "llm"
        return "other"

    def messages(self, span: Span, name: str) -> tuple[list[Message], list[Message]]:
        """The indexed messages; else the ``messages`` of a JSON ``input.value``."""
        attrs = span.attributes
        values = tuple(attrs.values())
        inputs: list[Message] = []
        outputs: list[Message] = []
        for side, index, where, fields in _layout(tuple(attrs)):  # inputs first, each by index
            got = values[where] if isinstance(where, slice) else tuple(values[i] for i in where)
            read = self._indexed(fields, got, span, side=side, index=index, name=name)
            (inputs if side == "input" else outputs).append(read)
        if not inputs:
            inputs = _value_messages(span, "input", name)
        if not outputs:
            outputs = _value_messages(span, "output", name)
        return inputs, outputs

    def tool(self, span: Span, name: str) -> ToolRun:
        """Name, call id, arguments (``input.value``) and result (``output.value``)."""
        attrs = span.attributes
        tool = attrs.get("tool.name") or span.name
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{span.where}: the TOOL span has no 'tool.name' and no span name",
                fix=_FIX,
                path=name,
            )
        call_id = attrs.get("tool_call.id") or attrs.get("tool.id")
        if call_id is not None and not isinstance(call_id, str):
            call_id = str(call_id)
        args = next(
            (
                attrs[key]
                for key in ("input.value", "tool.arguments", "tool.args", "tool.input")
                if key in attrs
            ),
            None,
        )
        return ToolRun(
            id=call_id or None,
            name=tool,
            args=parse_arguments(args),
            result=_tool_output(attrs.get("output.value")),
            ok=not span.error,
        )

    def model(self, span: Span) -> str | None:
        """``llm.model_name``."""
        model = span.attributes.get("llm.model_name")
        return model if isinstance(model, str) and model else None

    def usage(self, span: Span) -> tuple[int | None, int | None]:
        """``llm.token_count.prompt`` and ``.completion``."""
        attrs = span.attributes
        return _count(attrs.get("llm.token_count.prompt")), _count(
            attrs.get("llm.token_count.completion")
        )

    def text_io(self, span: Span) -> tuple[str | None, str | None]:
        """A root span's ``input.value`` / ``output.value`` when they are plain text."""
        return _plain(span.attributes, "input"), _plain(span.attributes, "output")


def _count(value: Any) -> int | None:  # noqa: ANN401 - any JSON value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _plain(attrs: dict[str, Any], side: str) -> str | None:
    value, mime = attrs.get(f"{side}.value"), attrs.get(f"{side}.mime_type")
    if not isinstance(value, str) or mime not in (None, "text/plain"):
        return None
    if mime is None and value.lstrip().startswith(("{", "[")):
        return None  # JSON with no mime type: a structured payload, not the user's words
    return value


def _tool_output(value: Any) -> Any:  # noqa: ANN401 - any JSON value
    """``output.value``; a LangChain ToolMessage dump gives its content."""
    if isinstance(value, str) and value.startswith("{") and '"type"' in value:
        try:
            parsed = loads_nested(value)
        except orjson.JSONDecodeError:
            return value
        data = parsed.get("data") if isinstance(parsed, dict) else None
        if parsed.get("type") == "tool" and isinstance(data, dict) and "content" in data:
            return data["content"]
    return "" if value is None else value


@lru_cache(maxsize=4096)
def _message_field(key: str) -> tuple[tuple[str, int], str] | None:
    """``((side, index), field)`` of an ``llm.<side>_messages.<i>.message.<field>`` key."""
    match = _MESSAGE.match(key)
    return None if match is None else ((match[1], int(match[2])), match[3])


def _layout(keys: tuple[str, ...]) -> _Layout:
    """Where each message's fields sit among a span's attributes, inputs first, by index.

    Spans of one conversation share their attribute keys up to the history's length, so the
    layout is worked out once per key sequence; a span then takes each message's values as
    one slice of its attribute values, and comparing those with the last read is one C-level
    tuple comparison instead of a loop over every attribute.
    """
    layout = _LAYOUTS.get(keys)
    if layout is None:
        found: dict[tuple[str, int], list[tuple[int, str]]] = {}
        for position, key in enumerate(keys):
            field = _message_field(key)
            if field is not None:
                found.setdefault(field[0], []).append((position, field[1]))
        entries: list[tuple[str, int, slice | tuple[int, ...], tuple[str, ...]]] = []
        for (side, index), fields in sorted(found.items()):
            positions = tuple(position for position, _ in fields)
            contiguous = positions == tuple(range(positions[0], positions[-1] + 1))
            where = slice(positions[0], positions[-1] + 1) if contiguous else positions
            entries.append((side, index, where, tuple(name for _, name in fields)))
        layout = tuple(entries)
        if len(_LAYOUTS) >= _MAX_LAYOUTS:
            _LAYOUTS.clear()
        _LAYOUTS[keys] = layout
    return layout


def _indexed(fields: dict[str, Any], span: Span, at: str, name: str) -> Message:
    where = f"{span.where}: {at}"
    role = _role(fields.get("role"), where, name)
    calls: dict[int, dict[str, Any]] = {}
    parts: dict[int, dict[str, Any]] = {}
    for key, value in fields.items():
        # Most fields are plain (role, content): test the prefix before running a regex.
        if key.startswith("tool_calls.") and (match := _CALL.match(key)):
            calls.setdefault(int(match[1]), {})[match[2]] = value
        elif key.startswith("contents.") and (match := _PART.match(key)):
            parts.setdefault(int(match[1]), {})[match[2]] = value
    content = fields.get("content")
    if content is not None and not isinstance(content, str):
        content = orjson.dumps(content).decode()
    texts = [
        part["text"]
        for _, part in sorted(parts.items())
        if part.get("type", "text") == "text" and isinstance(part.get("text"), str)
    ]
    text = content if content is not None else "\n".join(texts)
    origin = f"{span.origin}, {at}"
    if role == "tool":
        return Message("tool", "", origin, replies=(Reply(_id(fields.get("tool_call_id")), text),))
    found: list[Call] = []
    for number, call in sorted(calls.items()):
        tool = call.get("function.name")
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{where}: tool call {number} has no 'tool_call.function.name'",
                fix=_FIX,
                path=name,
            )
        found.append(
            Call(_id(call.get("id")), tool, parse_arguments(call.get("function.arguments")))
        )
    return Message(role, text, origin, calls=tuple(found))


def _id(value: Any) -> str | None:  # noqa: ANN401 - any JSON value
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else str(value)


def _role(role: Any, where: str, name: str) -> Any:  # noqa: ANN401 - the role literal
    if isinstance(role, str) and role.lower() in _ROLES:
        return _ROLES[role.lower()]
    shown = "no role" if role is None else f"unknown role {role!r}"
    raise TraceFormatError(
        f"{where}: {shown}",
        fix="a message's role is one of: system, developer, user, assistant, tool",
        path=name,
    )


def _value_messages(span: Span, side: str, name: str) -> list[Message]:
    """Messages in a JSON ``input.value`` (``{"messages": [...]}``) or ``output.value``."""
    parsed = _json_object(span.attributes.get(f"{side}.value"))
    if parsed is None:
        return []
    origin, where = f"{span.origin}, {side}.value", f"{span.where}: {side}.value"
    if side == "input":
        messages = parsed.get("messages")
        if not isinstance(messages, list):
            return []
        return [
            chat_message(m, f"{where} message {i}", origin, name) for i, m in enumerate(messages)
        ]
    choices = parsed.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    if isinstance(message, dict):
        return [chat_message(message, where, origin, name)]
    text = parsed.get("text")
    return [Message("assistant", text, origin)] if isinstance(text, str) else []


def _json_object(value: Any) -> dict[str, Any] | None:  # noqa: ANN401 - any JSON value
    """A JSON object in a string attribute, or ``None`` (not JSON, or not an object)."""
    if not isinstance(value, str) or not value.lstrip().startswith("{"):
        return None
    try:
        parsed = loads_nested(value)
    except orjson.JSONDecodeError:
        return None
    return parsed if isinstance(parsed, dict) else None


def chat_message(raw: Any, where: str, origin: str, name: str) -> Message:  # noqa: ANN401 - any JSON value
    """One message in OTel GenAI parts form ``{role, parts}`` or OpenAI chat form.

    Raises:
        TraceFormatError: The message is not an object, or has an unknown role.
    """
    if not isinstance(raw, dict):
        raise TraceFormatError(
            f"{where}: a message must be a JSON object, got {json_type(raw)}", fix=_FIX, path=name
        )
    role = _role(raw.get("role"), where, name)
    parts = raw.get("parts")
    if isinstance(parts, list):
        return _parts_message(role, parts, origin)
    texts: list[str] = []
    content = raw.get("content")
    if isinstance(content, str):
        texts.append(content)
    elif isinstance(content, list):
        texts.extend(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    calls: list[Call] = []
    for call in raw.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        body = function if isinstance(function, dict) else call
        if isinstance(body, dict) and isinstance(body.get("name"), str):
            arguments = parse_arguments(body.get("arguments"))
            calls.append(Call(_id(call.get("id")), body["name"], arguments))
    if role == "tool":
        reply = Reply(_id(raw.get("tool_call_id") or raw.get("id")), "\n".join(texts))
        return Message("tool", "", origin, replies=(reply,))
    return Message(role, "\n".join(texts), origin, calls=tuple(calls))


def _parts_message(role: Any, parts: list[Any], origin: str) -> Message:  # noqa: ANN401 - the role literal
    """An OTel GenAI message: text, ``tool_call`` and ``tool_call_response`` parts."""
    texts: list[str] = []
    calls: list[Call] = []
    replies: list[Reply] = []
    for part in parts:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("content"), str):
            texts.append(part["content"])
        elif kind == "tool_call" and isinstance(part.get("name"), str):
            arguments = parse_arguments(part.get("arguments"))
            calls.append(Call(_id(part.get("id")), part["name"], arguments))
        elif kind == "tool_call_response":
            replies.append(Reply(_id(part.get("id")), part.get("response")))
    return Message(role, "\n".join(texts), origin, calls=tuple(calls), replies=tuple(replies))
