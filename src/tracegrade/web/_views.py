"""Build the served models from the store and the project registry (read side)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal, cast

from tracegrade.errors import TracegradeError
from tracegrade.evals import file_hashes, measure_graduation
from tracegrade.proposals import find_patterns
from tracegrade.store._browse import history_points
from tracegrade.store._records import utc_now
from tracegrade.web._models import (
    CaseRow,
    CostRow,
    CostView,
    DayCost,
    PatternView,
    RunHeader,
    RunListItem,
    RunTouchpoint,
    RunView,
    TouchpointDetail,
    TouchpointSummary,
)

if TYPE_CHECKING:
    from datetime import datetime

    from tracegrade.evals import Project, Touchpoint
    from tracegrade.store import (
        Outcome,
        RollupKey,
        RunRecord,
        RunStatus,
        SignalRecord,
        Store,
        TouchpointRunPoint,
    )

__all__ = [
    "COST_WINDOW_DAYS",
    "Context",
    "cost_view",
    "run_list",
    "run_view",
    "touchpoint_detail",
    "touchpoint_ids",
    "touchpoint_summaries",
]

COST_WINDOW_DAYS = 30
SCANNED_RUNS = 200
"""The registry page reads each touchpoint's last result, trend and graduation from at most
this many newest finished runs: each run carries its whole report, so reading every run would
make the page slower with every run stored."""
_RUN_PAGE = 50
"""The window the registry's cost column covers, in days."""


@dataclass(frozen=True, slots=True)
class Context:
    """What every view reads: the store, and the project registry when one is served."""

    store: Store
    project: Project | None


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _report_items(run: RunRecord) -> list[dict[str, Any]]:
    items = _object(run.summary.get("report")).get("touchpoints")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _contracts(ctx: Context) -> dict[str, Touchpoint]:
    if ctx.project is None:
        return {}
    return {touchpoint.id: touchpoint for touchpoint in ctx.project.touchpoints}


def touchpoint_ids(ctx: Context) -> list[str]:
    """Every touchpoint: the registry's in order, then any only seen in stored runs."""
    ids = list(_contracts(ctx))
    for run in ctx.store.list_runs(limit=20):
        for item in _report_items(run):
            name = item.get("touchpoint")
            if isinstance(name, str) and name not in ids:
                ids.append(name)
    return ids


def _rollup(store: Store, by: RollupKey, **filters: Any) -> list[CostRow]:  # noqa: ANN401
    """A cost rollup as served rows."""
    return [
        CostRow.model_validate(row, from_attributes=True)
        for row in store.cost_rollup(by, **filters)
    ]


def _graduation(ctx: Context, contract: Touchpoint | None, touchpoint: str) -> str:
    """The graduation verdict over the touchpoint's latest finished runs, in one line."""
    policy = contract.graduation if contract is not None else None
    return measure_graduation(ctx.store, touchpoint, policy).reason


def _drift(
    ctx: Context, contract: Touchpoint, last: TouchpointRunPoint | None
) -> tuple[str, ...] | None:
    """Files whose hash differs from the baseline run's (else the latest run's) record."""
    if ctx.project is None:
        return None
    baseline = ctx.store.baseline(contract.id)
    recorded: dict[str, Any] | None = None
    if baseline is not None:
        run = ctx.store.get_run(baseline.run_id)
        for item in _report_items(run) if run is not None else []:
            if item.get("touchpoint") == contract.id:
                recorded = _object(item.get("files"))
    if recorded is None and last is not None:
        recorded = _object(last.report.get("files"))
    if recorded is None:
        return None
    try:
        now = file_hashes(contract, ctx.project.root)
    except TracegradeError:
        return tuple(sorted(contract.files))
    return tuple(
        sorted(name for name in set(now) | set(recorded) if now.get(name) != recorded.get(name))
    )


def _summary(
    ctx: Context, name: str, contract: Touchpoint | None, cost: dict[str, CostRow] | None
) -> TouchpointSummary:
    history = ctx.store.touchpoint_history(name, limit=1)
    last = history[0] if history else None
    versions = ctx.store.touchpoint_versions(name)
    report = last.report if last is not None else {}
    spent = cost.get(name) if cost is not None else None
    return TouchpointSummary(
        id=name,
        kind=contract.kind if contract else "?",
        owner=contract.owner if contract else "?",
        severity=contract.severity_on_fail if contract else str(report.get("severity", "?")),
        suite_kind=contract.suite_kind if contract else str(report.get("suite_kind", "?")),
        description=contract.description if contract else "",
        in_registry=contract is not None,
        registry_version=(
            versions[0].registry_version
            if versions
            else ctx.project.version
            if ctx.project
            else None
        ),
        version=versions[0].version if versions else None,
        last=last,
        drift=_drift(ctx, contract, last) if contract is not None else None,
        unprocessed_signals=len(ctx.store.signals(name, processed=False)),
        graduation=_graduation(ctx, contract, name),
        cost_usd=spent.cost_usd if spent else None,
        cost_calls=spent.calls if spent else 0,
        unpriced_calls=spent.unpriced_calls if spent else 0,
    )


def _window_start(days: int) -> datetime:
    return utc_now() - timedelta(days=days)


class _RunsOnce:
    """The store, with the runs read once per page instead of once per touchpoint.

    The registry and touchpoint pages ask each touchpoint's last verdict, trend, drift and
    graduation, all from the run summaries; reading the newest ``SCANNED_RUNS`` finished runs
    once keeps a page's cost flat in the touchpoint count and in the runs stored (a
    touchpoint absent from recent runs would otherwise make it read every run).
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._finished: list[RunRecord] = []  # the newest finished runs, read so far
        self._all_read = False

    def _finished_runs(self, count: int) -> list[RunRecord]:
        """The newest ``count`` finished runs (fewer if there are not so many), read once."""
        count = min(count, SCANNED_RUNS)
        while len(self._finished) < count and not self._all_read:
            want = max(count - len(self._finished), _RUN_PAGE)
            page = self._store.list_runs(limit=want, offset=len(self._finished), status="finished")
            self._finished += page
            self._all_read = len(page) < want
        return self._finished[:count]

    def list_runs(
        self, *, limit: int | None = None, offset: int = 0, status: RunStatus | None = None
    ) -> list[RunRecord]:
        if status != "finished":
            return self._store.list_runs(limit=limit, offset=offset, status=status)
        return self._finished_runs(offset + (SCANNED_RUNS if limit is None else limit))[offset:]

    def touchpoint_history(self, touchpoint: str, *, limit: int = 30) -> list[TouchpointRunPoint]:
        return history_points(self._finished_runs(SCANNED_RUNS), touchpoint, limit)

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - the store's own methods
        return getattr(self._store, name)


def touchpoint_summaries(ctx: Context) -> list[TouchpointSummary]:
    """The registry page: every touchpoint and how it stands."""
    ctx = Context(cast("Store", _RunsOnce(ctx.store)), ctx.project)
    rows = _rollup(ctx.store, "touchpoint", since=_window_start(COST_WINDOW_DAYS))
    cost = {row.key: row for row in rows}
    contracts = _contracts(ctx)
    return [_summary(ctx, name, contracts.get(name), cost) for name in touchpoint_ids(ctx)]


def _cost_by_day(ctx: Context, touchpoint: str) -> tuple[DayCost, ...]:
    days: dict[str, dict[str, float | None]] = {}
    for call in ctx.store.ai_calls(touchpoint=touchpoint, since=_window_start(90)):
        day = days.setdefault(call.recorded_at.date().isoformat(), {"agent": None, "judge": None})
        if call.cost_usd is not None:
            day[call.role] = (day[call.role] or 0.0) + call.cost_usd
    return tuple(
        DayCost(day=day, agent_usd=spent["agent"], judge_usd=spent["judge"])
        for day, spent in sorted(days.items())
    )


def _patterns(signals: list[SignalRecord]) -> tuple[PatternView, ...]:
    return tuple(
        PatternView.model_validate(dataclasses.asdict(pattern))
        for pattern in find_patterns(signals)
    )


def touchpoint_detail(ctx: Context, name: str) -> TouchpointDetail | None:
    """The touchpoint page, or ``None`` for an unknown touchpoint."""
    ctx = Context(cast("Store", _RunsOnce(ctx.store)), ctx.project)  # runs read once, bounded
    contracts = _contracts(ctx)
    if name not in contracts and name not in touchpoint_ids(ctx):
        return None
    store = ctx.store
    signals = store.signals(name)
    return TouchpointDetail(
        summary=_summary(ctx, name, contracts.get(name), None),
        baseline=store.baseline(name),
        history=tuple(store.touchpoint_history(name, limit=60)),
        cost_by_day=_cost_by_day(ctx, name),
        signals=tuple(signals),
        patterns=_patterns([signal for signal in signals if not signal.processed]),
        proposals=tuple(store.proposals(name)),
        versions=tuple(store.touchpoint_versions(name)),
        watches=tuple(store.watches(name)),
    )


def run_list(ctx: Context, limit: int = 200) -> list[RunListItem]:
    """The newest runs with each touchpoint's verdict status."""
    items = []
    for run in ctx.store.list_runs(limit=limit):
        report = _object(run.summary.get("report"))
        code = report.get("exit_code")
        statuses = {
            str(item.get("touchpoint")): str(_object(item.get("verdict")).get("status", "?"))
            for item in _report_items(run)
        }
        header = RunHeader.model_validate(run.model_dump(exclude={"summary"}))
        exit_code = code if isinstance(code, int) else None
        items.append(RunListItem(run=header, exit_code=exit_code, statuses=statuses))
    return items


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _reported_counts(metric: dict[str, Any]) -> dict[str, int] | None:
    """Outcome counts from a stored metric (passed, measured, errors, skipped)."""
    numbers = [metric.get(key) for key in ("passed", "measured", "errors", "skipped")]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None
    passed, measured, errors, skipped = (int(str(n)) for n in numbers)
    counts = {"error": errors, "failed": measured - passed - errors, "infra": skipped}
    counts["passed"] = passed
    return {outcome: count for outcome, count in sorted(counts.items()) if count > 0}


def _run_touchpoints(store: Store, run: RunRecord) -> tuple[RunTouchpoint, ...]:
    """Each touchpoint's verdict, and its outcome counts.

    The counts come from the stored report when the run has one (no scan of the run's
    results); otherwise the store counts them.
    """
    reported = {str(item.get("touchpoint")): item for item in _report_items(run)}
    from_report = {
        name: _reported_counts(_object(_object(item.get("verdict")).get("metric")))
        for name, item in reported.items()
    }
    known = {name: counts for name, counts in from_report.items() if counts is not None}
    counts = known if run.status == "finished" and len(known) == len(reported) and known else {}
    if not counts:
        counts = store.run_outcome_counts(run.run_id)
    rows = []
    for name in [*reported, *(name for name in counts if name not in reported)]:
        item = reported.get(name, {})
        verdict = _object(item.get("verdict"))
        rows.append(
            RunTouchpoint(
                touchpoint=name,
                severity=item.get("severity"),
                status=verdict.get("status"),
                failed=verdict.get("failed") is True,
                metric=_number(_object(verdict.get("metric")).get("value")),
                baseline=_number(verdict.get("baseline")),
                delta=_number(verdict.get("delta")),
                sentence=str(verdict.get("sentence", "")),
                outcomes=counts.get(name, {}),
            )
        )
    return tuple(rows)


def _changed(outcome: str, before: str | None) -> Literal["better", "worse", "same"] | None:
    if before is None:
        return None
    now, then = outcome == "passed", before == "passed"
    return "same" if now == then else "better" if now else "worse"


def run_view(
    ctx: Context,
    run_id: str,
    *,
    offset: int = 0,
    limit: int = 50,
    outcome: Outcome | None = None,
    touchpoint: str | None = None,
) -> RunView | None:
    """The run page, or ``None`` for an unknown run."""
    store = ctx.store
    run = store.get_run(run_id)
    if run is None:
        return None
    page = store.case_result_page(
        run_id, touchpoint=touchpoint, outcome=outcome, offset=offset, limit=limit
    )
    baselines: dict[str, dict[str, list[Any]]] = {}
    cases = []
    for row in page.rows:
        result = row.result
        if result.touchpoint not in baselines:
            baseline = store.baseline(result.touchpoint)
            usable = baseline is not None and baseline.run_id != run_id
            baselines[result.touchpoint] = (
                {case: list(each) for case, each in baseline.outcomes.items()}
                if usable and baseline is not None
                else {}
            )
        before_all = baselines[result.touchpoint].get(result.case_id, [])
        before = before_all[result.repeat] if result.repeat < len(before_all) else None
        detail = result.payload.get("detail")
        cases.append(
            CaseRow(
                id=row.id,
                touchpoint=result.touchpoint,
                case_id=result.case_id,
                repeat=result.repeat,
                outcome=result.outcome,
                metric=result.metric,
                diagnosis=detail if isinstance(detail, str) else "",
                baseline_outcome=before,
                changed=_changed(result.outcome, before),
            )
        )
    cost = _rollup(store, "model", run_id=run_id)  # of this run
    return RunView(
        run=run,
        touchpoints=_run_touchpoints(store, run),
        cases=tuple(cases),
        total=page.total,
        offset=page.offset,
        limit=page.limit,
        outcome=outcome,
        touchpoint=touchpoint,
        cost=tuple(cost),
    )


def cost_view(ctx: Context, days: int | None = None) -> CostView:
    """The cost page: rollups by touchpoint, model, day and role (all time by default)."""
    since = _window_start(days) if days else None
    parts: dict[RollupKey, list[CostRow]] = {
        by: _rollup(ctx.store, by, since=since) for by in ("touchpoint", "model", "day", "role")
    }
    return CostView(
        since=since.date().isoformat() if since else None,
        by_touchpoint=tuple(parts["touchpoint"]),
        by_model=tuple(parts["model"]),
        by_day=tuple(parts["day"]),
        by_role=tuple(parts["role"]),
    )
