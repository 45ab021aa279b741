"""SWE-agent trajectories, ``.traj`` (docs/formats/swe-agent.md).

One JSON object ``{history, trajectory, info, replay_config, environment}``; one
trace, read from ``history`` (the chat the model saw). Function-calling runs
carry OpenAI ``tool_calls`` and answer them with ``role: tool`` messages (or
with the next user message). Text-action runs write the command in the
assistant text (``action``) and get its output in the next user message: each
action is read as a ``tool_call`` and that message as its ``tool_result``.
Without ``history``, the ``trajectory`` steps ``{thought, action, observation}``
are read instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, ToolCallFrame, UserFrame
from tracegrade.traces._openai import tool_call_frames
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed, require_object, text_or_none
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    loads_nested,
    parts_text,
    starts_with,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/swe-agent.md for the fields of a .traj file"
_ROLES = "system, user, assistant, tool"


def _looks_swe_agent(name: str, head: bytes) -> bool:
    if not starts_with(head, rb"\{"):
        return False
    if name:
        return name.lower().endswith(".traj")
    return b'"history"' in head and (b'"message_type"' in head or b'"trajectory"' in head)


@reader(
    "swe-agent",
    description="SWE-agent .traj files: {history, trajectory, info}; function-calling and"
    " text-action runs",
    can_read=_looks_swe_agent,
    priority=10,
)
def _read_swe_agent(data: bytes, name: str) -> Iterator[Trace]:
    yield _swe_agent_trace(data, name)


def _swe_agent_trace(data: bytes, name: str) -> Trace:
    raw = require_object(load_json(data, name), "a .traj file", name, _FIX)
    history, steps = raw.get("history"), raw.get("trajectory")
    ledger = CallLedger()
    synthetic: list[str] = []
    if isinstance(history, list) and history:
        frames = _history_frames(history, name, ledger, synthetic)
        where = "history"
    elif isinstance(steps, list) and steps:
        frames = _step_frames(steps, name, ledger, synthetic)
        where = "trajectory"
    else:
        raise TraceFormatError(
            "a .traj file needs a non-empty 'history' or 'trajectory' list, got"
            f" {json_type(history)} and {json_type(steps)}",
            fix=_FIX,
            path=name,
        )
    config = _config(raw.get("replay_config"))
    info = raw.get("info")
    info = info if isinstance(info, dict) else {}
    metadata: dict[str, Any] = {
        "exit_status": info.get("exit_status"),
        "submission": info.get("submission"),
    }
    for key in ("model_stats", "swe_agent_version"):
        if info.get(key) is not None:
            metadata[key] = info[key]
    if raw.get("environment") is not None:
        metadata["environment"] = raw["environment"]
    if synthetic:
        metadata["text_action_call_ids"] = synthetic
    trace = build_trace(
        trace_id=_instance_id(config) or trace_stem(name),
        model=_model(config),
        frames=frames,
        ledger=ledger,
        name=name,
        where=where,
        metadata=metadata,
    )
    commit = text_or_none(info.get("swe_agent_hash")) or text_or_none(info.get("swe_agent_version"))
    return trace.model_copy(update={"commit": commit}) if commit else trace


def _config(value: Any) -> dict[str, Any]:  # noqa: ANN401 - any JSON value
    """``replay_config``: an object, or (older runs) a JSON string of one."""
    if isinstance(value, str):
        try:
            value = loads_nested(value)
        except orjson.JSONDecodeError:
            return {}
    return value if isinstance(value, dict) else {}


def _instance_id(config: dict[str, Any]) -> str | None:
    problem = config.get("problem_statement")
    return text_or_none(problem.get("id")) if isinstance(problem, dict) else None


def _model(config: dict[str, Any]) -> str | None:
    agent = config.get("agent")
    model = agent.get("model") if isinstance(agent, dict) else None
    if isinstance(model, dict) and text_or_none(model.get("name")):
        return str(model["name"])
    return text_or_none(config.get("model_name"))  # SWE-agent 0.x


def _history_frames(
    history: list[Any], name: str, ledger: CallLedger, synthetic: list[str]
) -> list[Frame]:
    frames: list[Frame] = []
    for index, message in enumerate(history):
        at = f"history {index}"
        if not isinstance(message, dict):
            raise TraceFormatError(
                f"{at}: a message must be a JSON object, got {json_type(message)}",
                fix=_FIX,
                path=name,
            )
        added = _message_frames(message, name, at, ledger, synthetic)
        frames.extend(placed(f, at) for f in added)
    return frames


def _message_frames(
    message: dict[str, Any], name: str, at: str, ledger: CallLedger, synthetic: list[str]
) -> list[Frame]:
    role = message.get("role")
    text = _text(message.get("content"), name, at)
    if message.get("is_demo") is True:
        # A demonstration shown to the model: prompt material, not this run.
        return [SystemFrame(content=text)] if role in ("system", "user", "assistant") else []
    if role == "system":
        return [SystemFrame(content=text)]
    if role == "assistant":
        return _assistant(message, text, name, at, ledger=ledger, synthetic=synthetic)
    if role == "tool":
        return _tool_results(message, text, name, at, ledger)
    if role == "user":
        # An observation answers the earliest call still waiting (a text action, or a
        # function call answered in a user message); otherwise it is a user turn.
        if message.get("message_type") in (None, "observation"):
            frame = ledger.result(None, ok=True, result=text)
            if frame is not None:
                return [frame]
        return [UserFrame(content=text)]
    shown = "no 'role'" if role is None else f"unknown role {role!r}"
    raise TraceFormatError(f"{at}: {shown}", fix=f"a message's role is one of: {_ROLES}", path=name)


def _assistant(
    message: dict[str, Any],
    text: str,
    name: str,
    at: str,
    *,
    ledger: CallLedger,
    synthetic: list[str],
) -> list[Frame]:
    frames: list[Frame] = []
    calls = tool_call_frames(message, name, at, ledger)
    action = message.get("action")
    if calls or not isinstance(action, str) or is_blank(action):
        if text:
            frames.append(AssistantFrame(content=text))
        return frames + calls
    # A text action: the thought is the prose, the command the call.
    thought = message.get("thought")
    prose = thought if isinstance(thought, str) else text
    if not is_blank(prose):
        frames.append(AssistantFrame(content=prose))
    call = _action_call(action, ledger)
    synthetic.append(call.id)
    return [*frames, call]


def _action_call(action: str, ledger: CallLedger) -> ToolCallFrame:
    """A text action as a call: named after the command's first word, ``{"command": action}``."""
    words = action.split()
    return ledger.call(None, words[0] if words else "bash", {"command": action})


def _tool_results(
    message: dict[str, Any], text: str, name: str, at: str, ledger: CallLedger
) -> list[Frame]:
    ids = message.get("tool_call_ids")
    if ids is None:
        single = message.get("tool_call_id")
        ids = [single] if single is not None else [None]
    if not isinstance(ids, list) or not all(i is None or isinstance(i, str) for i in ids):
        raise TraceFormatError(
            f"{at}: 'tool_call_ids' must be a list of strings, got {json_type(ids)}",
            fix="a tool message's tool_call_ids name the calls it answers",
            path=name,
        )
    frames: list[Frame] = []
    for call_id in ids or [None]:
        # One observation for several calls answers each of them.
        frame = ledger.result(call_id, ok=True, result=text)
        if frame is None:
            raise TraceFormatError(
                f"{at}: a tool message with no tool_call_ids and no call waiting for a result",
                fix="give the tool message the tool_call_ids of the calls it answers",
                path=name,
            )
        frames.append(frame)
    return frames


def _step_frames(
    steps: list[Any], name: str, ledger: CallLedger, synthetic: list[str]
) -> list[Frame]:
    frames: list[Frame] = []
    for index, step in enumerate(steps):
        at = f"trajectory {index}"
        body = require_object(step, at, name, _FIX)
        thought = body.get("thought")
        if not isinstance(thought, str):
            thought = body.get("response")
        added: list[Frame] = []
        if isinstance(thought, str) and not is_blank(thought):
            added.append(AssistantFrame(content=thought))
        action = body.get("action")
        if isinstance(action, str) and not is_blank(action):
            call = _action_call(action, ledger)
            synthetic.append(call.id)
            observation = body.get("observation")
            result = ledger.result(
                call.id,
                ok=True,
                result=_text(observation, name, at) if observation is not None else None,
            )
            added.extend(f for f in (call, result) if f is not None)
        frames.extend(placed(f, at) for f in added)
    return frames


def _text(content: Any, name: str, at: str) -> str:  # noqa: ANN401 - any JSON value
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return parts_text(content)
    raise TraceFormatError(
        f"{at}: 'content' must be a string or a list of content parts, got {json_type(content)}",
        fix=_FIX,
        path=name,
    )
