"""The watch after an auto-apply: the next runs must hold the level measured before the change.

``apply --auto`` (no person at the keyboard) starts a watch (:func:`start_watch`). Each
finished run of the touchpoint then calls :func:`watch_run` (the runner does): a run of the
applied version whose metric fell below the watch's reference (the shadow run's base) by
more than ``baseline.max_drop + variance_band`` rolls the touchpoint back to the version
before the change, records who did it (:data:`WATCHER` and the run), closes the watch and
records an ``auto_rollback`` signal. After ``runs_to_watch`` runs that held, the change is
kept. A run of files changed by hand since the apply ends the watch: nothing is rolled back
over a person's edit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals import file_hashes
from tracegrade.proposals._signals import record_signal
from tracegrade.proposals._versions import content_version, record_state, rollback
from tracegrade.store import WatchRecord

if TYPE_CHECKING:
    from tracegrade.evals import Project, ShadowComparison, Touchpoint, TouchpointVerdict
    from tracegrade.store import ProposalRecord, Store

__all__ = ["DEFAULT_WATCH_RUNS", "WATCHER", "start_watch", "watch_run"]

DEFAULT_WATCH_RUNS = 3
"""Runs watched after an auto-apply unless told (``apply --auto --watch K``)."""
WATCHER = "tracegrade auto-apply watch"
"""Who a rollback by the watch is recorded as (with the run that dropped)."""

_EPSILON = 1e-9  # as the judge: 0.90 - 0.83 is not more than 0.05 + 0.02


def _f(value: float) -> str:
    return f"{value:.3f}"


def current_version(store: Store, project: Project, touchpoint: Touchpoint, *, by: str) -> str:
    """The recorded version the touchpoint's files are in now (recorded first if need be)."""
    hashes = file_hashes(touchpoint, project.root)
    for record in store.touchpoint_versions(touchpoint.id):
        if record.hashes == hashes and record.version.startswith(
            content_version(touchpoint, hashes)
        ):
            return record.version
    return record_state(store, project, touchpoint, by=by)


def start_watch(
    store: Store,
    touchpoint: Touchpoint,
    proposal: ProposalRecord,
    trial: ShadowComparison,
    *,
    prior_version: str,
    runs: int,
) -> WatchRecord:
    """Watch the next ``runs`` runs of an auto-applied proposal."""
    record = WatchRecord(
        proposal_id=proposal.id or 0,
        touchpoint=touchpoint.id,
        prior_version=prior_version,
        applied_version=proposal.applied_version or "",
        reference=trial.before,
        allowed_drop=touchpoint.baseline.max_drop + touchpoint.variance_band,
        runs_to_watch=runs,
        reason=f"watching the next {runs} runs against {_f(trial.before or 0)}",
    )
    return record.model_copy(update={"id": store.add_watch(record)})


def watch_run(
    store: Store,
    project: Project,
    touchpoint: Touchpoint,
    run_id: str,
    *,
    verdict: TouchpointVerdict,
    hashes: dict[str, str],
) -> WatchRecord | None:
    """Count a finished run against the touchpoint's open watch; roll back on a drop.

    Args:
        store: Where the watch, versions and signals are.
        project: The loaded project (a rollback writes its files).
        touchpoint: The touchpoint the run measured.
        run_id: The run.
        verdict: What the run concluded for the touchpoint.
        hashes: The file hashes the run measured.

    Returns:
        The watch after this run, or ``None`` when no watch is open (or the run changes
        nothing: measured nothing, or counted already).
    """
    open_ = store.watches(touchpoint.id, status="watching")
    if not open_:
        return None
    watch = open_[0]
    value = verdict.metric.value
    if watch.id is None or run_id in watch.runs or value is None:
        return None
    runs = [*watch.runs, run_id]
    applied = next(
        (v for v in store.touchpoint_versions(touchpoint.id) if v.version == watch.applied_version),
        None,
    )
    if applied is None or applied.hashes != hashes:
        return store.update_watch(
            watch.id,
            runs=runs,
            status="kept",
            reason=f"run {run_id} measured files changed since the auto-apply; watch ended",
        )
    reference = watch.reference
    drop = None if reference is None else reference - value
    if drop is not None and reference is not None and drop > watch.allowed_drop + _EPSILON:
        return _roll_back(
            store, project, watch, run_id, measured=(value, reference, drop), runs=runs
        )
    if len(runs) >= watch.runs_to_watch:
        return store.update_watch(
            watch.id,
            runs=runs,
            status="kept",
            reason=f"{len(runs)} runs held within {_f(watch.allowed_drop)} of {_f(reference or 0)}",
        )
    return store.update_watch(
        watch.id,
        runs=runs,
        status="watching",
        reason=f"{len(runs)} of {watch.runs_to_watch} runs held so far",
    )


def _roll_back(
    store: Store,
    project: Project,
    watch: WatchRecord,
    run_id: str,
    *,
    measured: tuple[float, float, float],
    runs: list[str],
) -> WatchRecord:
    value, reference, drop = measured
    by = f"{WATCHER} (run {run_id})"
    dropped = (
        f"run {run_id} measured {_f(value)}, {_f(drop)} below {_f(reference)} from before"
        f" the change, more than max_drop + band = {_f(watch.allowed_drop)}"
    )
    try:
        done = rollback(store, project, watch.touchpoint, watch.prior_version, by=by)
    except InputError as exc:  # the run still concludes; people are told, the watch goes on
        reason = f"{dropped}, but rolling back to {watch.prior_version} failed: {exc}"
        _signal(store, watch, run_id, measured, reason, rule="auto-apply-rollback-failed")
        return store.update_watch(watch.id or 0, runs=runs, status="watching", reason=reason)
    reason = f"{dropped}: rolled back to {watch.prior_version}"
    _signal(store, watch, run_id, measured, reason, rule="auto-apply-rollback")
    return store.update_watch(
        watch.id or 0,
        runs=runs,
        status="rolled_back",
        reason=reason,
        rolled_back_to=done.version,
        rolled_back_by=by,
    )


def _signal(
    store: Store,
    watch: WatchRecord,
    run_id: str,
    measured: tuple[float, float, float],
    reason: str,
    *,
    rule: str,
) -> None:
    value, reference, drop = measured
    record_signal(
        store,
        watch.touchpoint,
        "auto_rollback",
        {
            "rule": rule,
            "proposal": watch.proposal_id,
            "run": run_id,
            "metric": value,
            "reference": reference,
            "drop": drop,
            "allowed_drop": watch.allowed_drop,
            "restored": watch.prior_version,
            "detail": reason,
        },
        run_id=run_id,
    )
