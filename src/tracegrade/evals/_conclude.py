"""The one ending of every run: each touchpoint judged against its baseline, the run finished.

Whoever stored a run's case results (:func:`~tracegrade.evals.run_evals`, or a pytest session
through :func:`~tracegrade.evals.record_outcomes`) concludes it here: the verdict per
touchpoint, its version and file hashes recorded, the improvement loop fed (signals,
graduation, the watch after an auto-apply), the costs added up and the report stored as the
run's summary.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from tracegrade.cost import cost_breakdown
from tracegrade.evals._drift import drift
from tracegrade.evals._graduation import Graduation, RunTally, measure_graduation
from tracegrade.evals._judge import TouchpointVerdict, exit_code, judge
from tracegrade.evals._load import file_hashes
from tracegrade.evals._metric import metric_for, spread
from tracegrade.evals._run_report import RunReport, TouchpointReport
from tracegrade.store import AiCallRecord, Outcome, TouchpointVersionRecord

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.evals._contract import Lane, Touchpoint
    from tracegrade.evals._load import Project
    from tracegrade.evals._registry import TouchpointEntry
    from tracegrade.store import JsonObject, Store

__all__ = ["conclude_run"]


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


def _version(touchpoint: Touchpoint, hashes: dict[str, str]) -> str:
    text = json.dumps(
        {"contract": touchpoint.model_dump(mode="json"), "files": hashes}, sort_keys=True
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
