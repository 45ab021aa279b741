"""tau-bench results files (sierra-research/tau-bench; docs/formats/tau-bench.md).

A JSON list of records ``{task_id, trial, reward, info, traj}``; ``traj`` is the run as
OpenAI chat messages. Each record is one trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.errors import TraceFormatError
from tracegrade.traces._openai import chat_frames
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._reading import build_trace, json_type, load_json, starts_with, suffix_ok
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Trace

__all__: list[str] = []

_FIX = "see docs/formats/tau-bench.md for the fields of a record"
# info.task keys kept in the metadata, under these names.
_TASK_KEYS = {"instruction": "instruction", "actions": "actions", "outputs": "outputs"}


def _looks_tau_bench(name: str, head: bytes) -> bool:
    # A record's keys may come in any order and 'traj' often comes after a long 'info',
    # so the list of records and 'task_id' with 'reward' or 'traj' is enough.
    return (
        suffix_ok(name, ".json")
        and starts_with(head, rb"\[\s*\{")
        and b'"task_id"' in head
        and (b'"traj"' in head or b'"reward"' in head)
    )


@reader(
    "tau-bench",
    description="tau-bench results: a .json list of {task_id, trial, reward, info, traj} records",
    can_read=_looks_tau_bench,
    priority=10,
)
def _read_tau_bench(data: bytes, name: str) -> Iterator[Trace]:
    raw = load_json(data, name)
    if not isinstance(raw, list):
        hint = (
            "; this looks like a tau2 results file: pass --from tau2"
            if isinstance(raw, dict) and "simulations" in raw
            else ""
        )
        raise TraceFormatError(
            f"a tau-bench results file is a JSON list of records, got {json_type(raw)}{hint}",
            fix=_FIX,
            path=name,
        )
    for index, record in enumerate(raw):
        yield _record_trace(record, index, name)


def _record_trace(record: Any, index: int, name: str) -> Trace:  # noqa: ANN401 - any JSON value
    where = f"record {index}"
    if not isinstance(record, dict):
        raise TraceFormatError(
            f"{where}: a record must be a JSON object, got {json_type(record)}", fix=_FIX, path=name
        )
    for key in ("task_id", "traj"):
        if key not in record:
            raise TraceFormatError(f"{where}: field {key!r} is missing", fix=_FIX, path=name)
    traj = record["traj"]
    if not isinstance(traj, list):
        raise TraceFormatError(
            f"{where}: 'traj' must be a list of messages, got {json_type(traj)}",
            fix=_FIX,
            path=name,
        )
    task_id, trial, reward = record["task_id"], record.get("trial"), record.get("reward")
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, (int, float))):
        raise TraceFormatError(
            f"{where}: 'reward' must be a number, got {json_type(reward)}", fix=_FIX, path=name
        )
    ledger = CallLedger()
    frames = chat_frames(traj, name, where, ledger)
    metadata: dict[str, Any] = {"task_id": task_id, "trial": trial, "reward": reward}
    info = record.get("info")
    task = info.get("task") if isinstance(info, dict) else None
    if isinstance(task, dict):
        metadata |= {short: task[key] for key, short in _TASK_KEYS.items() if key in task}
    trace_id = (
        f"task-{task_id}-trial-{trial}"
        if isinstance(trial, int) and not isinstance(trial, bool)
        else f"task-{task_id}-record-{index}"
    )
    return build_trace(
        trace_id=trace_id,
        frames=frames,
        ledger=ledger,
        name=name,
        where=where,
        outcome=None if reward is None else ("success" if reward == 1 else "failure"),
        metadata=metadata,
    )
