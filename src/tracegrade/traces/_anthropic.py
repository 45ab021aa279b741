"""Anthropic Messages API conversations (docs/formats/anthropic.md).

A ``.json`` file holds one run: a list of messages, a request object
``{"model", "system", "messages", ...}``, or a single response object
(``{"type": "message", "role": "assistant", "content": [...]}``). A ``.jsonl`` file holds
one run per line. Content is a string or a list of blocks: ``text``, ``tool_use``
(assistant), ``tool_result`` (user), ``thinking`` (skipped), and the server tools'
``server_tool_use`` / ``*_tool_result`` blocks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    jsonl_runs,
    load_json,
    parts_text,
    starts_with,
    suffix_ok,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from tracegrade.traces._model import Frame, Trace

__all__ = ["tool_result_frame", "tool_use_frame"]

_FIX = "see docs/formats/anthropic.md for the message and block shapes read"
_ROLES = "user, assistant (system is the request's top-level 'system')"
_SKIPPED_BLOCKS = frozenset(
    {"thinking", "redacted_thinking", "image", "document", "search_result", "container_upload"}
)
# A tool_use block, a tool_result's tool_use_id, thinking blocks, or the response envelope
# ("type": "tool_result" alone is not enough: native frames use it too).
_MARKERS = re.compile(
    rb'"type"\s*:\s*"(tool_use|server_tool_use|thinking|redacted_thinking)"'
    rb'|"tool_use_id"\s*:|"stop_reason"\s*:'
)
_LEGACY = re.compile(rb'"prompt"\s*:\s*"\\n\\nHuman:')
_SYSTEM_KEY = re.compile(rb'^\s*\{[^\[]*?"system"\s*:')


def _looks_anthropic(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".json", ".jsonl") or not starts_with(head, rb"[\[{]"):
        return False
    if _LEGACY.search(head) is not None:
        return True  # the legacy Text Completions API: claimed to fail with a clear message
    if b'"role"' not in head:
        return False
    if _MARKERS.search(head) is not None:
        return True
    # A request object: top-level "system" beside "messages" (OpenAI puts it in messages).
    return b'"messages"' in head and _SYSTEM_KEY.search(head.lstrip(b"\xef\xbb\xbf")) is not None


def _read_anthropic_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    """One run per line, read one line at a time (a .jsonl file streams)."""
    return jsonl_runs(lines, name, _run_trace)


@reader(
    "anthropic",
    description="Anthropic Messages API: a .json list of messages, a request {'system',"
    " 'messages'} or a response, or .jsonl with one run per line",
    can_read=_looks_anthropic,
    priority=5,  # after the formats at 10 (their logs may quote "stop_reason"), before openai-chat
    read_lines=_read_anthropic_lines,
)
def _read_anthropic(data: bytes, name: str) -> Iterator[Trace]:
    if name.lower().endswith(".jsonl"):
        yield from _read_anthropic_lines(iter(data.splitlines()), name)
        return
    yield _run_trace(load_json(data, name), name, "", trace_stem(name))


def _run_trace(raw: Any, name: str, where: str, default_id: str) -> Trace:  # noqa: ANN401 - any JSON value
    run: dict[str, Any] = {}
    if isinstance(raw, list):
        messages = raw
    elif isinstance(raw, dict) and isinstance(raw.get("messages"), list):
        run, messages = raw, raw["messages"]
    elif isinstance(raw, dict) and raw.get("type") == "message" and "content" in raw:
        messages = [raw]  # one response object
    else:
        prefix = f"{where}: " if where else ""
        if isinstance(raw, dict) and "prompt" in raw and "completion" in raw:
            raise TraceFormatError(
                f"{prefix}a legacy Text Completions record ('prompt' / 'completion'), not a"
                " Messages API conversation",
                fix="record the run with the Messages API (client.messages.create); the"
                " Text Completions format is not read",
                path=name,
            )
        got = "an object without a 'messages' list" if isinstance(raw, dict) else json_type(raw)
        raise TraceFormatError(
            f"{prefix}expected a list of messages, a request with 'messages' or a response"
            f" message, got {got}",
            fix=_FIX,
            path=name,
        )
    ledger = CallLedger()
    frames: list[Frame] = []
    if "system" in run:
        frames.extend(
            _system_frames(run["system"], name, f"{where}, system" if where else "system")
        )
    for index, message in enumerate(messages):
        at = f"{where}, message {index}" if where else f"message {index}"
        frames.extend(_message_frames(message, name, at, ledger))
    model = run.get("model")
    if not isinstance(model, str):
        model = next(
            (
                m["model"]
                for m in messages
                if isinstance(m, dict) and isinstance(m.get("model"), str)
            ),
            None,
        )
    last = messages[-1] if messages and isinstance(messages[-1], dict) else {}
    metadata = {k: v for k, v in run.items() if k not in {"messages", "system", "model", "id"}}
    if isinstance(last.get("stop_reason"), str):
        metadata["stop_reason"] = last["stop_reason"]
    trace_id = run.get("id")
    return build_trace(
        trace_id=trace_id if isinstance(trace_id, str) and trace_id else default_id,
        model=model,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where or "run",
        metadata=metadata,
    )


def _system_frames(system: Any, name: str, at: str) -> list[Frame]:  # noqa: ANN401 - any JSON value
    if system is None:
        return []
    if isinstance(system, str):
        return [SystemFrame(content=system, origin=at)]
    if isinstance(system, list):
        return [SystemFrame(content=parts_text(system), origin=at)]
    raise TraceFormatError(
        f"{at}: 'system' must be a string or a list of text blocks, got {json_type(system)}",
        fix=_FIX,
        path=name,
    )


def _message_frames(message: Any, name: str, at: str, ledger: CallLedger) -> list[Frame]:  # noqa: ANN401, PLR0912 - any JSON value; one branch per block type
    if not isinstance(message, dict):
        raise TraceFormatError(
            f"{at}: a message must be a JSON object, got {json_type(message)}", fix=_FIX, path=name
        )
    role = message.get("role")
    if role not in ("user", "assistant", "system"):
        shown = "no 'role'" if role is None else f"unknown role {role!r}"
        raise TraceFormatError(
            f"{at}: {shown}", fix=f"a message's role is one of: {_ROLES}", path=name
        )
    content = message.get("content")
    if content is None:
        content = []
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise TraceFormatError(
            f"{at}: 'content' must be a string or a list of blocks, got {json_type(content)}",
            fix=_FIX,
            path=name,
        )
    frames: list[Frame] = []
    texts: list[str] = []  # adjacent text blocks make one frame

    def flush() -> None:
        if texts:
            text = "\n".join(texts)
            if role == "user":
                frames.append(UserFrame(content=text, origin=at))
            elif role == "system":
                frames.append(SystemFrame(content=text, origin=at))
            elif text:
                frames.append(AssistantFrame(content=text, origin=at))
            texts.clear()

    for number, block in enumerate(content):
        here = f"{at}, block {number}"
        if not isinstance(block, dict):
            raise TraceFormatError(
                f"{here}: a content block must be a JSON object, got {json_type(block)}",
                fix=_FIX,
                path=name,
            )
        kind = block.get("type")
        if not isinstance(kind, str):
            raise TraceFormatError(
                f"{here}: a content block's 'type' must be a string, got {json_type(kind)}",
                fix=_FIX,
                path=name,
            )
        if kind == "text":
            text = block.get("text")
            if not isinstance(text, str):
                raise TraceFormatError(
                    f"{here}: a text block's 'text' must be a string, got {json_type(text)}",
                    fix=_FIX,
                    path=name,
                )
            texts.append(text)
            continue
        flush()
        if kind in ("tool_use", "server_tool_use"):
            frames.append(tool_use_frame(block, name, here, ledger))
        elif kind == "tool_result" or kind.endswith("_tool_result"):
            frames.append(tool_result_frame(block, name, here, ledger))
        elif kind not in _SKIPPED_BLOCKS:
            raise TraceFormatError(
                f"{here}: unknown content block type {kind!r}",
                fix="blocks read are text, tool_use, tool_result, server_tool_use,"
                " *_tool_result; thinking, image and document blocks are skipped",
                path=name,
            )
    flush()
    if role == "user" and not content:
        frames.append(UserFrame(content="", origin=at))
    return frames


def tool_use_frame(block: dict[str, Any], name: str, here: str, ledger: CallLedger) -> Frame:
    """The ``tool_call`` frame of a ``tool_use`` or ``server_tool_use`` block, placed."""
    tool, call_id = block.get("name"), block.get("id")
    if not isinstance(tool, str) or not tool:
        raise TraceFormatError(
            f"{here}: the tool_use block has no 'name'",
            fix="each tool_use block needs a non-empty 'name'",
            path=name,
        )
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{here}: the tool_use 'id' must be a string, got {json_type(call_id)}",
            fix=_FIX,
            path=name,
        )
    return ledger.call(call_id, tool, block.get("input"), origin=here)


def tool_result_frame(block: dict[str, Any], name: str, here: str, ledger: CallLedger) -> Frame:
    """The ``tool_result`` frame of a ``tool_result`` or ``*_tool_result`` block, placed."""
    call_id, is_error = block.get("tool_use_id"), block.get("is_error", False)
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{here}: 'tool_use_id' must be a string, got {json_type(call_id)}",
            fix="a tool_result's tool_use_id is the id of the tool_use block it answers",
            path=name,
        )
    if is_error is not None and not isinstance(is_error, bool):
        raise TraceFormatError(
            f"{here}: 'is_error' must be true or false, got {json_type(is_error)}",
            fix=_FIX,
            path=name,
        )
    content = block.get("content")
    if content is None:
        value: Any = ""
    elif isinstance(content, list) and all(
        isinstance(part, dict) and part.get("type") in ("text", "image", "document")
        for part in content
    ):
        value = parts_text(content)  # text blocks joined; images carry no text
    else:
        value = content  # a string, or a server tool's structured result
    frame = ledger.result(call_id, ok=not is_error, result=value)
    if frame is None:
        raise TraceFormatError(
            f"{here}: a tool_result with no tool_use_id and no call waiting for a result",
            fix="give the tool_result the tool_use_id of the call it answers",
            path=name,
        )
    return placed(frame, here)  # not origin=: an orphan result is placed too
