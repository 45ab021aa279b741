"""OpenAI chat messages and Responses API items (docs/formats/openai-chat.md).

A ``.json`` file holds one run: a list of messages, or an object with ``messages``.
A ``.jsonl`` file holds one run per line, each line a list or an object with
``messages``. Chat Completions messages and Responses API items (``message``,
``function_call``, ``function_call_output``) may be mixed in one list.
"""

from __future__ import annotations

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
    parse_arguments,
    parts_text,
    starts_with,
    suffix_ok,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from tracegrade.traces._model import Frame, Trace

__all__ = ["chat_frames", "message_text", "result_value", "tool_call_frames"]

_ROLES = "system, developer, user, assistant, tool (or the legacy function)"
_ITEM_TYPES = "message, function_call, function_call_output, reasoning"
_FIX_MESSAGE = "see docs/formats/openai-chat.md for the message shapes read"


def _looks_chat(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".json", ".jsonl"):
        return False
    if starts_with(head, rb"\["):
        return any(key in head for key in (b'"role"', b'"call_id"'))
    return starts_with(head, rb"\{") and b'"messages"' in head


def _read_chat_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    """One run per line, read one line at a time (a .jsonl file streams)."""
    return jsonl_runs(lines, name, _chat_trace)


@reader(
    "openai-chat",
    description="OpenAI chat messages or Responses items: a .json list or {'messages': [...]},"
    " or .jsonl with one run per line",
    can_read=_looks_chat,
    read_lines=_read_chat_lines,
)
def _read_chat(data: bytes, name: str) -> Iterator[Trace]:
    if name.lower().endswith(".jsonl"):
        yield from _read_chat_lines(iter(data.splitlines()), name)
        return
    yield _chat_trace(load_json(data, name), name, "", trace_stem(name))


def _chat_trace(raw: Any, name: str, where: str, default_id: str) -> Trace:  # noqa: ANN401 - any JSON value
    run: dict[str, Any] = {}
    if isinstance(raw, list):
        messages = raw
    elif isinstance(raw, dict) and isinstance(raw.get("messages"), list):
        run = raw
        messages = raw["messages"]
    else:
        got = "an object without a 'messages' list" if isinstance(raw, dict) else json_type(raw)
        prefix = f"{where}: " if where else ""
        raise TraceFormatError(
            f"{prefix}expected a list of messages or an object with 'messages', got {got}",
            fix="export the run as OpenAI chat messages; for tau-bench or tau2 results pass"
            " --from tau-bench or --from tau2",
            path=name,
        )
    ledger = CallLedger()
    frames = chat_frames(messages, name, where, ledger)
    trace_id = run.get("id")
    model = run.get("model")
    return build_trace(
        trace_id=trace_id if isinstance(trace_id, str) and trace_id else default_id,
        model=model if isinstance(model, str) else None,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where or "run",
        metadata={k: v for k, v in run.items() if k not in {"messages", "id", "model"}},
    )


def chat_frames(messages: list[Any], name: str, where: str, ledger: CallLedger) -> list[Frame]:
    """Frames of OpenAI chat messages (and Responses items), in message order.

    Args:
        messages: The parsed message list.
        name: The file, for errors.
        where: The run's place in the file (``record 3``, ``line 2``) or ``""``.
        ledger: Pairs results with calls for the whole run.

    Raises:
        TraceFormatError: A message is malformed; names the run and the message index.
    """
    frames: list[Frame] = []
    for index, message in enumerate(messages):
        at = f"{where}, message {index}" if where else f"message {index}"
        if not isinstance(message, dict):
            raise TraceFormatError(
                f"{at}: a message must be a JSON object, got {json_type(message)}",
                fix=_FIX_MESSAGE,
                path=name,
            )
        frames.extend(placed(frame, at) for frame in _message_frames(message, name, at, ledger))
    return frames


def _message_frames(message: dict[str, Any], name: str, at: str, ledger: CallLedger) -> list[Frame]:
    kind = message.get("type")
    if kind not in (None, "message"):
        return _item_frames(kind, message, name, at, ledger)
    role = message.get("role")
    if role in ("system", "developer"):
        return [SystemFrame(content=message_text(message, name, at))]
    if role == "user":
        return [UserFrame(content=message_text(message, name, at))]
    if role == "assistant":
        return _assistant(message, name, at, ledger)
    if role in ("tool", "function"):
        # A legacy 'function' message names no call id: it answers the earliest open call.
        call_id = message.get("tool_call_id") if role == "tool" else None
        return [_result(call_id, result_value(message.get("content")), name, at, ledger)]
    shown = "no 'role'" if role is None else f"unknown role {role!r}"
    raise TraceFormatError(f"{at}: {shown}", fix=f"a message's role is one of: {_ROLES}", path=name)


def _item_frames(
    kind: object, item: dict[str, Any], name: str, at: str, ledger: CallLedger
) -> list[Frame]:
    """A Responses API item other than a message."""
    if kind == "function_call":
        return [_call(item.get("call_id"), item, name, at, ledger)]
    if kind == "function_call_output":
        output = result_value(item.get("output"))
        return [_result(item.get("call_id"), output, name, at, ledger)]
    if kind == "reasoning":
        return []  # the model's reasoning summary: neither a call, a result nor an answer
    raise TraceFormatError(
        f"{at}: unknown item type {kind!r}",
        fix=f"items read are of type {_ITEM_TYPES}, or chat messages with a role",
        path=name,
    )


def _assistant(message: dict[str, Any], name: str, at: str, ledger: CallLedger) -> list[Frame]:
    frames: list[Frame] = []
    text = message_text(message, name, at)
    if not text and isinstance(message.get("refusal"), str):
        text = message["refusal"]
    if text:
        frames.append(AssistantFrame(content=text))
    frames.extend(tool_call_frames(message, name, at, ledger))
    return frames


def tool_call_frames(
    message: dict[str, Any], name: str, at: str, ledger: CallLedger
) -> list[Frame]:
    """One ``tool_call`` frame per entry of the message's ``tool_calls`` (and ``function_call``).

    Raises:
        TraceFormatError: ``tool_calls`` is not a list, or a call has no name.
    """
    frames: list[Frame] = []
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise TraceFormatError(
            f"{at}: 'tool_calls' must be a list, got {json_type(calls)}",
            fix=_FIX_MESSAGE,
            path=name,
        )
    for number, call in enumerate(calls or []):
        here = f"{at}, tool call {number}"
        if not isinstance(call, dict):
            raise TraceFormatError(
                f"{here}: a tool call must be a JSON object, got {json_type(call)}",
                fix=_FIX_MESSAGE,
                path=name,
            )
        function = call.get("function")
        # {id, function: {name, arguments}}; the flat {id, name, arguments|args} of
        # LangChain and tau2 dumps is read too.
        body = function if isinstance(function, dict) else call
        frames.append(_call(call.get("id"), body, name, here, ledger))
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        frames.append(_call(None, legacy, name, f"{at}, function_call", ledger))
    return frames


def _call(call_id: Any, body: dict[str, Any], name: str, at: str, ledger: CallLedger) -> Frame:  # noqa: ANN401 - any JSON value
    tool = body.get("name")
    if not isinstance(tool, str) or not tool:
        raise TraceFormatError(
            f"{at}: the tool call has no function name",
            fix="each tool call needs function.name (a non-empty string)",
            path=name,
        )
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: the call id must be a string, got {json_type(call_id)}",
            fix=_FIX_MESSAGE,
            path=name,
        )
    arguments = body["arguments"] if "arguments" in body else body.get("args")
    return ledger.call(call_id, tool, parse_arguments(arguments))


def _result(call_id: Any, value: Any, name: str, at: str, ledger: CallLedger) -> Frame:  # noqa: ANN401 - any JSON value
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: the tool call id must be a string, got {json_type(call_id)}",
            fix="a tool message's tool_call_id is the id of the call it answers",
            path=name,
        )
    frame = ledger.result(call_id, ok=True, result=value)
    if frame is None:
        raise TraceFormatError(
            f"{at}: a tool result with no call id and no call waiting for a result",
            fix="give the tool message the tool_call_id of the call it answers",
            path=name,
        )
    return frame


def result_value(content: Any) -> Any:  # noqa: ANN401 - any JSON value
    """A tool result: text as text (parts joined), no content as ``""``, other JSON as is."""
    if content is None:
        return ""
    if isinstance(content, list):
        return parts_text(content)
    return content


def message_text(message: dict[str, Any], name: str, at: str) -> str:
    """A message's ``content`` as text: a string, text parts joined, or ``""`` for none.

    Raises:
        TraceFormatError: ``content`` is another JSON type.
    """
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return parts_text(content)
    raise TraceFormatError(
        f"{at}: 'content' must be a string or a list of content parts, got {json_type(content)}",
        fix=_FIX_MESSAGE,
        path=name,
    )
