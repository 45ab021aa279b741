"""Case outcomes that ran outside the runner (a pytest session) stored as one judged run.

A pytest session marked with ``@pytest.mark.tracegrade(touchpoint=...)`` already ran its
cases; :func:`record_outcomes` stores them as the case results of their touchpoints, in one
run, and ends that run the way :func:`~tracegrade.evals.run_evals` ends its own
(:func:`~tracegrade.evals._conclude.conclude_run`): each touchpoint judged against its stored
baseline, its version and file hashes recorded, the report kept as the run's summary. So
``tracegrade baseline promote RUN`` and ``tracegrade run --compare`` treat it like any run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals._conclude import conclude_run
from tracegrade.evals._run_report import case_metric, new_run_id
from tracegrade.store import CaseResultRecord, RunRecord

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tracegrade.evals._contract import Lane
    from tracegrade.evals._load import Project
    from tracegrade.evals._outcomes import CaseOutcome
    from tracegrade.evals._run_report import RunReport
    from tracegrade.store import JsonObject, Store

__all__ = ["record_outcomes"]


def record_outcomes(
    project: Project,
    store: Store,
    outcomes: Mapping[str, Sequence[CaseOutcome]],
    *,
    lane: Lane = "pr",
    run_id: str | None = None,
    source: str = "pytest",
) -> RunReport:
    """Store case outcomes of touchpoints as one run, and judge each touchpoint.

    Args:
        project: The registry the touchpoints belong to.
        store: Where the run, its case results and the baselines live.
        outcomes: Each touchpoint's case outcomes (one per case and repeat).
        lane: The lane the run is recorded in.
        run_id: The run's id (default: a timestamp and a random suffix).
        source: What ran the cases, kept in the run's plan (``pytest``).

    Raises:
        ProjectError: A touchpoint is not in the registry (before anything is written).
        InputError: No outcome at all, or one case twice in the same repeat.
        InfrastructureError: The store failed.
    """
    entries = tuple(project.entry(touchpoint) for touchpoint in outcomes)
    if not any(outcomes.values()):
        raise InputError(
            "there are no case outcomes to record",
            fix="mark at least one test that runs with @pytest.mark.tracegrade(touchpoint=...)",
        )
    records: list[CaseResultRecord] = []
    current = run_id or new_run_id()
    seen: set[tuple[str, str, int]] = set()
    for touchpoint, cases in outcomes.items():
        for outcome in cases:
            key = (touchpoint, outcome.case, outcome.repeat)
            if key in seen:
                raise InputError(
                    f"case {outcome.case!r} of touchpoint {touchpoint!r} appears twice in"
                    f" repeat {outcome.repeat}",
                    fix="give each case its own id",
                )
            seen.add(key)
            records.append(
                CaseResultRecord(
                    run_id=current,
                    touchpoint=touchpoint,
                    case_id=outcome.case,
                    repeat=outcome.repeat,
                    outcome=outcome.outcome,
                    metric=case_metric(outcome.outcome),
                    payload={"detail": outcome.detail, "source": source},
                )
            )
    plan: JsonObject = {"touchpoints": list(outcomes), "source": source}
    store.start_run(
        RunRecord(
            run_id=current, lane=lane, registry_version=project.version, summary={"plan": plan}
        )
    )
    try:
        store.add_case_results(records)
    except BaseException:
        store.finish_run(current, status="killed")
        raise
    return conclude_run(project, store, entries, current, lane, plan=plan, units=len(records))
