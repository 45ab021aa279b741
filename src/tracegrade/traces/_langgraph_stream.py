"""LangGraph stream dumps: ``[mode, payload]`` events rebuilt into one message list.

``stream(stream_mode=[...])`` yields ``(mode, payload)`` (``(namespace, mode, payload)``
with subgraphs). ``values`` events re-send the whole state, ``updates`` events each node's
new messages, ``messages`` events ``(message or chunk, metadata)``. Messages are deduped
by id; a message only ever seen as ``AIMessageChunk`` pieces is rebuilt from them.
``__interrupt__`` payloads are kept in the trace's metadata.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TraceFormatError
from tracegrade.traces._lc_messages import (
    FIX,
    ChunkMerger,
    LcMessage,
    is_message,
    message_frames,
    parse_message,
)
from tracegrade.traces._reading import json_type

if TYPE_CHECKING:
    from tracegrade.traces._model import Frame
    from tracegrade.traces._pairing import CallLedger

__all__ = ["STREAM_MODES", "is_event", "stream_frames"]

STREAM_MODES = frozenset(
    {
        "values",
        "updates",
        "messages",
        "messages-tuple",
        "messages/partial",
        "messages/complete",
        "custom",
        "debug",
        "tasks",
        "checkpoints",
        "events",
        "metadata",
        "messages/metadata",
    }
)
_COMPLETE_MODES = frozenset({"messages/partial", "messages/complete"})
_INTERRUPT = "__interrupt__"


def is_event(value: object) -> bool:
    """True when ``value`` looks like one stream event (not a message or a run)."""
    if isinstance(value, dict):
        return isinstance(value.get("event"), str) and "data" in value
    if not isinstance(value, list) or len(value) not in (2, 3):
        return False
    if len(value) == 3:
        return isinstance(value[1], str) and value[1] in STREAM_MODES
    first = value[0]
    return (isinstance(first, str) and first in STREAM_MODES) or is_message(first)


@dataclass(slots=True)
class _Entry:
    complete: LcMessage | None = None
    origin: str = ""
    merger: ChunkMerger | None = None
    first: int = 0
    last: int = 0


@dataclass(slots=True)
class _Stream:
    name: str
    order: list[str] = field(default_factory=list)
    entries: dict[str, _Entry] = field(default_factory=dict)
    interrupts: list[Any] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    thread_id: str | None = None
    last_chunk: str | None = None
    # Messages of ``values`` states by their exact JSON: every state re-sends the whole list,
    # and the same JSON parses to the same message (dumps tells 1, 1.0 and true apart).
    states: dict[bytes, LcMessage] = field(default_factory=dict)

    def complete(self, raw: Any, at: str, after: str | None) -> str:  # noqa: ANN401 - any JSON value
        """Record a whole message; a new one goes right after ``after`` (or at the end)."""
        message = parse_message(raw, self.name, at)
        key = _key(raw, message)
        self._place(key, after)
        entry = self.entries[key]
        entry.complete, entry.origin = message, at
        return key

    def chunk(self, raw: Any, at: str, index: int) -> None:  # noqa: ANN401 - any JSON value
        """Record a piece of a streamed message (a whole message is recorded as such)."""
        message = parse_message(raw, self.name, at)
        if not (message.chunk and message.kind == "ai"):
            self.complete(raw, at, None)
            return
        key = message.id or self.last_chunk or f"chunks from {at}"
        self._place(key, None)
        entry = self.entries[key]
        if entry.merger is None:
            entry.merger, entry.first = ChunkMerger(kind="ai", id=message.id), index
        entry.merger.add(message)
        entry.last = index
        self.last_chunk = key

    def _place(self, key: str, after: str | None, before: str | None = None) -> None:
        if key in self.entries:
            return
        self.entries[key] = _Entry()
        if after is not None:
            self.order.insert(self.order.index(after) + 1, key)
        elif before is not None:
            self.order.insert(self.order.index(before), key)
        else:
            self.order.append(key)

    def state(self, messages: list[Any], at: str) -> None:
        """A full message list (a ``values`` state): new messages keep their place in it."""
        parsed = [
            (raw, f"{at}, message {number}", self._state_message(raw, f"{at}, message {number}"))
            for number, raw in enumerate(messages)
        ]
        keys = [_key(raw, message) for raw, _, message in parsed]
        known = next((key for key in keys if key in self.entries), None)
        previous: str | None = None
        for key, (_, here, message) in zip(keys, parsed, strict=True):
            # Messages before the first known one go before it; the others after their
            # predecessor in the state.
            self._place(key, previous, before=known if previous is None else None)
            entry = self.entries[key]
            entry.complete, entry.origin = message, here
            previous = key

    def _state_message(self, raw: Any, at: str) -> LcMessage:  # noqa: ANN401 - any JSON value
        """A state's message, parsed once per distinct JSON (messages are not changed later)."""
        text = orjson.dumps(raw)
        message = self.states.get(text)
        if message is None:
            message = self.states[text] = parse_message(raw, self.name, at)
        return message


def _key(raw: Any, message: LcMessage) -> str:  # noqa: ANN401 - any JSON value
    """A message's id, or its serialised form when it has none (the same each time it is sent)."""
    return message.id or orjson.dumps(raw, option=orjson.OPT_SORT_KEYS).decode()


def stream_frames(
    events: list[Any], name: str, where: str, ledger: CallLedger
) -> tuple[list[Frame], dict[str, Any], str | None]:
    """Frames, metadata and model of a stream dump.

    Raises:
        TraceFormatError: An event or a message is malformed; names the event index.
    """
    stream = _Stream(name)
    interrupted = _read_events(stream, events, where)
    frames, model, rebuilt = _assemble(stream, ledger, name, where)
    metadata: dict[str, Any] = {}
    if stream.thread_id:
        metadata["thread_id"] = stream.thread_id
    if stream.interrupts:
        metadata["interrupts"] = stream.interrupts
        metadata["interrupted"] = interrupted
    if rebuilt:
        metadata["rebuilt_from_chunks"] = rebuilt
    if stream.skipped:
        metadata["skipped_events"] = dict(stream.skipped)
    return frames, metadata, model


def _read_events(stream: _Stream, events: list[Any], where: str) -> bool:
    """Read every event into ``stream``; True when the last one is an interrupt."""
    name = stream.name
    interrupted = False
    for index, event in enumerate(events):
        at = f"{where}, event {index}" if where else f"event {index}"
        mode, payload = _unpack(event, name, at)
        interrupted = False
        if mode in ("messages", "messages-tuple"):
            _messages_event(stream, payload, at, index)
        elif mode in _COMPLETE_MODES:
            for number, raw in enumerate(_as_list(payload)):
                stream.complete(raw, f"{at}, message {number}", None)
        elif mode in ("values", "updates"):
            if not isinstance(payload, dict):
                raise TraceFormatError(
                    f"{at}: a {mode} payload must be an object, got {json_type(payload)}",
                    fix=FIX,
                    path=name,
                )
            interrupted = _state_event(stream, mode, payload, at, index)
        else:
            stream.skipped[mode] += 1
    return interrupted


def _assemble(
    stream: _Stream, ledger: CallLedger, name: str, where: str
) -> tuple[list[Frame], str | None, list[str]]:
    """Frames of the messages in order, the model, and the keys rebuilt from chunks."""
    frames: list[Frame] = []
    model: str | None = None
    rebuilt: list[str] = []
    for key in stream.order:
        entry = stream.entries[key]
        if entry.complete is not None:
            message, origin = entry.complete, entry.origin
        elif entry.merger is not None:
            message = entry.merger.message()
            prefix = f"{where}, " if where else ""
            span = f"{entry.first}-{entry.last}" if entry.last > entry.first else str(entry.first)
            origin = (
                f"{prefix}events {span}" if entry.last > entry.first else f"{prefix}event {span}"
            )
            if message.text or message.calls:
                rebuilt.append(key)
        else:
            continue
        model = model or message.model
        frames.extend(message_frames(message, ledger, name, origin))
    return frames, model, rebuilt


def _unpack(event: Any, name: str, at: str) -> tuple[str, Any]:  # noqa: ANN401 - any JSON value
    if isinstance(event, dict) and isinstance(event.get("event"), str):
        return event["event"], event.get("data")
    if isinstance(event, list) and len(event) == 2 and isinstance(event[0], str):
        return event[0], event[1]
    if isinstance(event, list) and len(event) == 3 and isinstance(event[1], str):
        return event[1], event[2]  # (namespace, mode, payload) with subgraphs
    if isinstance(event, list) and len(event) == 2 and is_message(event[0]):
        return "messages", event  # a stream_mode="messages" dump: (chunk, metadata)
    raise TraceFormatError(
        f"{at}: an event must be [mode, payload] (or [namespace, mode, payload]),"
        f" got {json_type(event)}",
        fix="dump each streamed part as [mode, dumpd(payload)]; see docs/formats/langchain.md",
        path=name,
    )


def _as_list(payload: Any) -> list[Any]:  # noqa: ANN401 - any JSON value
    return payload if isinstance(payload, list) else [payload]


def _messages_event(stream: _Stream, payload: Any, at: str, index: int) -> None:  # noqa: ANN401 - any JSON value
    if isinstance(payload, list) and payload and is_message(payload[0]):
        raw, info = payload[0], payload[1] if len(payload) > 1 else None
    else:
        raw, info = payload, None
    if isinstance(info, dict) and stream.thread_id is None:
        thread = info.get("thread_id")
        if isinstance(thread, str):
            stream.thread_id = thread
    stream.chunk(raw, at, index)


def _state_event(stream: _Stream, mode: str, payload: dict[str, Any], at: str, index: int) -> bool:
    """Read a values or updates payload; True when it holds an interrupt."""
    interrupted = _INTERRUPT in payload
    for item in _as_list(payload.get(_INTERRUPT, [])):
        # Python sends one interrupt in both the updates and the values event: keep it once.
        if all(seen["interrupt"] != item for seen in stream.interrupts):
            stream.interrupts.append({"event": index, "interrupt": item})
    if mode == "values":
        messages = payload.get("messages")
        if messages is not None:
            stream.state(_checked_list(messages, stream.name, f"{at}, messages"), at)
        return interrupted
    for node, update in payload.items():
        if node == _INTERRUPT:
            continue
        for part in _as_list(update):
            if isinstance(part, dict) and "messages" in part:
                here = f"{at}, {node}"
                for number, raw in enumerate(_as_list(part["messages"])):
                    stream.complete(raw, f"{here}, message {number}", None)
    return interrupted


def _checked_list(value: Any, name: str, at: str) -> list[Any]:  # noqa: ANN401 - any JSON value
    if not isinstance(value, list):
        raise TraceFormatError(
            f"{at}: 'messages' must be a list, got {json_type(value)}", fix=FIX, path=name
        )
    return value
