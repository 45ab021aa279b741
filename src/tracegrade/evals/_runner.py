"""The runner: every touchpoint's suite, repeated, each unit's case results stored as it ends.

:func:`run_evals` prepares every selected touchpoint's suite (bad input stops it before
anything is written), splits the work into units (:class:`WorkUnit`), hands them to an
executor, and writes each unit's case outcomes to the store in one transaction as soon as
the unit is done, so a killed run leaves whole units. A resumed run skips the units whose
results are all stored and runs the others again. When every unit is done the run is concluded
(:mod:`tracegrade.evals._conclude`).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.cost import collect_calls, project_prices
from tracegrade.cost._meter import CostLimitReached, CostMeter
from tracegrade.errors import InfrastructureError, InputError
from tracegrade.evals._conclude import conclude_run
from tracegrade.evals._dispatch import WorkUnit, prepare_suite
from tracegrade.evals._executor import LocalExecutor
from tracegrade.evals._outcomes import CaseOutcome
from tracegrade.evals._retry import retry_infra
from tracegrade.evals._run_report import case_metric, new_run_id
from tracegrade.store import AiCallRecord, CaseResultRecord, RunRecord

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.cost import PriceTable
    from tracegrade.evals._contract import Lane
    from tracegrade.evals._dispatch import PreparedSuite
    from tracegrade.evals._executor import Executor
    from tracegrade.evals._load import Project
    from tracegrade.evals._registry import TouchpointEntry
    from tracegrade.evals._run_report import RunReport
    from tracegrade.store import JsonObject, Store

__all__ = ["run_evals"]

_UNIT = "unit"
_UNIT_CASES = "unit_cases"


def _finished_units(results: Sequence[CaseResultRecord]) -> set[str]:
    """Units whose results are all stored: the last result's marker counts them."""
    stored: Counter[str] = Counter()
    expected: dict[str, int] = {}
    for result in results:
        unit = result.payload.get(_UNIT)
        if isinstance(unit, str):
            stored[unit] += 1
            count = result.payload.get(_UNIT_CASES)
            if isinstance(count, int):
                expected[unit] = count
    return {unit for unit, count in expected.items() if stored[unit] >= count}


class _Recorder:
    """Holds each unit's outcomes and stores them in one transaction when the unit is done.

    A unit's results are therefore stored whole or not at all: a killed run leaves every
    finished unit complete and nothing of the unit it was in. The last result of a unit
    carries the unit's size, which is how a resumed run tells finished units apart.
    """

    def __init__(
        self,
        store: Store,
        run_id: str,
        total: int,
        done: int,
        progress: Callable[[int, int], None] | None,
        *,
        meter: CostMeter | None = None,
    ) -> None:
        self._store, self._run_id = store, run_id
        self._meter = meter or CostMeter(store, None)
        self._lock = threading.Lock()
        self._held: dict[WorkUnit, list[CaseOutcome]] = {}
        self._total, self._done, self._progress = total, done, progress

    def _result(self, unit: WorkUnit, outcome: CaseOutcome, size: int | None) -> CaseResultRecord:
        payload: JsonObject = {_UNIT: unit.key, "detail": outcome.detail}
        if size is not None:
            payload[_UNIT_CASES] = size
        return CaseResultRecord(
            run_id=self._run_id,
            touchpoint=unit.touchpoint,
            case_id=outcome.case,
            repeat=unit.repeat,
            outcome=outcome.outcome,
            metric=case_metric(outcome.outcome),
            payload=payload,
        )

    def record(self, unit: WorkUnit, outcome: CaseOutcome | AiCallRecord) -> None:
        """Hold the outcome (or model call) until its unit is done."""
        if isinstance(outcome, AiCallRecord):
            self._meter.hold(unit, outcome)
            return
        with self._lock:
            self._held.setdefault(unit, []).append(outcome)

    def done(self, unit: WorkUnit) -> None:
        """Store the unit's outcomes in one call, the last with the unit's size; report progress.

        The unit's model calls are stored first; then, once the run's recorded cost exceeds
        ``--cost-limit``, :class:`CostLimitReached` stops the executor.
        """
        self._meter.flush(unit)
        with self._lock:
            outcomes = self._held.pop(unit, [])
        if outcomes:
            last = len(outcomes) - 1
            self._store.add_case_results(
                [
                    self._result(unit, outcome, len(outcomes) if index == last else None)
                    for index, outcome in enumerate(outcomes)
                ]
            )
        with self._lock:
            self._done += 1
            if self._progress is not None:
                self._progress(self._done, self._total)
            unfinished = self._done < self._total
        if unfinished:  # past the limit with units left: start no more
            self._meter.check()


def _sleep(seconds: float) -> None:
    time.sleep(seconds)  # looked up on each call, so tests can patch time.sleep


@dataclass(frozen=True)
class _Work:
    """Runs one unit, with retries; a class, not a closure, so worker processes get it."""

    prepared: dict[str, PreparedSuite]
    attempts: int
    backoff: float
    run_id: str = ""
    prices: PriceTable | None = None

    def __call__(self, unit: WorkUnit, emit: Callable[[CaseOutcome | AiCallRecord], None]) -> None:
        with collect_calls(self.run_id, unit.touchpoint, self.prices) as calls:
            self._run(unit, emit)
        for call in calls:  # the unit's model calls travel back with its outcomes
            emit(call)

    def _run(self, unit: WorkUnit, emit: Callable[[CaseOutcome], None]) -> None:
        seen: set[str] = set()

        def attempt() -> None:
            for outcome in self.prepared[unit.touchpoint].run(unit.item, unit.repeat):
                if outcome.case not in seen:  # a retried unit repeats what it already gave
                    seen.add(outcome.case)
                    emit(outcome)

        failure: CaseOutcome | None = None
        try:
            retry_infra(
                attempt,
                attempts=self.attempts,
                backoff=self.backoff,
                sleep=_sleep,
                what=f"touchpoint {unit.touchpoint} ({unit.case}, repeat {unit.repeat})",
            )
        except InfrastructureError as exc:
            failure = CaseOutcome(
                case=unit.case, outcome="infra", repeat=unit.repeat, detail=str(exc)
            )
        except Exception as exc:  # noqa: BLE001 - a suite that breaks is an `error` case, not a crash
            detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
            failure = CaseOutcome(
                case=unit.case, outcome="error", repeat=unit.repeat, detail=detail
            )
        if failure is not None and failure.case not in seen:
            emit(failure)


def _select(
    project: Project, lane: Lane, touchpoints: Sequence[str]
) -> tuple[TouchpointEntry, ...]:
    if touchpoints:
        return tuple(project.entry(name) for name in dict.fromkeys(touchpoints))
    return project.in_lane(lane)


def _resume(
    store: Store, project: Project, run_id: str, lane: Lane | None, touchpoints: Sequence[str]
) -> tuple[Lane, tuple[str, ...]]:
    run = store.get_run(run_id)
    if run is None:
        raise InputError(
            f"no run {run_id!r} in the store",
            fix="pass the id of a run this store holds (tracegrade run prints it)",
        )
    if run.registry_version != project.version:
        raise InputError(
            f"the touchpoint registry changed since run {run_id} started",
            fix="start a new run; a resumed run must use the contracts it started with",
        )
    if run.lane not in {"pr", "nightly"} or (lane is not None and lane != run.lane):
        raise InputError(
            f"run {run_id} ran in the {run.lane!r} lane", fix="resume it without --lane"
        )
    planned = run.summary.get("plan")
    stored = planned.get("touchpoints") if isinstance(planned, dict) else None
    names = tuple(touchpoints) or (
        tuple(str(name) for name in stored) if isinstance(stored, list) else ()
    )
    resumed_lane: Lane = "nightly" if run.lane == "nightly" else "pr"
    return resumed_lane, names


def run_evals(
    project: Project,
    store: Store,
    *,
    lane: Lane | None = None,
    touchpoints: Sequence[str] = (),
    executor: Executor | None = None,
    resume: str | None = None,
    run_id: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    attempts: int = 3,
    backoff: float = 1.0,
    command_timeout: float | None = None,
    prices: PriceTable | None = None,
    cost_limit: float | None = None,
) -> RunReport:
    """Run the touchpoints of a lane, store every case result, and judge each touchpoint.

    Args:
        project: The loaded registry (:func:`load_project`).
        store: Where results, versions and baselines live.
        lane: ``pr`` (default) or ``nightly``; sets the repeats. A resumed run keeps its own.
        touchpoints: Run only these ids (whatever their lanes); default every touchpoint of
            the lane (a resumed run: the ones it started with).
        executor: Where units run; default :class:`LocalExecutor` (sequential).
        resume: Continue this stored run: finished units are skipped, missing results
            written; nothing is stored twice.
        run_id: The new run's id (default: a timestamp and a random suffix).
        progress: Called with (units done, units in all) at the start and after each unit.
        attempts: Tries per unit on an infrastructure failure (:func:`retry_infra`).
        backoff: The first wait between tries, in seconds (doubling).
        command_timeout: Seconds a ``command`` suite may run; a timeout is infrastructure.
        prices: The price table model calls are priced with; default the project's
            (:func:`~tracegrade.cost.project_prices`).
        cost_limit: US dollars: once the run's recorded cost exceeds it no new unit starts,
            the run is stored as ``killed`` (resumable) and the report says it stopped
            (exit code 1). A resumed run counts what it spent before.

    Raises:
        InputError: Bad input (a suite, a trace, a ``call``, an unknown touchpoint or run,
            a price file); raised before anything is written.
        InfrastructureError: The store failed.
    """
    if resume is not None:
        lane, touchpoints = _resume(store, project, resume, lane, touchpoints)
    chosen_lane: Lane = lane or "pr"
    entries = _select(project, chosen_lane, touchpoints)
    prepared = {
        entry.touchpoint.id: prepare_suite(entry, project, command_timeout=command_timeout)
        for entry in entries
    }
    table = prices if prices is not None else project_prices(project)
    units = [
        WorkUnit(entry.touchpoint.id, repeat, item)
        for entry in entries
        for repeat in range(entry.touchpoint.repeats_in(chosen_lane))
        for item in prepared[entry.touchpoint.id].items()
    ]
    plan: JsonObject = {"touchpoints": [entry.touchpoint.id for entry in entries]}
    if resume is not None:
        current = store.resume_run(resume)
        finished = _finished_units(store.case_results(resume))
    else:
        current = RunRecord(
            run_id=run_id or new_run_id(),
            lane=chosen_lane,
            registry_version=project.version,
            summary={"plan": plan},
        )
        store.start_run(current)
        finished = set()
    pending = [unit for unit in units if unit.key not in finished]
    meter = CostMeter(store, cost_limit, _spent(store, current.run_id) if resume else 0.0)
    recorder = _Recorder(
        store, current.run_id, len(units), len(units) - len(pending), progress, meter=meter
    )
    if progress is not None:
        progress(len(units) - len(pending), len(units))
    stopped: str | None = None
    try:
        if pending:
            meter.check()  # a resumed run may have spent its limit already
        (executor or LocalExecutor()).execute(
            pending,
            _Work(prepared, attempts, backoff, current.run_id, table),
            recorder.record,
            recorder.done,
        )
    except CostLimitReached:
        stopped = meter.stop_reason  # what was spent once the running units were stored
    except BaseException:
        store.finish_run(current.run_id, status="killed")
        raise
    return conclude_run(
        project,
        store,
        entries,
        current.run_id,
        chosen_lane,
        plan=plan,
        resumed=resume is not None,
        units=len(units),
        units_skipped=len(units) - len(pending),
        stopped=stopped,
    )


def _spent(store: Store, run_id: str) -> float:
    """What the run's priced calls cost so far (unpriced ones cost nothing known)."""
    return sum(call.cost_usd or 0.0 for call in store.ai_calls(run_id=run_id))
