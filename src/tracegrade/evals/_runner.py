"""The runner: every touchpoint's suite, repeated, each unit's case results stored as it ends.

:func:`run_evals` prepares every selected touchpoint's suite (bad input stops it before
anything is written), splits the work into units (:class:`WorkUnit`), hands them to an
executor, and writes each unit's case outcomes to the store in one transaction as soon as
the unit is done, so a killed run leaves whole units. A resumed run skips the units whose
results are all stored and runs the others again. When every unit is done it judges each
touchpoint against its stored baseline, records the touchpoint's version and file hashes,
and finishes the run with the report as summary.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from tracegrade.cost import CostBreakdown, collect_calls, cost_breakdown, project_prices
from tracegrade.cost._meter import CostLimitReached, CostMeter
from tracegrade.errors import InfrastructureError, InputError
from tracegrade.evals._contract import Lane, Severity, SuiteKind
from tracegrade.evals._dispatch import WorkUnit, prepare_suite
from tracegrade.evals._drift import FileDrift, drift
from tracegrade.evals._executor import LocalExecutor
from tracegrade.evals._graduation import Graduation, RunTally, measure_graduation
from tracegrade.evals._judge import TouchpointVerdict, exit_code, judge
from tracegrade.evals._load import file_hashes
from tracegrade.evals._metric import metric_for, spread
from tracegrade.evals._outcomes import CaseOutcome
from tracegrade.evals._retry import retry_infra
from tracegrade.store import (
    AiCallRecord,
    CaseResultRecord,
    Outcome,
    RunRecord,
    TouchpointVersionRecord,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.cost import PriceTable
    from tracegrade.evals._contract import Touchpoint
    from tracegrade.evals._dispatch import PreparedSuite
    from tracegrade.evals._executor import Executor
    from tracegrade.evals._load import Project
    from tracegrade.evals._registry import TouchpointEntry
    from tracegrade.store import JsonObject, Store

__all__ = [
    "RUN_SCHEMA_VERSION",
    "RunReport",
    "TouchpointReport",
    "case_metric",
    "conclude_run",
    "new_run_id",
    "run_evals",
]

RUN_SCHEMA_VERSION = 1

_UNIT = "unit"
_UNIT_CASES = "unit_cases"


class TouchpointReport(BaseModel):
    """One touchpoint's part of a run report.

    Attributes:
        touchpoint: The id.
        suite_kind: How its suite ran.
        severity: Its ``severity_on_fail``.
        verdict: The judgement against its stored baseline.
        baseline_run: The run its baseline was promoted from, if any.
        version: sha256 (16 hex digits) of its contract and file hashes.
        files: sha256 of each of its ``files``.
        drift: Files changed, added or removed since the baseline run; ``None`` when
            there is no baseline run to compare with.
        results: Case results stored for it in this run (all repeats).
        graduation: Whether it has earned auto-apply, this run included
            (:func:`measure_graduation`).
        cost: Its model calls in this run, agent vs judge (unpriced ones counted apart).
        watch: What this run did to the watch after an auto-apply (held, kept, rolled
            back), when one is open; else ``None``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    touchpoint: str
    suite_kind: SuiteKind
    severity: Severity
    verdict: TouchpointVerdict
    baseline_run: str | None
    version: str
    files: dict[str, str]
    drift: tuple[FileDrift, ...] | None
    results: int
    graduation: Graduation | None = None
    cost: CostBreakdown = CostBreakdown()
    watch: str | None = None


class RunReport(BaseModel):
    """What a run concluded: per touchpoint, and the exit code.

    Attributes:
        run_id: The stored run.
        lane: ``pr`` or ``nightly``.
        registry_version: The registry version it ran against.
        resumed: It continued an earlier, unfinished run.
        units: Work units in the run.
        units_skipped: Units already finished before this (resumed) invocation.
        touchpoints: One report per touchpoint, in registry order.
        exit_code: 0 held, 1 a ``block`` touchpoint failed, 3 infrastructure only.
        reason: Why, in one line.
        printed: Verdict sentences to show (failed, unstable, infra or unmeasured
            touchpoints that are not ``info``).
        cost: The run's model calls, agent vs judge (unpriced ones counted apart).
        stopped: Why the run stopped before every unit ran (``--cost-limit``), else ``None``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    run_id: str
    lane: Lane
    registry_version: str
    resumed: bool
    units: int
    units_skipped: int
    touchpoints: tuple[TouchpointReport, ...]
    exit_code: int
    reason: str
    printed: tuple[str, ...]
    cost: CostBreakdown = CostBreakdown()
    stopped: str | None = None


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{secrets.token_hex(3)}"


def case_metric(outcome: str) -> float | None:
    """A case's stored metric: 1 passed, 0 failed or broken, unknown when infra."""
    return None if outcome == "infra" else float(outcome == "passed")


def _version(touchpoint: Touchpoint, hashes: dict[str, str]) -> str:
    text = json.dumps(
        {"contract": touchpoint.model_dump(mode="json"), "files": hashes}, sort_keys=True
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


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


def conclude_run(
    project: Project,
    store: Store,
    entries: Sequence[TouchpointEntry],
    run_id: str,
    lane: Lane,
    *,
    plan: JsonObject,
    resumed: bool = False,
    units: int,
    units_skipped: int = 0,
    stopped: str | None = None,
) -> RunReport:
    """Judge each touchpoint of a run whose case results are stored, and finish the run.

    The one ending of every run, whoever stored its cases (:func:`run_evals`, or a pytest
    session through :func:`~tracegrade.evals.record_outcomes`).
    """
    reports = tuple(_judge(entry, project, store, run_id, lane) for entry in entries)
    calls = store.ai_calls(run_id=run_id)
    reports = _costed(reports, calls)
    decision = exit_code(report.verdict for report in reports)
    report = RunReport(
        run_id=run_id,
        lane=lane,
        registry_version=project.version,
        resumed=resumed,
        units=units,
        units_skipped=units_skipped,
        touchpoints=reports,
        exit_code=1 if stopped else decision.code,
        reason=f"stopped: {stopped}" if stopped else decision.reason,
        printed=tuple(verdict.sentence for verdict in decision.printed),
        cost=cost_breakdown(calls),
        stopped=stopped,
    )
    store.finish_run(
        run_id,
        status="killed" if stopped else "finished",
        summary={"plan": plan, "report": report.model_dump(mode="json")},
    )
    return report


def _spent(store: Store, run_id: str) -> float:
    """What the run's priced calls cost so far (unpriced ones cost nothing known)."""
    return sum(call.cost_usd or 0.0 for call in store.ai_calls(run_id=run_id))


def _costed(
    reports: tuple[TouchpointReport, ...], calls: Sequence[AiCallRecord]
) -> tuple[TouchpointReport, ...]:
    """Each touchpoint's report with the cost of its calls in the run."""
    return tuple(
        report.model_copy(
            update={"cost": cost_breakdown(c for c in calls if c.touchpoint == report.touchpoint)}
        )
        for report in reports
    )


def _baseline_files(store: Store, run_id: str, touchpoint: str) -> dict[str, str] | None:
    """The file hashes a stored run recorded for a touchpoint, if it recorded them."""
    run = store.get_run(run_id)
    report = run.summary.get("report") if run is not None else None
    items = report.get("touchpoints") if isinstance(report, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("touchpoint") == touchpoint:
            files = item.get("files")
            if isinstance(files, dict):
                return {str(k): str(v) for k, v in files.items()}
    return None


def _judge(
    entry: TouchpointEntry, project: Project, store: Store, run_id: str, lane: Lane
) -> TouchpointReport:
    touchpoint = entry.touchpoint
    counts = store.outcomes_by_repeat(run_id, touchpoint.id)
    by_repeat: dict[int, list[Outcome]] = {}
    for (repeat, outcome), count in sorted(counts.items()):
        by_repeat.setdefault(repeat, []).extend([outcome] * count)
    metric = metric_for(touchpoint.suite_kind, [o for kept in by_repeat.values() for o in kept])
    repeats = touchpoint.repeats_in(lane)
    values = [
        metric_for(touchpoint.suite_kind, by_repeat.get(repeat, [])).value
        for repeat in range(repeats)
    ]
    baseline = store.baseline(touchpoint.id)
    verdict = judge(
        touchpoint,
        metric,
        baseline.metric if baseline is not None else None,
        spread(values) if repeats > 1 else None,
    )
    hashes = file_hashes(touchpoint, project.root)
    version = _version(touchpoint, hashes)
    store.record_touchpoint_version(
        TouchpointVersionRecord(
            touchpoint=touchpoint.id,
            version=version,
            registry_version=project.version,
            hashes=hashes,
        )
    )
    standing = _improvement_loop(store, project, run_id, verdict, hashes=hashes)
    watched = _watch(store, project, run_id, verdict, hashes)
    before = _baseline_files(store, baseline.run_id, touchpoint.id) if baseline else None
    return TouchpointReport(
        touchpoint=touchpoint.id,
        suite_kind=touchpoint.suite_kind,
        severity=touchpoint.severity_on_fail,
        verdict=verdict,
        baseline_run=baseline.run_id if baseline is not None else None,
        version=version,
        files=hashes,
        drift=drift(hashes, before) if before is not None else None,
        graduation=standing,
        results=sum(counts.values()),
        watch=watched,
    )


def _improvement_loop(
    store: Store,
    project: Project,
    run_id: str,
    verdict: TouchpointVerdict,
    *,
    hashes: dict[str, str],
) -> Graduation:
    """Feed the improvement loop (docs/proposals.md) and measure graduation.

    Keeps the files' contents (rollback restores them) and records a signal per failing
    case of a failed ``block``/``warn`` touchpoint, once per run.
    """
    from tracegrade.proposals import case_signal, keep_files  # noqa: PLC0415 - it imports evals

    touchpoint = project.entry(verdict.touchpoint).touchpoint

    keep_files(store, project.root, hashes)
    if (
        verdict.failed
        and touchpoint.severity_on_fail in {"block", "warn"}
        and not any(signal.run_id == run_id for signal in store.signals(touchpoint.id))
    ):
        for result in store.case_results(run_id, touchpoint.id):
            if result.outcome in {"failed", "error"}:
                store.add_signal(case_signal(result, touchpoint.suite_kind))
    metric = verdict.metric
    current = RunTally(
        run_id=run_id,
        passed=metric.passed,
        failed=metric.measured - metric.passed,
        infra=metric.skipped,
        blocked=verdict.failed and touchpoint.severity_on_fail == "block",
    )
    return measure_graduation(store, touchpoint.id, touchpoint.graduation, current=current)


def _watch(
    store: Store,
    project: Project,
    run_id: str,
    verdict: TouchpointVerdict,
    hashes: dict[str, str],
) -> str | None:
    """Count the run against an open watch after an auto-apply; a drop rolls it back."""
    from tracegrade.proposals import watch_run  # noqa: PLC0415 - it imports evals

    touchpoint = project.entry(verdict.touchpoint).touchpoint
    moved = watch_run(store, project, touchpoint, run_id, verdict=verdict, hashes=hashes)
    return None if moved is None else f"auto-apply watch {moved.status}: {moved.reason}"
