"""Rows of the core tables as records: one reading of a run row and a case-result row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.store._records import CaseResultRecord, RunRecord, as_utc

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["result_from_row", "run_from_row"]


def run_from_row(row: sa.Row[Any]) -> RunRecord:
    """A ``runs`` row as a :class:`RunRecord` (times in UTC: SQLite hands back naive ones)."""
    return RunRecord(
        run_id=row.run_id,
        started_at=as_utc(row.started_at),
        finished_at=None if row.finished_at is None else as_utc(row.finished_at),
        lane=row.lane,
        registry_version=row.registry_version,
        status=row.status,
        summary=row.summary,
    )


def result_from_row(row: sa.Row[Any]) -> CaseResultRecord:
    """A ``case_results`` row as a :class:`CaseResultRecord`."""
    return CaseResultRecord(
        run_id=row.run_id,
        touchpoint=row.touchpoint,
        case_id=row.case_id,
        repeat=row.repeat,
        outcome=row.outcome,
        metric=row.metric,
        payload=row.payload,
        recorded_at=as_utc(row.recorded_at),
    )
