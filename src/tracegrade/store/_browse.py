"""Read models the results UI needs, and their SQL queries (``BrowseSql``).

Paged case results with their row id, one result by id, per-run outcome counts and a
touchpoint's metric per run.

Every query here is an indexed one: case results are read by run (the unique key's
``run_id`` prefix) or by primary key, and a touchpoint's history comes from the run
summaries (one row per run), so the registry and run pages stay fast with many results.
"""

from __future__ import annotations

from typing import Any, Protocol

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field

from tracegrade.store._records import CaseResultRecord, Outcome, RunRecord, UtcDatetime
from tracegrade.store._rows import result_from_row, run_from_row
from tracegrade.store._schema import case_results, runs
from tracegrade.store._sql_base import SqlBase

__all__ = [
    "BrowseSql",
    "BrowseStore",
    "CaseResultPage",
    "CaseResultRow",
    "TouchpointRunPoint",
    "history_points",
]

PAGE_LIMIT_MAX = 500  # the most case results one page holds


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CaseResultRow(_Frozen):
    """A stored case result with its row id (what ``/cases/{id}`` names).

    Attributes:
        id: The row id, unique in the store.
        result: The case result.
    """

    id: int
    result: CaseResultRecord


class CaseResultPage(_Frozen):
    """One page of a run's case results, sorted by key (touchpoint, case, repeat).

    Sorted in the database's collation (PostgreSQL's may differ from plain code-point
    order for punctuation and case).

    Attributes:
        run_id: The run.
        total: How many results match (all pages).
        offset: How many matching results come before this page.
        limit: The page size asked for.
        rows: This page's results.
    """

    run_id: str
    total: int
    offset: int
    limit: int
    rows: tuple[CaseResultRow, ...]


class TouchpointRunPoint(_Frozen):
    """A touchpoint's verdict in one finished run, read from the run's stored report.

    Attributes:
        run_id: The run.
        started_at: When it started.
        lane: Its lane.
        status: The verdict's status (``held``, ``failed-min``, ...).
        failed: Whether the verdict failed.
        metric: The touchpoint's metric in the run; ``None`` when nothing was measured.
        baseline: The baseline metric it was judged against, if any.
        delta: Metric minus baseline, if both are known.
        band_low: Lower end of the repeats' spread (variance band), if repeated.
        band_high: Upper end of the repeats' spread, if repeated.
        report: The touchpoint's whole report from the run summary, as stored.
    """

    run_id: str
    started_at: UtcDatetime
    lane: str
    status: str
    failed: bool
    metric: float | None
    baseline: float | None
    delta: float | None
    band_low: float | None = None
    band_high: float | None = None
    report: dict[str, Any] = Field(default_factory=dict)


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _point(run: RunRecord, item: dict[str, Any]) -> TouchpointRunPoint:
    verdict = _object(item.get("verdict"))
    metric = _object(verdict.get("metric"))
    spread = _object(verdict.get("spread"))
    return TouchpointRunPoint(
        run_id=run.run_id,
        started_at=run.started_at,
        lane=run.lane,
        status=str(verdict.get("status", "unknown")),
        failed=verdict.get("failed") is True,
        metric=_number(metric.get("value")),
        baseline=_number(verdict.get("baseline")),
        delta=_number(verdict.get("delta")),
        band_low=_number(spread.get("low")),
        band_high=_number(spread.get("high")),
        report=item,
    )


def history_points(
    runs_newest_first: list[RunRecord], touchpoint: str, limit: int
) -> list[TouchpointRunPoint]:
    """The touchpoint's points from finished runs' reports, newest first, at most ``limit``."""
    points: list[TouchpointRunPoint] = []
    for run in runs_newest_first:
        report = run.summary.get("report")
        items = report.get("touchpoints") if isinstance(report, dict) else None
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and item.get("touchpoint") == touchpoint:
                points.append(_point(run, item))
                break
        if len(points) >= limit:
            break
    return points


class BrowseStore(Protocol):
    """What the results UI reads beyond the core store: rows with ids, pages, histories."""

    def case_result_page(
        self,
        run_id: str,
        *,
        touchpoint: str | None = None,
        outcome: Outcome | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> CaseResultPage:
        """A page of the run's case results (of one touchpoint, one outcome), by key."""
        ...

    def get_case_result(self, result_id: int) -> CaseResultRow | None:
        """The case result with this row id, or ``None``."""
        ...

    def run_outcome_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Per touchpoint of the run, how many results had each outcome."""
        ...

    def touchpoint_history(self, touchpoint: str, *, limit: int = 30) -> list[TouchpointRunPoint]:
        """The touchpoint's verdict in each finished run that judged it, newest first."""
        ...


def _row(row: sa.Row[Any]) -> CaseResultRow:
    return CaseResultRow(
        id=row.id,
        result=result_from_row(row),
    )


def _bounded(offset: int, limit: int) -> tuple[int, int]:
    """A page's offset (0 or more) and size (1 to ``PAGE_LIMIT_MAX``)."""
    return max(offset, 0), min(max(limit, 1), PAGE_LIMIT_MAX)


class BrowseSql(SqlBase):
    """The SQL store's browse queries (see :class:`BrowseStore`)."""

    def case_result_page(
        self,
        run_id: str,
        *,
        touchpoint: str | None = None,
        outcome: Outcome | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> CaseResultPage:
        """A page of the run's case results (of one touchpoint, one outcome), by key."""
        offset, limit = _bounded(offset, limit)
        where = [case_results.c.run_id == run_id]
        if touchpoint is not None:
            where.append(case_results.c.touchpoint == touchpoint)
        if outcome is not None:
            where.append(case_results.c.outcome == outcome)
        # The page's ids come from the unique key's index alone (it holds the row id), in
        # key order, so a deep page skips index entries, not rows; then the rows by id.
        ids_query = (
            sa.select(case_results.c.id)
            .where(*where)
            .order_by(case_results.c.touchpoint, case_results.c.case_id, case_results.c.repeat)
            .offset(offset)
            .limit(limit)
        )
        count_query = sa.select(sa.func.count()).select_from(case_results).where(*where)
        with self._read() as connection:
            total = connection.execute(count_query).scalar_one()
            ids = list(connection.execute(ids_query).scalars())
            found = {
                row.id: _row(row)
                for row in connection.execute(
                    sa.select(case_results).where(case_results.c.id.in_(ids))
                )
            }
        rows = tuple(found[number] for number in ids if number in found)
        return CaseResultPage(run_id=run_id, total=total, offset=offset, limit=limit, rows=rows)

    def get_case_result(self, result_id: int) -> CaseResultRow | None:
        """The case result with this row id, or ``None``."""
        query = sa.select(case_results).where(case_results.c.id == result_id)
        with self._read() as connection:
            row = connection.execute(query).one_or_none()
        return None if row is None else _row(row)

    def run_outcome_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Per touchpoint of the run, how many results had each outcome."""
        query = (
            sa.select(case_results.c.touchpoint, case_results.c.outcome, sa.func.count())
            .where(case_results.c.run_id == run_id)
            .group_by(case_results.c.touchpoint, case_results.c.outcome)
        )
        counts: dict[str, dict[str, int]] = {}
        with self._read() as connection:
            for name, outcome, count in connection.execute(query):
                counts.setdefault(name, {})[outcome] = count
        return {name: dict(sorted(counts[name].items())) for name in sorted(counts)}

    def touchpoint_history(self, touchpoint: str, *, limit: int = 30) -> list[TouchpointRunPoint]:
        """The touchpoint's verdict in each finished run that judged it, newest first."""
        query = (
            sa.select(runs)
            .where(runs.c.status == "finished")
            .order_by(runs.c.started_at.desc(), runs.c.run_id.desc())
        )
        found: list[TouchpointRunPoint] = []
        with self._read() as connection:
            for row in connection.execute(query):
                found.extend(history_points([run_from_row(row)], touchpoint, 1))
                if len(found) >= limit:
                    break
        return found
