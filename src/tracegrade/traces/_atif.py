"""ATIF trajectories, the Agent Trajectory Interchange Format of Harbor (docs/formats/atif.md).

One JSON object ``{schema_version: "ATIF-v1.x", session_id, agent, steps, ...}``.
Each step has a ``source`` (``system``, ``user`` or ``agent``), a ``message``,
and an agent step may carry ``tool_calls`` and an ``observation`` whose
``results`` name their call by ``source_call_id``. The trajectory is one trace;
each embedded ``subagent_trajectories`` entry is one more trace, after it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, ToolResultFrame, UserFrame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed, require_list, require_object, text_or_none
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    parse_arguments,
    parts_text,
    starts_with,
    suffix_ok,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/atif.md for the fields of a trajectory"
_VERSION = re.compile(r"^ATIF-v1\.\d+$")
_SOURCES = "system, user, agent"
_SYNTHETIC_CALL = "action"


def _looks_atif(name: str, head: bytes) -> bool:
    return (
        suffix_ok(name, ".json")
        and starts_with(head, rb"\{")
        and re.search(rb'"schema_version"\s*:\s*"ATIF-', head) is not None
    )


@reader(
    "atif",
    description="ATIF (Harbor) trajectories: a .json object with schema_version 'ATIF-v1.x'"
    " and steps; subagent trajectories are traces of their own",
    can_read=_looks_atif,
    priority=10,
)
def _read_atif(data: bytes, name: str) -> Iterator[Trace]:
    raw = require_object(load_json(data, name), "an ATIF trajectory", name, _FIX)
    yield from _trajectories(raw, name, "", None, trace_stem(name))


def _trajectories(
    raw: dict[str, Any], name: str, where: str, parent: str | None, default_id: str
) -> Iterator[Trace]:
    """The trajectory's trace, then each embedded subagent's, depth first."""
    version = raw.get("schema_version")
    prefix = f"{where}: " if where else ""
    if not isinstance(version, str) or not _VERSION.match(version):
        raise TraceFormatError(
            f"{prefix}'schema_version' must be 'ATIF-v1.<minor>', got {version!r}",
            fix="this reader reads ATIF v1 trajectories; convert other versions to ATIF-v1.x",
            path=name,
        )
    trace = _trajectory_trace(raw, name, where, parent, default_id)
    yield trace
    subagents = raw.get("subagent_trajectories")
    if subagents is None:
        return
    subagents = require_list(subagents, f"{prefix}'subagent_trajectories'", name, _FIX)
    for index, sub in enumerate(subagents):
        here = f"{where + ', ' if where else ''}subagent {index}"
        entry = require_object(sub, here, name, _FIX)
        sub_id = text_or_none(entry.get("trajectory_id")) or f"{trace.id}-subagent-{index}"
        yield from _trajectories(entry, name, here, trace.id, sub_id)


def _trajectory_trace(
    raw: dict[str, Any], name: str, where: str, parent: str | None, default_id: str
) -> Trace:
    prefix = f"{where}: " if where else ""
    agent = require_object(raw.get("agent"), f"{prefix}'agent'", name, _FIX)
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise TraceFormatError(
            f"{prefix}'steps' must be a non-empty list, got {json_type(steps)}", fix=_FIX, path=name
        )
    ledger = CallLedger()
    state = _State()
    frames: list[Frame] = []
    for index, step in enumerate(steps):
        at = _step_place(step, index, where)
        body = require_object(step, at, name, _FIX)
        frames.extend(placed(f, at) for f in _step_frames(body, name, at, ledger, state))
    trace_id = (
        text_or_none(raw.get("trajectory_id")) or text_or_none(raw.get("session_id")) or default_id
    )
    model = text_or_none(agent.get("model_name")) or next(
        (m for s in steps if isinstance(s, dict) and (m := text_or_none(s.get("model_name")))),
        None,
    )
    metadata: dict[str, Any] = {
        "schema_version": raw.get("schema_version"),
        "session_id": raw.get("session_id"),
        "agent": agent.get("name"),
        "agent_version": agent.get("version"),
    }
    for key in ("notes", "final_metrics", "extra"):
        if raw.get(key) is not None:
            metadata[key] = raw[key]
    if parent is not None:
        metadata["parent_trajectory"] = parent
    if state.subagent_refs:
        metadata["subagent_refs"] = state.subagent_refs
    if state.synthetic:
        metadata["synthetic_call_ids"] = state.synthetic
    trace = build_trace(
        trace_id=trace_id,
        model=model,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where or "trajectory",
        metadata=metadata,
    )
    commit = text_or_none(agent.get("version"))
    return trace.model_copy(update={"commit": commit}) if commit else trace


def _step_place(step: Any, index: int, where: str) -> str:  # noqa: ANN401 - any JSON value
    """``step <step_id>`` (ATIF numbers steps from 1), or ``steps[i]`` without a step id."""
    step_id = step.get("step_id") if isinstance(step, dict) else None
    here = (
        f"step {step_id}"
        if isinstance(step_id, int) and not isinstance(step_id, bool)
        else f"steps[{index}]"
    )
    return f"{where}, {here}" if where else here


class _State:
    """What a trajectory's steps record beside frames."""

    def __init__(self) -> None:
        self.called: set[str] = set()
        self.subagent_refs: dict[str, list[Any]] = {}
        self.synthetic: list[str] = []


def _step_frames(
    step: dict[str, Any], name: str, at: str, ledger: CallLedger, state: _State
) -> list[Frame]:
    source = step.get("source")
    if source not in ("system", "user", "agent"):
        shown = "no 'source'" if source is None else f"unknown source {source!r}"
        raise TraceFormatError(
            f"{at}: {shown}", fix=f"a step's source is one of: {_SOURCES}", path=name
        )
    text = _message_text(step.get("message"), name, at, "'message'")
    frames: list[Frame] = []
    if source == "system":
        if not is_blank(text):
            frames.append(SystemFrame(content=text))
    elif source == "user":
        frames.append(UserFrame(content=text))
    elif not is_blank(text):
        frames.append(AssistantFrame(content=text))
    calls = step.get("tool_calls")
    for number, call in enumerate(require_list(calls or [], f"{at}: 'tool_calls'", name, _FIX)):
        frames.append(_call(call, name, f"{at}, tool call {number}", ledger, state))
    observation = step.get("observation")
    if observation is None:
        return frames
    observation = require_object(observation, f"{at}: 'observation'", name, _FIX)
    results = require_list(observation.get("results"), f"{at}: 'observation.results'", name, _FIX)
    for number, result in enumerate(results):
        here = f"{at}, result {number}"
        frames.extend(_result(result, source, name=name, at=here, ledger=ledger, state=state))
    return frames


def _call(call: Any, name: str, at: str, ledger: CallLedger, state: _State) -> Frame:  # noqa: ANN401 - any JSON value
    call = require_object(call, at, name, _FIX)
    tool = call.get("function_name")
    if not isinstance(tool, str) or not tool:
        raise TraceFormatError(
            f"{at}: the tool call has no 'function_name'",
            fix="each tool call needs function_name (a non-empty string)",
            path=name,
        )
    call_id = call.get("tool_call_id")
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: 'tool_call_id' must be a string, got {json_type(call_id)}", fix=_FIX, path=name
        )
    if call_id:
        state.called.add(call_id)
    return ledger.call(call_id, tool, parse_arguments(call.get("arguments")))


def _result(
    result: Any,  # noqa: ANN401 - any JSON value
    source: str,
    *,
    name: str,
    at: str,
    ledger: CallLedger,
    state: _State,
) -> list[Frame]:
    result = require_object(result, at, name, _FIX)
    call_id = result.get("source_call_id")
    if call_id is not None and not isinstance(call_id, str):
        raise TraceFormatError(
            f"{at}: 'source_call_id' must be a string, got {json_type(call_id)}",
            fix="an observation result's source_call_id is the tool_call_id it answers",
            path=name,
        )
    content = result.get("content")
    value = None if content is None else _message_text(content, name, at, "'content'")
    frames: list[Frame] = []
    if source == "system" and not (call_id and call_id in state.called):
        # A system-initiated operation (context management, a reset): no call of the agent's.
        if value:
            frames.append(SystemFrame(content=value))
    else:
        frame = ledger.result(call_id or None, ok=True, result=value)
        if frame is None:
            # An agent action outside the tool-calling format (ATIF: null source_call_id):
            # kept as a call named 'action' so its output stays a tool result.
            call = ledger.call(None, _SYNTHETIC_CALL, None)
            state.synthetic.append(call.id)
            frame = ledger.result(call.id, ok=True, result=value)
            frames.append(call)
        if frame is not None:
            frames.append(frame)
    refs = result.get("subagent_trajectory_ref")
    if refs:
        last = frames[-1] if frames else None
        state.subagent_refs[last.id if isinstance(last, ToolResultFrame) else at] = refs
    return frames


def _message_text(value: Any, name: str, at: str, field: str) -> str:  # noqa: ANN401 - any JSON value
    """A message or content: a string, or ContentPart list (text parts joined, images skipped)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return parts_text(value)
    raise TraceFormatError(
        f"{at}: {field} must be a string or a list of content parts, got {json_type(value)}",
        fix=_FIX,
        path=name,
    )
