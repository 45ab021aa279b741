"""OpenAI Codex CLI rollouts, ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

See docs/formats/codex.md. One ``{"timestamp", "type", "payload"}`` object a line
(``RolloutLine`` in codex-rs/protocol): ``session_meta`` (the session's id, cwd, CLI
version), ``turn_context`` (the model of each turn), ``response_item`` (what the model saw
and said: Responses API items ``message``, ``function_call``, ``function_call_output``,
``custom_tool_call``, ``local_shell_call``, ``reasoning``...), ``event_msg`` (UI events,
skipped but for token counts) and ``compacted`` (a summary that replaced the history). Text
Codex injects as a user message (``<environment_context>``, AGENTS.md instructions) is
read as ``system``, never as the human.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame, text_frame
from tracegrade.traces._openai import result_value
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed, text_or_none
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    loads_nested,
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

__all__: list[str] = []

_FIX = "see docs/formats/codex.md for the rollout lines read"
_LINE_TYPES = rb'"type"\s*:\s*"(session_meta|response_item|turn_context|event_msg|compacted)"'
_ROLLOUT_NAME = re.compile(r"(^|/)rollout-[^/]*\.jsonl$", re.IGNORECASE)
# User-role messages Codex writes itself (codex-rs/protocol/src/instruction_markers.rs and the
# contextual fragments of codex-rs/core): the environment, AGENTS.md, skills, notices.
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions for ",
    "<collaboration_mode>",
    "<skill",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
)
_SKIPPED_ITEMS = frozenset({"reasoning", "ghost_snapshot", "compaction", "compaction_summary"})


def _looks_codex(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".jsonl") or not starts_with(head, rb"\{"):
        return False
    if _ROLLOUT_NAME.search(name.replace("\\", "/")):
        return True
    return b'"payload"' in head and re.search(_LINE_TYPES, head) is not None


@dataclass
class _Rollout:
    name: str
    ledger: CallLedger = field(default_factory=CallLedger)
    frames: list[Frame] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    usage: Any = None
    items: int = 0  # response_item lines read

    def skip(self, kind: str) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + 1


def _read_codex_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    rollout = _Rollout(name)
    for number, raw in enumerate(lines, start=1):
        if raw and not raw.isspace():  # strip() would copy every line
            at = f"line {number}"
            _line(load_json(raw, name, at), rollout, at)
    yield _trace(rollout)


@reader(
    "codex",
    description="OpenAI Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl)",
    can_read=_looks_codex,
    priority=10,
    read_lines=_read_codex_lines,
)
def _read_codex(data: bytes, name: str) -> Iterator[Trace]:
    return _read_codex_lines(iter(data.splitlines()), name)


def _line(line: Any, rollout: _Rollout, at: str) -> None:  # noqa: ANN401, PLR0912 - any JSON value; a branch per line type
    name = rollout.name
    if not isinstance(line, dict):
        raise TraceFormatError(
            f"{at}: a line must be a JSON object, got {json_type(line)}", fix=_FIX, path=name
        )
    payload = line.get("payload")
    if payload is None and "payload" not in line:
        _early_line(line, rollout, at)
        return
    if not isinstance(payload, dict):
        raise TraceFormatError(
            f"{at}: 'payload' must be a JSON object, got {json_type(payload)}", fix=_FIX, path=name
        )
    kind = line.get("type")
    if kind == "response_item":  # first: most lines are
        rollout.items += 1
        _item(payload, rollout, at)
    elif kind == "session_meta":
        _session_meta(payload, rollout, at)
    elif kind == "turn_context":
        model = payload.get("model")
        if isinstance(model, str) and model and model not in rollout.models:
            rollout.models.append(model)
    elif kind == "compacted":
        message = payload.get("message")
        if isinstance(message, str):  # a summary in place of the history: never evidence
            rollout.frames.append(placed(SystemFrame(content=message), at))
    elif kind == "event_msg":
        if payload.get("type") == "token_count" and isinstance(payload.get("info"), dict):
            rollout.usage = payload["info"].get("total_token_usage")
        rollout.skip(f"event_msg:{payload.get('type')}")
    elif isinstance(kind, str):
        rollout.skip(kind)  # newer line types (world_state, ...) carry no frames
    else:
        raise TraceFormatError(f"{at}: the line has no 'type'", fix=_FIX, path=name)


def _early_line(line: dict[str, Any], rollout: _Rollout, at: str) -> None:
    """A line of an early rollout (spring 2025): a header, ``record_type`` lines, bare items."""
    if "record_type" in line:
        rollout.skip(f"record_type:{line['record_type']}")
    elif "type" in line:
        rollout.items += 1
        _item(line, rollout, at)
    elif "id" in line and "timestamp" in line:
        _session_meta(line, rollout, at)
    else:
        raise TraceFormatError(
            f"{at}: the line has neither a 'type' nor a 'payload'",
            fix="a rollout line is {timestamp, type, payload} (or, in early rollouts, a bare"
            " response item); " + _FIX,
            path=rollout.name,
        )


def _session_meta(payload: dict[str, Any], rollout: _Rollout, at: str) -> None:
    for key in ("id", "cwd", "originator", "cli_version", "source", "model_provider", "git"):
        if payload.get(key) is not None and key not in rollout.meta:
            rollout.meta[key] = payload[key]
    instructions = payload.get("instructions")
    base = payload.get("base_instructions")
    if isinstance(base, dict):
        base = base.get("text")
    for text in (base, instructions):
        if isinstance(text, str) and text.strip():
            rollout.frames.append(placed(SystemFrame(content=text), f"{at}, session_meta"))


def _item(item: dict[str, Any], rollout: _Rollout, at: str) -> None:
    """Append the frame of a response item, placed at ``at``, if it makes one."""
    kind = item.get("type")
    if kind == "message":
        frame = _message(item, rollout.name, at)  # built placed: no copy of its origin after
        if frame is not None:
            rollout.frames.append(frame)
        return
    frame = _tool_item(item, kind, rollout, at)  # built placed too
    if frame is not None:
        rollout.frames.append(frame)


def _tool_item(item: dict[str, Any], kind: object, rollout: _Rollout, at: str) -> Frame | None:
    name, ledger = rollout.name, rollout.ledger
    if kind in ("function_call", "custom_tool_call"):
        tool = item.get("name")
        if not isinstance(tool, str) or not tool:
            raise TraceFormatError(
                f"{at}: the {kind} has no 'name'",
                fix="each function_call needs a non-empty 'name'",
                path=name,
            )
        args = (
            parse_arguments(item.get("arguments")) if kind == "function_call" else item.get("input")
        )
        return ledger.call(_call_id(item, name, at), tool, args, origin=at)
    if kind == "local_shell_call":
        return ledger.call(_call_id(item, name, at), "local_shell", item.get("action"), origin=at)
    if kind == "web_search_call":
        # Run by the API: no output item follows, the model read the pages itself.
        return ledger.call(_call_id(item, name, at), "web_search", item.get("action"), origin=at)
    if kind in ("function_call_output", "custom_tool_call_output"):
        return _output(item, rollout, at)
    if isinstance(kind, str) and (kind in _SKIPPED_ITEMS or kind not in _KNOWN_ITEMS):
        rollout.skip(f"response_item:{kind}")
        return None
    raise TraceFormatError(
        f"{at}: a response_item needs a 'type' string, got {json_type(kind)}", fix=_FIX, path=name
    )


_KNOWN_ITEMS = frozenset(
    {"message", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
     "function_call_output", "custom_tool_call_output"}
)  # fmt: skip


def _call_id(item: dict[str, Any], name: str, at: str) -> str | None:
    call_id = item["call_id"] if "call_id" in item else item.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: 'call_id' must be a string, got {json_type(call_id)}", fix=_FIX, path=name
        )
    return call_id


def _output(item: dict[str, Any], rollout: _Rollout, at: str) -> Frame:
    output = item.get("output")
    ok = True
    if isinstance(output, dict):  # {content, success}: how a failure was written
        ok = output.get("success") is not False
        output = output.get("content", output.get("content_items"))
    frame = rollout.ledger.result(
        _call_id(item, rollout.name, at), ok=ok, result=_shell_text(result_value(output))
    )
    if frame is None:
        raise TraceFormatError(
            f"{at}: a {item.get('type')} with no call_id and no call waiting for a result",
            fix="give the output the call_id of the function_call it answers",
            path=rollout.name,
        )
    return placed(frame, at)  # not origin=: an orphan result is placed too


def _shell_text(value: Any) -> Any:  # noqa: ANN401 - any JSON value
    """A shell call's output text, out of the ``{"output", "metadata"}`` JSON string around it.

    Codex serialises a shell command's result as that JSON string; the escaped newlines in it
    would glue the last word of a line to the first of the next for the grader's whole-word
    matching, so the text the command printed is kept instead.
    """
    if not isinstance(value, str) or not value.startswith('{"output":'):
        return value
    try:
        parsed = loads_nested(value)
    except orjson.JSONDecodeError:
        return value
    if (
        isinstance(parsed, dict)
        and isinstance(parsed.get("output"), str)
        and set(parsed)
        <= {
            "output",
            "metadata",
        }
    ):
        return parsed["output"]
    return value


def _message(item: dict[str, Any], name: str, at: str) -> Frame | None:
    role, content = item.get("role"), item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = parts_text(content)
    else:
        raise TraceFormatError(
            f"{at}: a message's 'content' must be a list of content items, got"
            f" {json_type(content)}",
            fix=_FIX,
            path=name,
        )
    if role == "assistant":
        return text_frame(AssistantFrame, text, at) if text else None
    if role in ("developer", "system"):
        return text_frame(SystemFrame, text, at)
    if role == "user":
        if text.lstrip().startswith(_INJECTED_PREFIXES):
            return text_frame(SystemFrame, text, at)  # Codex's own context, not the human
        return text_frame(UserFrame, text, at)
    shown = "no 'role'" if role is None else f"unknown role {role!r}"
    raise TraceFormatError(
        f"{at}: {shown}", fix="a message's role is one of: user, assistant, developer", path=name
    )


def _trace(rollout: _Rollout) -> Trace:
    meta = rollout.meta
    metadata: dict[str, Any] = {k: v for k, v in meta.items() if k not in ("id", "cli_version")}
    if text_or_none(meta.get("cli_version")):
        metadata["cli_version"] = meta["cli_version"]
    if rollout.usage is not None:
        metadata["usage"] = rollout.usage
    if len(rollout.models) > 1:
        metadata["models"] = rollout.models
    if rollout.skipped:
        metadata["skipped_lines"] = dict(sorted(rollout.skipped.items()))
    if not rollout.items:
        raise TraceFormatError(
            "the rollout has no response items to read",
            fix="a Codex rollout needs at least one response_item line (the session may have"
            " ended before the first turn)",
            path=rollout.name,
        )
    trace = build_trace(
        trace_id=text_or_none(meta.get("id")) or trace_stem(rollout.name),
        frames=rollout.frames,
        ledger=rollout.ledger,
        name=rollout.name,
        where="rollout",
        model=rollout.models[0] if rollout.models else None,
        metadata=metadata,
    )
    version = text_or_none(meta.get("cli_version"))
    return trace.model_copy(update={"commit": version}) if version else trace
