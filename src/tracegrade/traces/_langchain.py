"""LangChain messages and LangGraph state and stream dumps (docs/formats/langchain.md).

Read without importing LangChain (an optional extra). A ``.json`` file holds one run:

- a list of serialised messages (``dumpd`` constructor form, ``messages_to_dict`` form or
  flat ``type``/``role`` dicts, which may be mixed);
- a LangGraph state: ``{"messages": [...]}``, ``{"values": {"messages": [...]}}``
  (``get_state`` / the LangGraph API) or a checkpoint ``{"channel_values": {...}}``;
- a LangGraph stream dump: a list of ``[mode, payload]`` events.

A ``.jsonl`` file holds one run per line, or, when its first line is an event, one
stream with an event per line.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._langgraph_stream import STREAM_MODES, is_event, stream_frames
from tracegrade.traces._lc_messages import FIX, message_frames, parse_message
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import read_first
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    starts_with,
    suffix_ok,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_MODES = "|".join(re.escape(mode) for mode in sorted(STREAM_MODES)).encode()
_STREAM_HEAD = re.compile(
    rb'^\[\s*(\[\s*(\[[^\]]*\]\s*,\s*)?)?"(' + _MODES + rb')"\s*,'
    rb'|^\[\s*\{\s*"event"\s*:\s*"(' + _MODES + rb')"'
)
_MESSAGE_MARKERS = re.compile(
    rb'"lc"\s*:\s*1\s*,\s*"type"\s*:\s*"constructor"'
    rb'|"type"\s*:\s*"(human|ai|(Human|AI|Tool|System)MessageChunk)"'
)
_STATE_KEYS = ("values", "channel_values")


def _looks_langchain(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".json", ".jsonl") or not starts_with(head, rb"[\[{]"):
        return False
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    # A stream of [mode, payload] events; in .jsonl the first line is one event.
    if _STREAM_HEAD.match(stripped) or _STREAM_HEAD.match(b"[" + stripped):
        return True
    return _MESSAGE_MARKERS.search(head) is not None


@reader(
    "langchain",
    description="LangChain messages (dumpd / messages_to_dict), LangGraph state or"
    " [mode, payload] stream dumps: .json, or .jsonl with one run per line",
    can_read=_looks_langchain,
    priority=6,  # before anthropic (5): LangChain dumps of Claude runs hold tool_use blocks
)
def _read_langchain(data: bytes, name: str) -> Iterator[Trace]:
    stem = trace_stem(name)
    if not name.lower().endswith(".jsonl"):
        yield _run_trace(load_json(data, name), name, "", stem)
        return
    # Every line is parsed first, to tell one stream of events from runs (one a line).
    yield from read_first(lambda: _jsonl_traces(data, name, stem))


def _jsonl_traces(data: bytes, name: str, stem: str) -> Iterator[Trace]:
    lines = [
        (number, line) for number, line in enumerate(data.splitlines(), start=1) if line.strip()
    ]
    parsed = [(number, load_json(line, name, f"line {number}")) for number, line in lines]
    stream = _stream_trace(parsed, stem, name)
    if stream is not None:
        yield stream
        return
    for number, raw in parsed:
        yield _run_trace(raw, name, f"line {number}", f"{stem}-line-{number}")


def _stream_trace(parsed: list[tuple[int, Any]], stem: str, name: str) -> Trace | None:
    """The one stream of a .jsonl with an event per line; ``None`` when it holds runs."""
    if not parsed or not is_event(parsed[0][1]):
        return None
    events = [raw for _, raw in parsed]
    ledger = CallLedger()
    frames, metadata, model = stream_frames(events, name, "", ledger)
    return _trace(stem, frames, ledger, name, "stream", model, {"source": "stream", **metadata})


def _run_trace(raw: Any, name: str, where: str, default_id: str) -> Trace:  # noqa: ANN401 - any JSON value
    ledger = CallLedger()
    if isinstance(raw, list) and raw and is_event(raw[0]):
        frames, metadata, model = stream_frames(raw, name, where, ledger)
        metadata = {"source": "stream", **metadata}
    elif isinstance(raw, list):
        frames, model = _list_frames(raw, name, where, ledger)
        metadata = {"source": "messages"}
    elif isinstance(raw, dict):
        messages, metadata = _state(raw, name, where)
        frames, model = _list_frames(messages, name, where, ledger)
    else:
        prefix = f"{where}: " if where else ""
        raise TraceFormatError(
            f"{prefix}expected a list of messages, a LangGraph state or a stream dump,"
            f" got {json_type(raw)}",
            fix=FIX,
            path=name,
        )
    return _trace(default_id, frames, ledger, name, where or "run", model, metadata)


def _trace(  # noqa: PLR0917 - a private builder, called twice
    trace_id: str,
    frames: list[Frame],
    ledger: CallLedger,
    name: str,
    where: str,
    model: str | None,
    metadata: dict[str, Any],
) -> Trace:
    return build_trace(
        trace_id=trace_id,
        model=model,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where,
        metadata=metadata,
    )


def _state(raw: dict[str, Any], name: str, where: str) -> tuple[list[Any], dict[str, Any]]:
    """The messages of a state dump, and what it records beside them."""
    metadata: dict[str, Any] = {"source": "state"}
    state, key = raw, "messages"
    for outer in _STATE_KEYS:
        if isinstance(raw.get(outer), dict):
            state, key = raw[outer], f"{outer}.messages"
            break
    messages = state.get("messages")
    if not isinstance(messages, list):
        prefix = f"{where}: " if where else ""
        raise TraceFormatError(
            f"{prefix}{key!r} must be a list of messages, got {json_type(messages)}",
            fix="a LangGraph state dump is {'messages': [...]} or {'values': {'messages': [...]}}",
            path=name,
        )
    interrupts = [item for item in _interrupts(raw) if item is not None]
    if interrupts:
        metadata["interrupts"] = interrupts
    next_nodes = raw.get("next")
    if isinstance(next_nodes, list) and next_nodes:
        metadata["next"] = next_nodes
    return messages, metadata


def _interrupts(raw: dict[str, Any]) -> list[Any]:
    """A state's pending interrupts: ``interrupts``, ``__interrupt__``, ``tasks[].interrupts``."""
    found: list[Any] = []
    for key in ("interrupts", "__interrupt__"):
        value = raw.get(key)
        if isinstance(value, list):
            found.extend(value)
    tasks = raw.get("tasks")
    for task in tasks if isinstance(tasks, list) else []:
        if isinstance(task, dict) and isinstance(task.get("interrupts"), list):
            found.extend(task["interrupts"])
    return found


def _list_frames(
    messages: list[Any], name: str, where: str, ledger: CallLedger
) -> tuple[list[Frame], str | None]:
    frames: list[Frame] = []
    model: str | None = None
    for index, raw in enumerate(messages):
        at = f"{where}, message {index}" if where else f"message {index}"
        message = parse_message(raw, name, at)
        model = model or message.model
        frames.extend(message_frames(message, ledger, name, at))
    return frames, model
