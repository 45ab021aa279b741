"""tau2-bench results files (sierra-research/tau2-bench; docs/formats/tau2.md).

One JSON object ``{timestamp, info, tasks, simulations}``; each simulation is one trace.
Messages have a role (``assistant``, ``user``, ``tool``); calls are flat
``{id, name, arguments}``; a tool message carries the call's ``id`` and an ``error`` flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._openai import message_text, result_value, tool_call_frames
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import placed
from tracegrade.traces._reading import build_trace, json_type, load_json, starts_with, suffix_ok
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/tau2.md for the fields of a simulation"
_ROLES = "system, user, assistant, tool"


def _looks_tau2(name: str, head: bytes) -> bool:
    # 'simulations' usually comes after a long 'info' (the policy text), so the run
    # config keys of 'info' identify the file too.
    return (
        suffix_ok(name, ".json")
        and starts_with(head, rb"\{")
        and (b'"simulations"' in head or (b'"num_trials"' in head and b'"max_errors"' in head))
    )


@reader(
    "tau2",
    description="tau2-bench results: a .json object with 'simulations' (each with messages)",
    can_read=_looks_tau2,
    priority=10,
)
def _read_tau2(data: bytes, name: str) -> Iterator[Trace]:
    raw = load_json(data, name)
    if not isinstance(raw, dict) or not isinstance(raw.get("simulations"), list):
        got = "an object without a 'simulations' list" if isinstance(raw, dict) else json_type(raw)
        hint = (
            "; a list of records is a tau-bench file: pass --from tau-bench"
            if isinstance(raw, list)
            else ""
        )
        raise TraceFormatError(
            f"a tau2 results file is an object with a 'simulations' list, got {got}{hint}",
            fix=_FIX,
            path=name,
        )
    info = raw.get("info")
    agent = info.get("agent_info") if isinstance(info, dict) else None
    model = agent.get("llm") if isinstance(agent, dict) else None
    for index, simulation in enumerate(raw["simulations"]):
        yield _simulation_trace(simulation, index, name, model if isinstance(model, str) else None)


def _simulation_trace(simulation: Any, index: int, name: str, model: str | None) -> Trace:  # noqa: ANN401 - any JSON value
    where = f"simulation {index}"
    if not isinstance(simulation, dict):
        raise TraceFormatError(
            f"{where}: a simulation must be a JSON object, got {json_type(simulation)}",
            fix=_FIX,
            path=name,
        )
    messages = simulation.get("messages")
    if not isinstance(messages, list) or not messages:
        ticks = (
            " (full-duplex runs that record 'ticks' are not read)"
            if simulation.get("ticks")
            else ""
        )
        raise TraceFormatError(
            f"{where}: 'messages' must be a non-empty list, got {json_type(messages)}{ticks}",
            fix=_FIX,
            path=name,
        )
    ledger = CallLedger()
    frames: list[Frame] = []
    user_calls: list[str] = []
    for number, message in enumerate(messages):
        at = f"{where}, message {number}"
        if not isinstance(message, dict):
            raise TraceFormatError(
                f"{at}: a message must be a JSON object, got {json_type(message)}",
                fix=_FIX,
                path=name,
            )
        added = [placed(frame, at) for frame in _message_frames(message, name, at, ledger)]
        if message.get("role") == "user":
            user_calls.extend(f.id for f in added if f.type == "tool_call")
        frames.extend(added)
    task_id, trial = simulation.get("task_id"), simulation.get("trial")
    reward_info = simulation.get("reward_info")
    reward = reward_info.get("reward") if isinstance(reward_info, dict) else None
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, (int, float))):
        raise TraceFormatError(
            f"{where}: 'reward_info.reward' must be a number, got {json_type(reward)}",
            fix=_FIX,
            path=name,
        )
    sim_id = simulation.get("id")
    metadata: dict[str, Any] = {
        "task_id": task_id,
        "trial": trial,
        "termination_reason": simulation.get("termination_reason"),
        "reward": reward,
    }
    if user_calls:
        metadata["user_call_ids"] = user_calls
    return build_trace(
        trace_id=sim_id if isinstance(sim_id, str) and sim_id else f"task-{task_id}-trial-{trial}",
        model=model,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where,
        outcome=None if reward is None else ("success" if reward == 1 else "failure"),
        metadata=metadata,
    )


def _message_frames(message: dict[str, Any], name: str, at: str, ledger: CallLedger) -> list[Frame]:
    role = message.get("role")
    if role == "tool":
        call_id, error = message.get("id"), message.get("error", False)
        if call_id is not None and not isinstance(call_id, str):
            raise TraceFormatError(
                f"{at}: the tool message 'id' must be a string, got {json_type(call_id)}",
                fix="a tool message's id is the id of the call it answers",
                path=name,
            )
        if error is not None and not isinstance(error, bool):
            raise TraceFormatError(
                f"{at}: 'error' must be true or false, got {json_type(error)}", fix=_FIX, path=name
            )
        frame = ledger.result(call_id, ok=not error, result=result_value(message.get("content")))
        if frame is None:
            raise TraceFormatError(
                f"{at}: a tool result with no id and no call waiting for a result",
                fix="give the tool message the id of the call it answers",
                path=name,
            )
        return [frame]
    if role not in ("system", "user", "assistant"):
        shown = "no 'role'" if role is None else f"unknown role {role!r}"
        raise TraceFormatError(
            f"{at}: {shown}", fix=f"a message's role is one of: {_ROLES}", path=name
        )
    text = message_text(message, name, at)
    calls = tool_call_frames(message, name, at, ledger)
    frames: list[Frame] = []
    if role == "system":
        frames.append(SystemFrame(content=text))
    elif role == "user" and (text or not calls):
        # The user simulator's turn, kept as written (control tokens such as ###STOP### too).
        frames.append(UserFrame(content=text))
    elif role == "assistant" and text:
        frames.append(AssistantFrame(content=text))
    return frames + calls
