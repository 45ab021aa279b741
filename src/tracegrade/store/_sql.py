"""``SqlStore``: the store in SQLite or PostgreSQL through SQLAlchemy Core, and ``open_store``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from tracegrade.store import _problems
from tracegrade.store._browse import BrowseSql
from tracegrade.store._costs import SqlCosts
from tracegrade.store._intake import SqlIntake
from tracegrade.store._loop import SqlLoop
from tracegrade.store._records import (
    BaselineRecord,
    CaseKey,
    CaseResultRecord,
    JsonObject,
    Outcome,
    RunRecord,
    RunStatus,
    TouchpointVersionRecord,
    as_utc,
    build_baselines,
    utc_now,
    validated,
)
from tracegrade.store._rows import result_from_row, run_from_row
from tracegrade.store._schema import baselines, case_results, runs, touchpoint_versions
from tracegrade.store._shadow import SqlShadow
from tracegrade.store._sql_base import SqlBase, json_text
from tracegrade.store._url import DEFAULT_URL

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Sequence
    from datetime import datetime

_RESULT_KEY = ("run_id", "touchpoint", "case_id", "repeat")
_RESULT_COLUMNS = (*_RESULT_KEY, "outcome", "metric", "payload", "recorded_at")


# One statement whatever the batch size: the rows travel as one array per column. A
# multi-row VALUES list is a new, long statement for every batch, which psycopg re-parses
# each time (that parsing cost more than the insert itself).
_POSTGRESQL_INSERT_RESULTS = sa.text(
    """
    INSERT INTO case_results
        (run_id, touchpoint, case_id, repeat, outcome, metric, payload, recorded_at)
    SELECT run_id, touchpoint, case_id, repeat, outcome, metric, CAST(payload AS JSON),
        recorded_at
    FROM unnest(
        CAST(:run_id AS TEXT[]), CAST(:touchpoint AS TEXT[]), CAST(:case_id AS TEXT[]),
        CAST(:repeat AS INTEGER[]), CAST(:outcome AS TEXT[]),
        CAST(:metric AS DOUBLE PRECISION[]), CAST(:payload AS TEXT[]),
        CAST(:recorded_at AS TIMESTAMPTZ[])
    ) AS batch(run_id, touchpoint, case_id, repeat, outcome, metric, payload, recorded_at)
    ON CONFLICT (run_id, touchpoint, case_id, repeat) DO NOTHING
    RETURNING 1
    """
)


def _insert_results_postgresql(connection: sa.Connection, rows: list[dict[str, Any]]) -> int:
    """Insert validated result rows in one statement; how many were new (RETURNING counts)."""
    columns: dict[str, list[Any]] = {name: [] for name in _RESULT_COLUMNS}
    for row in rows:
        for name in _RESULT_COLUMNS:
            columns[name].append(row[name])
    columns["payload"] = [json_text(payload) for payload in columns["payload"]]
    return len(connection.execute(_POSTGRESQL_INSERT_RESULTS, columns).all())


# SQLite: one prepared statement run over every row (executemany), the new rows counted by
# the connection's change counter; a multi-row VALUES list with RETURNING, built and bound
# by SQLAlchemy for each batch, cost 13 µs a row against 10 µs.
_SQLITE_INSERT_RESULTS = """
    INSERT INTO case_results
        (run_id, touchpoint, case_id, repeat, outcome, metric, payload, recorded_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (run_id, touchpoint, case_id, repeat) DO NOTHING
"""


def _insert_results_sqlite(connection: sa.Connection, rows: list[dict[str, Any]]) -> int:
    """Insert validated result rows; how many were new (the rest were stored already)."""
    # Times as SQLAlchemy writes them for SQLite (its DATETIME text), so reads agree.
    column_type = case_results.c.recorded_at.type.dialect_impl(connection.dialect)
    processor = column_type.bind_processor(connection.dialect)
    stamp: Callable[[Any], Any] = processor if processor is not None else (lambda moment: moment)
    values = [
        (
            row["run_id"], row["touchpoint"], row["case_id"], row["repeat"], row["outcome"],
            row["metric"], json_text(row["payload"]), stamp(row["recorded_at"]),
        )
        for row in rows
    ]  # fmt: skip
    database: sqlite3.Connection = connection.connection.driver_connection  # type: ignore[assignment]
    before = database.total_changes
    connection.exec_driver_sql(_SQLITE_INSERT_RESULTS, values)
    return int(database.total_changes - before)


def _row_baseline(row: sa.Row[Any]) -> BaselineRecord:
    return BaselineRecord(
        touchpoint=row.touchpoint,
        run_id=row.run_id,
        metric=row.metric,
        promoted_at=as_utc(row.promoted_at),
        outcomes=row.outcomes,
    )


def _row_version(row: sa.Row[Any]) -> TouchpointVersionRecord:
    return TouchpointVersionRecord(
        touchpoint=row.touchpoint,
        version=row.version,
        registry_version=row.registry_version,
        hashes=row.hashes,
        recorded_at=as_utc(row.recorded_at),
        recorded_by=row.recorded_by,
    )


class SqlStore(SqlCosts, SqlIntake, BrowseSql, SqlLoop, SqlShadow, SqlBase):
    """A :class:`Store` in a SQLite file or a PostgreSQL database.

    Opening migrates the database to the newest schema. Each call runs in its own
    transaction; SQLite runs in WAL mode and writers wait up to 30 s for one another, so
    concurrent runners writing one file lose nothing.

    Args:
        url: ``sqlite:///PATH`` or ``postgresql+psycopg://USER@HOST:PORT/DB``
            (``postgresql://`` is read as psycopg 3). A SQLite file's folder is created.

    Raises:
        InputError: The URL is malformed or not SQLite or PostgreSQL.
        InfrastructureError: The database cannot be reached or migrated.
    """

    def start_run(self, run: RunRecord) -> None:
        """Store a new run; an existing ``run_id`` is an ``InputError``."""
        with self._write() as connection:
            if not self._insert_new(connection, runs, ["run_id"], validated(run).model_dump()):
                raise _problems.run_exists(run.run_id)

    def resume_run(self, run_id: str) -> RunRecord:
        """Mark a stored run ``running`` again (clearing ``finished_at``) and return it."""
        return self._update_run(run_id, {"status": "running", "finished_at": None})

    def _update_run(self, run_id: str, values: dict[str, Any]) -> RunRecord:
        with self._write() as connection:
            row = connection.execute(
                sa.update(runs).where(runs.c.run_id == run_id).values(**values).returning(runs)
            ).one_or_none()
            if row is None:
                raise _problems.unknown_run(run_id)
            return run_from_row(row)

    def add_case_result(self, result: CaseResultRecord) -> bool:
        """Store one case result; ``False`` (and the first one kept) when its key was stored."""
        with self._write() as connection:
            try:
                return self._insert_new(
                    connection, case_results, _RESULT_KEY, validated(result).model_dump()
                )
            except IntegrityError as exc:  # the only foreign key: the run
                raise _problems.unknown_run(result.run_id) from exc

    def add_case_results(self, results: Sequence[CaseResultRecord]) -> int:
        """Store case results in one transaction, skipping stored keys; how many were new.

        Duplicate keys within the batch are dropped here (the first kept); the rest go in
        with INSERT ... ON CONFLICT DO NOTHING, which skips those stored already.
        """
        unique: dict[tuple[str, CaseKey], dict[str, Any]] = {}
        for result in results:  # validated before the transaction: a bad one stores nothing
            unique.setdefault((result.run_id, result.key), validated(result).__dict__)
        if not unique:
            return 0
        rows = list(unique.values())
        run_ids = {row["run_id"] for row in rows}
        with self._write() as connection:
            known = set(
                connection.execute(
                    sa.select(runs.c.run_id).where(runs.c.run_id.in_(run_ids))
                ).scalars()
            )
            missing = sorted(run_ids - known)
            if missing:
                raise _problems.unknown_run(missing[0])
            if connection.dialect.name == "postgresql":
                return _insert_results_postgresql(connection, rows)
            return _insert_results_sqlite(connection, rows)

    def finished_cases(self, run_id: str) -> frozenset[CaseKey]:
        """The keys of every case result stored for the run."""
        columns = (case_results.c.touchpoint, case_results.c.case_id, case_results.c.repeat)
        with self._read() as connection:
            rows = connection.execute(sa.select(*columns).where(case_results.c.run_id == run_id))
            return frozenset(CaseKey(*row) for row in rows)

    def finish_run(
        self,
        run_id: str,
        *,
        status: Literal["finished", "killed"] = "finished",
        summary: JsonObject | None = None,
        finished_at: datetime | None = None,
    ) -> RunRecord:
        """Set the run's final status, summary (kept when ``None``) and end time; return it."""
        values: dict[str, Any] = {
            "status": status,
            "finished_at": as_utc(finished_at or utc_now()),
        }
        if summary is not None:
            values["summary"] = summary
        return self._update_run(run_id, values)

    def get_run(self, run_id: str) -> RunRecord | None:
        """The run, or ``None`` when no run has that id."""
        with self._read() as connection:
            row = connection.execute(sa.select(runs).where(runs.c.run_id == run_id)).one_or_none()
            return None if row is None else run_from_row(row)

    def list_runs(
        self, *, limit: int | None = None, offset: int = 0, status: RunStatus | None = None
    ) -> list[RunRecord]:
        """Runs newest start first: every one, or a page (``limit`` after ``offset``)."""
        query = sa.select(runs).order_by(runs.c.started_at.desc(), runs.c.run_id.desc())
        if status is not None:
            query = query.where(runs.c.status == status)
        query = query.offset(offset).limit(limit)
        with self._read() as connection:
            return [run_from_row(row) for row in connection.execute(query)]

    def case_results(self, run_id: str, touchpoint: str | None = None) -> list[CaseResultRecord]:
        """The run's case results (of one touchpoint if given), sorted by key."""
        query = sa.select(case_results).where(case_results.c.run_id == run_id)
        if touchpoint is not None:
            query = query.where(case_results.c.touchpoint == touchpoint)
        with self._read() as connection:
            results = [result_from_row(row) for row in connection.execute(query)]
        # Sorted in Python: SQL collations differ between SQLite and PostgreSQL.
        return sorted(results, key=lambda result: result.key)

    def outcomes_by_repeat(self, run_id: str, touchpoint: str) -> dict[tuple[int, Outcome], int]:
        """How many of the touchpoint's results in the run ended each way, per repeat."""
        column = case_results.c
        query = (
            sa.select(column.repeat, column.outcome, sa.func.count())
            .where(column.run_id == run_id, column.touchpoint == touchpoint)
            .group_by(column.repeat, column.outcome)
        )
        with self._read() as connection:
            return {
                (repeat, outcome): count for repeat, outcome, count in connection.execute(query)
            }

    def promote_baseline(
        self,
        run_id: str,
        touchpoint: str | None = None,
        *,
        promoted_at: datetime | None = None,
    ) -> list[BaselineRecord]:
        """Make a finished run the baseline of each of its touchpoints (or of one); atomic."""
        with self._write() as connection:
            row = connection.execute(sa.select(runs).where(runs.c.run_id == run_id)).one_or_none()
            if row is None:
                raise _problems.unknown_run(run_id)
            if row.status != "finished":
                raise _problems.not_finished(run_id, row.status)
            if row.lane == _problems.SHADOW_LANE:
                raise _problems.shadow_baseline(run_id)
            results = connection.execute(
                sa.select(case_results).where(case_results.c.run_id == run_id)
            )
            promoted = build_baselines(
                run_id,
                (result_from_row(result) for result in results),
                touchpoint=touchpoint,
                promoted_at=promoted_at or utc_now(),
            )
            if not promoted:
                raise _problems.nothing_to_promote(run_id, touchpoint)
            connection.execute(
                sa.insert(baselines), [baseline.model_dump() for baseline in promoted]
            )
            return promoted

    def baseline(self, touchpoint: str) -> BaselineRecord | None:
        """The touchpoint's current baseline (the newest promotion), or ``None``."""
        history = self._baselines(touchpoint, limit=1)
        return history[0] if history else None

    def baseline_history(self, touchpoint: str) -> list[BaselineRecord]:
        """Every baseline the touchpoint had, newest first."""
        return self._baselines(touchpoint, limit=None)

    def _baselines(self, touchpoint: str, *, limit: int | None) -> list[BaselineRecord]:
        query = (
            sa.select(baselines)
            .where(baselines.c.touchpoint == touchpoint)
            .order_by(baselines.c.promoted_at.desc(), baselines.c.id.desc())
            .limit(limit)
        )
        with self._read() as connection:
            return [_row_baseline(row) for row in connection.execute(query)]

    def record_touchpoint_version(self, version: TouchpointVersionRecord) -> bool:
        """Record a touchpoint version; ``False`` when that version was already recorded."""
        key = ["touchpoint", "version"]
        with self._write() as connection:
            if self._insert_new(
                connection, touchpoint_versions, key, validated(version).model_dump()
            ):
                return True
            hashes = connection.execute(
                sa.select(touchpoint_versions.c.hashes).where(
                    touchpoint_versions.c.touchpoint == version.touchpoint,
                    touchpoint_versions.c.version == version.version,
                )
            ).scalar_one()
            if hashes != version.hashes:
                raise _problems.hashes_changed(version.touchpoint, version.version)
            return False

    def touchpoint_versions(self, touchpoint: str) -> list[TouchpointVersionRecord]:
        """Every recorded version of the touchpoint, newest first."""
        query = (
            sa.select(touchpoint_versions)
            .where(touchpoint_versions.c.touchpoint == touchpoint)
            .order_by(touchpoint_versions.c.recorded_at.desc(), touchpoint_versions.c.id.desc())
        )
        with self._read() as connection:
            return [_row_version(row) for row in connection.execute(query)]


def open_store(url: str | None = None) -> SqlStore:
    """Open (creating and migrating as needed) the store at ``url``.

    Args:
        url: A SQLite or PostgreSQL URL; ``None`` means :data:`DEFAULT_URL`, the file
            ``.tracegrade/tracegrade.db`` under the working folder.

    Raises:
        InputError: The URL is malformed or its scheme is not SQLite or PostgreSQL (exit 2).
        InfrastructureError: The database is down or unreachable (exit 3); the message
            names the URL without its password.
    """
    return SqlStore(DEFAULT_URL if url is None else url)
