"""Serialised LangChain messages, parsed without importing LangChain.

Three shapes are read (docs/formats/langchain.md): the ``lc`` constructor form of
``langchain_core.load.dumpd`` (``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"],
"kwargs": {...}}``), the ``messages_to_dict`` form (``{"type": "ai", "data": {...}}``), and
flat dicts (``{"type": "ai", "content": ...}`` as ``model_dump`` and the LangGraph API
write them, or ``{"role": "assistant", "content": ...}``). Each becomes a
:class:`LcMessage`; :class:`ChunkMerger` rebuilds one message from its streamed chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._placing import placed
from tracegrade.traces._reading import json_type, parse_arguments, parts_text

if TYPE_CHECKING:
    from tracegrade.traces._model import Frame
    from tracegrade.traces._pairing import CallLedger

__all__ = ["ChunkMerger", "LcMessage", "is_message", "message_frames", "parse_message"]

Kind = Literal["human", "ai", "tool", "system", "function", "remove"]

FIX = "see docs/formats/langchain.md for the message shapes read"

_CLASS_KINDS: dict[str, Kind] = {
    "HumanMessage": "human",
    "AIMessage": "ai",
    "ToolMessage": "tool",
    "SystemMessage": "system",
    "FunctionMessage": "function",
    "RemoveMessage": "remove",
}
_TYPE_KINDS: dict[str, Kind] = {
    "human": "human",
    "user": "human",
    "ai": "ai",
    "assistant": "ai",
    "tool": "tool",
    "system": "system",
    "developer": "system",
    "function": "function",
    "remove": "remove",
}
_TEXT_TYPES = frozenset({"text", "text_delta", "output_text", "input_text"})
_STATUSES = ("success", "error")


@dataclass(slots=True)
class LcMessage:
    """One LangChain message, reduced to what becomes frames.

    Attributes:
        kind: The message class, as a LangChain ``type``.
        id: The message id, or ``None``.
        text: The text of ``content`` (text parts joined).
        result: A tool message's ``content`` as the model saw it (text, or JSON kept).
        calls: ``(id, name, args)`` of each tool call an AI message asked for.
        tool_call_id: The call a tool message answers.
        ok: ``False`` for a tool message with ``status: "error"``.
        artifact: A tool message's ``artifact``.
        chunk: True for an ``...MessageChunk`` (a streamed piece).
        content_parts: The raw ``content`` list of a chunk, for merging.
        call_chunks: A chunk's ``tool_call_chunks``.
        model: The model name in ``response_metadata``, if any.
    """

    kind: Kind
    id: str | None = None
    text: str = ""
    result: Any = None
    calls: list[tuple[str | None, str, Any]] = field(default_factory=list)
    tool_call_id: str | None = None
    ok: bool = True
    artifact: Any = None
    chunk: bool = False
    content_parts: list[Any] = field(default_factory=list)
    call_chunks: list[Any] = field(default_factory=list)
    model: str | None = None


def is_message(value: object) -> bool:
    """True when ``value`` has the shape of a serialised message (any of the three forms)."""
    if not isinstance(value, dict):
        return False
    if value.get("lc") is not None and value.get("type") == "constructor":
        return True
    kind = value.get("type")
    if isinstance(kind, str) and (
        kind in _TYPE_KINDS or kind.removesuffix("Chunk") in _CLASS_KINDS
    ):
        return isinstance(value.get("data"), dict) or "content" in value
    return isinstance(value.get("role"), str) and "content" in value


def parse_message(raw: Any, name: str, at: str) -> LcMessage:  # noqa: ANN401 - any JSON value
    """Parse one serialised message.

    Raises:
        TraceFormatError: The value is not a message, has another ``lc`` version, an
            unknown type, or a malformed field; names the position ``at``.
    """
    if not isinstance(raw, dict):
        raise TraceFormatError(
            f"{at}: a message must be a JSON object, got {json_type(raw)}", fix=FIX, path=name
        )
    if "lc" in raw:
        kind, chunk, fields = _constructor(raw, name, at)
    elif isinstance(raw.get("data"), dict) and isinstance(raw.get("type"), str):
        kind, chunk = _kind_of_type(raw["type"], raw["data"], name, at)
        fields = raw["data"]
    elif isinstance(raw.get("type"), str):
        kind, chunk = _kind_of_type(raw["type"], raw, name, at)
        fields = raw
    elif "role" in raw:
        role = raw["role"]
        if not isinstance(role, str) or role not in _TYPE_KINDS:
            raise TraceFormatError(
                f"{at}: unknown role {role!r}",
                fix="a message's role is one of: user, assistant, tool, system, developer",
                path=name,
            )
        kind, chunk, fields = _TYPE_KINDS[role], False, raw
    else:
        raise TraceFormatError(
            f"{at}: not a LangChain message (no 'lc', 'type' or 'role')", fix=FIX, path=name
        )
    return _fields(kind, chunk, fields, name, at)


def _constructor(raw: dict[str, Any], name: str, at: str) -> tuple[Kind, bool, dict[str, Any]]:
    version, form, path = raw.get("lc"), raw.get("type"), raw.get("id")
    if version != 1:
        raise TraceFormatError(
            f"{at}: unsupported LangChain serialisation version lc={version!r}",
            fix="only lc=1 (langchain_core.load.dumpd) is read; re-export with LangChain >= 0.1",
            path=name,
        )
    if form != "constructor":
        raise TraceFormatError(
            f"{at}: a serialised object of type {form!r}, not a message constructor",
            fix="serialise the messages themselves with langchain_core.load.dumpd",
            path=name,
        )
    if not isinstance(path, list) or not path or not isinstance(path[-1], str):
        raise TraceFormatError(
            f'{at}: \'id\' must be the class path, e.g. ["langchain_core", "messages",'
            f' "AIMessage"], got {json_type(path)}',
            fix=FIX,
            path=name,
        )
    kwargs = raw.get("kwargs", {})
    if not isinstance(kwargs, dict):
        raise TraceFormatError(
            f"{at}: 'kwargs' must be an object, got {json_type(kwargs)}", fix=FIX, path=name
        )
    cls = path[-1]
    chunk = cls.endswith("Chunk")
    base = cls.removesuffix("Chunk")
    if base == "ChatMessage":
        return _chat_role(kwargs, name, at), chunk, kwargs
    if base not in _CLASS_KINDS:
        raise TraceFormatError(
            f"{at}: unknown message class {cls!r}",
            fix="classes read: HumanMessage, AIMessage, ToolMessage, SystemMessage,"
            " ChatMessage, FunctionMessage, RemoveMessage and their Chunk forms",
            path=name,
        )
    return _CLASS_KINDS[base], chunk, kwargs


def _kind_of_type(kind: str, fields: dict[str, Any], name: str, at: str) -> tuple[Kind, bool]:
    chunk = kind.endswith("Chunk")
    base = kind.removesuffix("Chunk")
    if kind == "chat" or base == "ChatMessage":
        return _chat_role(fields, name, at), chunk
    if kind in _TYPE_KINDS:
        return _TYPE_KINDS[kind], chunk
    if base in _CLASS_KINDS:
        return _CLASS_KINDS[base], chunk
    raise TraceFormatError(
        f"{at}: unknown message type {kind!r}",
        fix="types read: human, ai, tool, system, chat, function, remove (and *MessageChunk)",
        path=name,
    )


def _chat_role(fields: dict[str, Any], name: str, at: str) -> Kind:
    role = fields.get("role")
    if isinstance(role, str) and role in _TYPE_KINDS:
        return _TYPE_KINDS[role]
    raise TraceFormatError(
        f"{at}: a ChatMessage with role {role!r}",
        fix="a ChatMessage's role is one of: user, assistant, tool, system",
        path=name,
    )


def _fields(kind: Kind, chunk: bool, fields: dict[str, Any], name: str, at: str) -> LcMessage:  # noqa: FBT001 - internal
    message_id = fields.get("id")
    message = LcMessage(
        kind=kind, id=message_id if isinstance(message_id, str) and message_id else None
    )
    message.chunk = chunk
    content = fields.get("content")
    if content is not None and not isinstance(content, (str, list)):
        raise TraceFormatError(
            f"{at}: 'content' must be a string or a list of parts, got {json_type(content)}",
            fix=FIX,
            path=name,
        )
    message.text = content_text(content)
    if kind == "ai":
        metadata = fields.get("response_metadata")
        if isinstance(metadata, dict):
            model = metadata.get("model_name") or metadata.get("model")
            message.model = model if isinstance(model, str) and model else None
        if chunk:
            message.content_parts = content if isinstance(content, list) else [content or ""]
            message.call_chunks = _list(fields, "tool_call_chunks", name, at)
        message.calls = _calls(fields, name, at, partial=chunk)
        if chunk and not message.calls and message.call_chunks:
            # A whole chunk (in a values state) that kept only its tool_call_chunks.
            merger = ChunkMerger(kind="ai", id=None)
            merger.add(message)
            message.calls = merger.message().calls
    elif kind in ("tool", "function"):
        message.result = _result_value(content)
        call_id = fields.get("tool_call_id")
        if call_id is not None and not isinstance(call_id, str):
            raise TraceFormatError(
                f"{at}: 'tool_call_id' must be a string, got {json_type(call_id)}",
                fix="a ToolMessage's tool_call_id is the id of the call it answers",
                path=name,
            )
        message.tool_call_id = call_id or None
        status = fields.get("status", "success")
        if status is None:
            status = "success"
        if status not in _STATUSES:
            raise TraceFormatError(
                f"{at}: unknown tool message status {status!r}",
                fix="a ToolMessage's status is 'success' or 'error'",
                path=name,
            )
        message.ok = status == "success"
        message.artifact = fields.get("artifact")
    return message


def _list(fields: dict[str, Any], key: str, name: str, at: str) -> list[Any]:
    value = fields.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise TraceFormatError(
            f"{at}: {key!r} must be a list, got {json_type(value)}", fix=FIX, path=name
        )
    return value


def _calls(
    fields: dict[str, Any], name: str, at: str, *, partial: bool
) -> list[tuple[str | None, str, Any]]:
    """``tool_calls`` and ``invalid_tool_calls``; OpenAI-style ``additional_kwargs`` as fallback.

    In a chunk (``partial``), a call with no name is a piece of arguments still streaming
    (LangChain's own partial parse of ``tool_call_chunks``): skipped, not an error.
    """
    entries = _list(fields, "tool_calls", name, at) + _list(fields, "invalid_tool_calls", name, at)
    if not entries:
        extra = fields.get("additional_kwargs")
        if isinstance(extra, dict):
            entries = _list(extra, "tool_calls", name, f"{at}, additional_kwargs")
            if not entries and isinstance(extra.get("function_call"), dict):
                entries = [extra["function_call"]]
    calls: list[tuple[str | None, str, Any]] = []
    for number, entry in enumerate(entries):
        here = f"{at}, tool call {number}"
        if not isinstance(entry, dict):
            raise TraceFormatError(
                f"{here}: a tool call must be a JSON object, got {json_type(entry)}",
                fix=FIX,
                path=name,
            )
        function = entry.get("function")
        body = function if isinstance(function, dict) else entry
        tool = body.get("name")
        if partial and not tool:
            continue
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{here}: the tool call has no name",
                fix="each tool call needs a non-empty 'name'",
                path=name,
            )
        call_id = entry.get("id")
        if call_id is not None and not isinstance(call_id, str):
            raise TraceFormatError(
                f"{here}: the call id must be a string, got {json_type(call_id)}",
                fix=FIX,
                path=name,
            )
        args = body["args"] if "args" in body else body.get("arguments")
        calls.append((call_id or None, tool, parse_arguments(args)))
    return calls


def content_text(content: Any) -> str:  # noqa: ANN401 - any JSON value
    """The text of a message's ``content``: a string, or its text parts joined by newlines.

    Reasoning, thinking, tool-use and media parts carry no answer text and are skipped.
    """
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [part for part in content if isinstance(part, str) or _is_text_part(part)]
    return parts_text(parts)


def _result_value(content: Any) -> Any:  # noqa: ANN401 - any JSON value
    """A tool message's content: text as text, a list of text parts joined, other JSON kept."""
    if content is None:
        return ""
    if isinstance(content, list) and all(
        isinstance(part, str) or (isinstance(part, dict) and part.get("type") in _TEXT_TYPES)
        for part in content
    ):
        return content_text(content)
    return content


@dataclass(slots=True)
class ChunkMerger:
    """The pieces of one streamed message (``AIMessageChunk`` events of the same id).

    Text parts are concatenated per content ``index`` (a string content is one part);
    ``tool_call_chunks`` are merged per ``index``: ``args`` (partial JSON strings) and
    ``name`` concatenated, the first non-empty ``id`` kept, as LangChain's ``+`` does.
    """

    kind: Kind
    id: str | None
    model: str | None = None
    pieces: int = 0
    _texts: dict[object, list[str]] = field(default_factory=dict)
    _calls: dict[object, dict[str, str]] = field(default_factory=dict)

    def add(self, chunk: LcMessage) -> None:
        """Add the next piece."""
        self.pieces += 1
        self.model = self.model or chunk.model
        for position, part in enumerate(chunk.content_parts):
            if isinstance(part, str):
                self._texts.setdefault("string", []).append(part)
            elif _is_text_part(part):
                text = part.get("text")
                index = part.get("index")
                key = index if isinstance(index, int | str) else f"part {position}"
                self._texts.setdefault(key, []).append(text if isinstance(text, str) else "")
        for position, piece in enumerate(chunk.call_chunks):
            if not isinstance(piece, dict):
                continue
            index, call_id = piece.get("index"), piece.get("id")
            slot: object = (
                index
                if isinstance(index, int | str)
                else call_id
                if isinstance(call_id, str) and call_id
                else f"call {position}"
            )
            merged = self._calls.setdefault(slot, {"id": "", "name": "", "args": ""})
            for part in ("name", "args"):
                value = piece.get(part)
                if isinstance(value, str):
                    merged[part] += value
            call_id = piece.get("id")
            if isinstance(call_id, str) and call_id and not merged["id"]:
                merged["id"] = call_id

    def message(self) -> LcMessage:
        """The message the pieces add up to."""
        text = "\n".join("".join(parts) for parts in self._texts.values())
        calls: list[tuple[str | None, str, Any]] = [
            (c["id"] or None, c["name"], parse_arguments(c["args"]) if c["args"] else {})
            for c in self._calls.values()
            if c["name"]
        ]
        return LcMessage(kind=self.kind, id=self.id, text=text, calls=calls, model=self.model)


def message_frames(message: LcMessage, ledger: CallLedger, name: str, at: str) -> list[Frame]:
    """The frames of one message, each with ``origin`` ``at``.

    Raises:
        TraceFormatError: A tool result names no call and no call is waiting.
    """
    frames: list[Frame] = []
    if message.kind == "human":
        frames.append(UserFrame(content=message.text, origin=at))
    elif message.kind == "system":
        frames.append(SystemFrame(content=message.text, origin=at))
    elif message.kind == "ai":
        if message.text:
            frames.append(AssistantFrame(content=message.text, origin=at))
        for number, (call_id, tool, args) in enumerate(message.calls):
            call = ledger.call(call_id, tool, args)
            frames.append(placed(call, f"{at}, tool call {number}"))
    elif message.kind in ("tool", "function"):
        # A legacy FunctionMessage names no call: it answers the earliest open call.
        call_id = message.tool_call_id if message.kind == "tool" else None
        result = ledger.result(
            call_id, ok=message.ok, result=message.result, artifact=message.artifact
        )
        if result is None:
            raise TraceFormatError(
                f"{at}: a tool result with no tool_call_id and no call waiting for a result",
                fix="give the ToolMessage the tool_call_id of the call it answers",
                path=name,
            )
        frames.append(placed(result, at))
    return frames


def _is_text_part(part: object) -> bool:
    """A content part of a text type (a part whose ``type`` is not a string is not one)."""
    if not isinstance(part, dict):
        return False
    kind = part.get("type")
    return isinstance(kind, str) and kind in _TEXT_TYPES
