"""Claude Code session transcripts, ``~/.claude/projects/<project>/<session>.jsonl``.

See docs/formats/claude-code.md. One JSON object a line, each with a ``type``: ``user`` and
``assistant`` lines carry an Anthropic Messages ``message`` (content blocks ``text``,
``thinking``, ``tool_use``, ``tool_result``); ``summary``, ``system``, ``progress``,
``file-history-snapshot`` and the other bookkeeping lines are skipped. Tool results come back
inside ``user`` lines and are read as ``tool_result`` frames for the call they name; text the
harness injected into a user turn (``<system-reminder>``, ``isMeta`` lines, local command
output, compaction summaries) is read as ``system``, never as the human. Sub-agent lines
(``isSidechain``) become traces of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._anthropic import tool_result_frame, tool_use_frame
from tracegrade.traces._claude_code_injected import split_injected, without_reminders
from tracegrade.traces._model import AssistantFrame, SystemFrame, text_frame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import text_or_none
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
    from collections.abc import Iterable, Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/claude-code.md for the lines and blocks read"
_SIGNATURE = re.compile(
    rb'"parentUuid"\s*:|"type"\s*:\s*"file-history-snapshot"|"leafUuid"\s*:|"isSidechain"\s*:'
    rb'|"type"\s*:\s*"queue-operation"'  # a queued prompt may fill the first 4 KB
    rb'|"type"\s*:\s*"system"\s*,\s*"subtype"\s*:\s*"init"'  # `claude -p` stream-json output
)
_MESSAGE_LINES = ("user", "assistant")  # a tuple: a line's type may be any JSON value
_SKIPPED_BLOCKS = frozenset({"image", "document", "search_result", "container_upload"})
_THINKING = frozenset({"thinking", "redacted_thinking"})
_INFO = (  # line key -> metadata key
    ("sessionId", "session_id"),
    ("session_id", "session_id"),  # the `claude -p --output-format stream-json` lines
    ("version", "version"),
    ("cwd", "cwd"),
    ("gitBranch", "git_branch"),
)
_INFO_FIELDS = len({field for _, field in _INFO})
_SYNTHETIC_MODEL = "<synthetic>"  # Claude Code's own assistant lines (API errors, notices)


def _looks_claude_code(name: str, head: bytes) -> bool:
    return (
        suffix_ok(name, ".jsonl")
        and starts_with(head, rb"\{")
        and b'"type"' in head
        and _SIGNATURE.search(head) is not None
    )


@dataclass
class _Thread:
    """One conversation of the session: the main one, or one sub-agent's."""

    key: str
    ledger: CallLedger = field(default_factory=CallLedger)
    frames: list[Frame] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    thinking: int = 0
    first_line: int = 0


@dataclass
class _Session:
    name: str
    main: _Thread = field(default_factory=lambda: _Thread("main"))
    agents: dict[str, _Thread] = field(default_factory=dict)
    sidechain_of: dict[str, str] = field(default_factory=dict)  # line uuid -> agent key
    seen: set[str] = field(default_factory=set)
    skipped: dict[str, int] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    summaries: list[str] = field(default_factory=list)

    def thread(self, line: dict[str, Any], number: int) -> _Thread:
        if line.get("isSidechain") is not True:
            return self.main
        parent = line.get("parentUuid")
        agent = text_or_none(line.get("agentId"))
        if agent is None:
            # Older sessions name no agent: a sub-agent is a chain of sidechain lines.
            agent = self.sidechain_of.get(parent) if isinstance(parent, str) else None
            agent = agent or f"sidechain-{len(self.agents) + 1}"
        uuid = line.get("uuid")
        if isinstance(uuid, str):
            self.sidechain_of[uuid] = agent
        if agent not in self.agents:
            self.agents[agent] = _Thread(agent, first_line=number)
        return self.agents[agent]


def _read_claude_code_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    session = _Session(name)
    for number, raw in enumerate(lines, start=1):
        if raw and not raw.isspace():  # strip() would copy every line
            at = f"line {number}"
            _line(load_json(raw, name, at), session, number, at)
    yield from _traces(session)


@reader(
    "claude-code",
    description="Claude Code session transcripts (~/.claude/projects/*/<session>.jsonl);"
    " sub-agent sidechains as traces of their own",
    can_read=_looks_claude_code,
    priority=10,
    read_lines=_read_claude_code_lines,
)
def _read_claude_code(data: bytes, name: str) -> Iterator[Trace]:
    return _read_claude_code_lines(iter(data.splitlines()), name)


def _line(line: Any, session: _Session, number: int, at: str) -> None:  # noqa: ANN401 - any JSON value
    if not isinstance(line, dict):
        raise TraceFormatError(
            f"{at}: a line must be a JSON object, got {json_type(line)}",
            fix=_FIX,
            path=session.name,
        )
    kind = line.get("type")
    if kind not in _MESSAGE_LINES:
        _bookkeeping_line(line, kind, session, at)
        return
    uuid = line.get("uuid")
    if isinstance(uuid, str):
        if uuid in session.seen:
            return  # a resumed session repeats lines it already wrote
        session.seen.add(uuid)
    if len(session.info) < _INFO_FIELDS:  # every line repeats them: look until all are found
        for key, field_name in _INFO:
            if field_name not in session.info and text_or_none(line.get(key)):
                session.info[field_name] = line[key]
    message = line.get("message")
    if not isinstance(message, dict):
        raise TraceFormatError(
            f"{at}: a {kind} line's 'message' must be an object, got {json_type(message)}",
            fix=_FIX,
            path=session.name,
        )
    # Most lines are the main conversation's: tell so without a method call.
    thread = session.main if line.get("isSidechain") is not True else session.thread(line, number)
    if kind == "assistant":
        _assistant(message, thread, session.name, at)
    else:
        _user(line, message, thread, session.name, at)


def _bookkeeping_line(line: dict[str, Any], kind: object, session: _Session, at: str) -> None:
    """Count a line that is not a message (keep a summary's text), or refuse one with no type."""
    if not isinstance(kind, str):
        raise TraceFormatError(
            f"{at}: the line has no 'type'",
            fix="each line of a Claude Code session has a type (user, assistant, summary, ...);"
            " is this a Claude Code transcript?",
            path=session.name,
        )
    if kind == "summary" and isinstance(line.get("summary"), str):
        session.summaries.append(line["summary"])
    session.skipped[kind] = session.skipped.get(kind, 0) + 1


def _blocks(message: dict[str, Any], name: str, at: str) -> list[dict[str, Any]]:
    content = message.get("content")
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        # A loop, not all() over a generator: that costs more on the usual one-block line.
        for block in content:
            if not isinstance(block, dict):
                break
        else:
            return content
    raise TraceFormatError(
        f"{at}: 'message.content' must be a string or a list of blocks, got {json_type(content)}",
        fix=_FIX,
        path=name,
    )


def _assistant(message: dict[str, Any], thread: _Thread, name: str, at: str) -> None:
    """Append the frames of an assistant line's blocks to its thread."""
    model = message.get("model")
    synthetic = model == _SYNTHETIC_MODEL
    if isinstance(model, str) and model and not synthetic and model not in thread.models:
        thread.models.append(model)
    frames = thread.frames
    for number, block in enumerate(_blocks(message, name, at)):
        here = f"{at}, block {number}"
        kind = block.get("type")
        if not isinstance(kind, str):
            raise _unknown_block(kind, name, here)
        if kind == "text":
            text = _text(block, name, here)
            if synthetic:
                frames.append(text_frame(SystemFrame, text, here))  # not the model's words
            elif text:
                frames.append(text_frame(AssistantFrame, text, here))
        elif kind in ("tool_use", "server_tool_use"):
            frames.append(tool_use_frame(block, name, here, thread.ledger))
        elif kind.endswith("tool_result"):
            frames.append(tool_result_frame(block, name, here, thread.ledger))  # a server tool
        elif kind in _THINKING:
            thread.thinking += 1  # the model's reasoning: neither an answer nor evidence
        elif kind not in _SKIPPED_BLOCKS:
            raise _unknown_block(kind, name, here)


def _user(
    line: dict[str, Any], message: dict[str, Any], thread: _Thread, name: str, at: str
) -> None:
    """Append the frames of a user line's blocks to its thread."""
    injected_line = line.get("isMeta") is True or line.get("isCompactSummary") is True
    frames = thread.frames
    for number, block in enumerate(_blocks(message, name, at)):
        here = f"{at}, block {number}"
        kind = block.get("type")
        if not isinstance(kind, str):
            raise _unknown_block(kind, name, here)
        if kind == "text":
            text = _text(block, name, here)
            if injected_line:
                frames.append(text_frame(SystemFrame, text, here))
            else:
                frames.extend(split_injected(text, here))
        elif kind.endswith("tool_result"):
            output, reminders = without_reminders(block)
            frames.append(tool_result_frame(output, name, here, thread.ledger))
            if reminders:
                frames.append(text_frame(SystemFrame, "\n".join(reminders), here))
        elif kind not in _SKIPPED_BLOCKS:
            raise _unknown_block(kind, name, here)


def _text(block: dict[str, Any], name: str, here: str) -> str:
    text = block.get("text")
    if not isinstance(text, str):
        raise TraceFormatError(
            f"{here}: a text block's 'text' must be a string, got {json_type(text)}",
            fix=_FIX,
            path=name,
        )
    return text


def _unknown_block(kind: object, name: str, here: str) -> TraceFormatError:
    return TraceFormatError(
        f"{here}: unknown content block type {kind!r}",
        fix="blocks read are text, tool_use, tool_result, server_tool_use, *_tool_result;"
        " thinking, image and document blocks are skipped",
        path=name,
    )


def _traces(session: _Session) -> Iterator[Trace]:
    info = session.info
    base = text_or_none(info.get("session_id")) or trace_stem(session.name)
    metadata: dict[str, Any] = dict(info)
    if session.summaries:
        metadata["summaries"] = session.summaries
    if session.skipped:
        metadata["skipped_lines"] = dict(sorted(session.skipped.items()))
    threads = [session.main, *session.agents.values()]
    if not any(t.frames for t in threads):
        raise TraceFormatError(
            "the session has no user or assistant lines to read",
            fix="a Claude Code session needs at least one user or assistant line; this file"
            " holds only bookkeeping lines (summaries, snapshots, progress)",
            path=session.name,
        )
    agent_ids = [f"{base}/{t.key}" for t in session.agents.values()]
    for thread in threads:
        if not thread.frames:
            continue
        extra = dict(metadata)
        if thread.thinking:
            extra["thinking_blocks"] = thread.thinking
        if len(thread.models) > 1:
            extra["models"] = thread.models
        if thread is session.main:
            trace_id = base
            if agent_ids:
                extra["sidechains"] = agent_ids
        else:
            trace_id = f"{base}/{thread.key}"
            extra["sidechain_of"] = base
        trace = build_trace(
            trace_id=trace_id,
            frames=thread.frames,
            ledger=thread.ledger,
            name=session.name,
            where="main thread" if thread is session.main else f"sidechain {thread.key}",
            model=thread.models[0] if thread.models else None,
            metadata=extra,
        )
        version = text_or_none(info.get("version"))
        yield trace.model_copy(update={"commit": version}) if version else trace
