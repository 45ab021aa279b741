"""``SqlStore``: the store in SQLite or PostgreSQL through SQLAlchemy Core, and ``open_store``."""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError

from tracegrade.errors import InfrastructureError
from tracegrade.store import _problems
from tracegrade.store._migrate import WRITE, upgrade_to_head
from tracegrade.store._records import (
    BaselineRecord,
    CaseKey,
    CaseResultRecord,
    JsonObject,
    RunRecord,
    TouchpointVersionRecord,
    as_utc,
    build_baselines,
    utc_now,
    validated,
)
from tracegrade.store._schema import baselines, case_results, runs, touchpoint_versions
from tracegrade.store._url import DEFAULT_URL, display_url, parse_store_url

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from datetime import datetime

_BUSY_TIMEOUT_S = 30  # how long a SQLite writer waits for another writer's lock
_CONNECT_TIMEOUT_S = 10  # how long to wait for a PostgreSQL server
_RESULT_KEY = ("run_id", "touchpoint", "case_id", "repeat")
_INSERT_CHUNK = 5000  # rows per executemany call of a batch (all in one transaction)


def _enter_wal_mode(cursor: sqlite3.Cursor) -> None:
    """Switch the file to WAL (it stays so), retrying: the switch skips the busy timeout.

    When several processes open a new file at once, all but one get "database is locked"
    at once from ``PRAGMA journal_mode = WAL`` while the first converts the file.
    """
    deadline = time.monotonic() + _BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)
        else:
            return


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    engine = sa.create_engine(url, connect_args={"timeout": _BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:  # noqa: ANN401 (DB-API object)
        # Let SQLAlchemy emit BEGIN itself (pysqlite's implicit one skips DDL), so
        # migrations are transactional and writers take the lock up front.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_S * 1000}")
        _enter_wal_mode(cursor)
        cursor.execute("PRAGMA synchronous = NORMAL")  # durable against a killed process
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        # A writer that starts deferred and upgrades later gets SQLITE_BUSY without waiting.
        write = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _row_run(row: sa.Row[Any]) -> RunRecord:
    return RunRecord(
        run_id=row.run_id,
        started_at=as_utc(row.started_at),
        finished_at=None if row.finished_at is None else as_utc(row.finished_at),
        lane=row.lane,
        registry_version=row.registry_version,
        status=row.status,
        summary=row.summary,
    )


def _row_result(row: sa.Row[Any]) -> CaseResultRecord:
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
    )


class SqlStore:
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

    def __init__(self, url: str) -> None:
        self._url = parse_store_url(url)
        self.url = display_url(self._url)
        """The store's URL without its password."""
        with self._database_errors():
            if self._url.drivername == "sqlite":
                Path(self._url.database or "").parent.mkdir(parents=True, exist_ok=True)
                self._engine = _sqlite_engine(self._url)
            else:
                self._engine = sa.create_engine(
                    self._url,
                    pool_pre_ping=True,
                    connect_args={"connect_timeout": _CONNECT_TIMEOUT_S},
                )
            upgrade_to_head(self._engine)

    def __repr__(self) -> str:
        return f"SqlStore({self.url!r})"

    @contextmanager
    def _database_errors(self) -> Iterator[None]:
        try:
            yield
        except ImportError as exc:
            raise InfrastructureError(
                f"the store at {self.url} needs a driver that is not installed: {exc}",
                fix="install the PostgreSQL extra: pip install 'tracegrade[postgres]'",
            ) from exc
        except (DBAPIError, OSError) as exc:
            cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            raise InfrastructureError(
                f"cannot use the store at {self.url}: {cause[0] if cause else type(exc).__name__}",
                fix="check that the database is running and reachable, and the URL is right",
            ) from exc

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self._database_errors(), self._engine.connect() as connection:
            yield connection

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        with (
            self._database_errors(),
            self._engine.connect() as connection,
            connection.execution_options(**{WRITE: True}).begin(),
        ):
            yield connection

    def _insert_new(
        self, connection: sa.Connection, table: sa.Table, key: Sequence[str], values: dict[str, Any]
    ) -> bool:
        """Insert a row unless one with the same ``key`` columns exists; ``True`` if inserted.

        RETURNING tells whether a row went in: a driver's rowcount is not reliable here.
        """
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        statement = (
            dialect.insert(table)
            .values(**values)
            .on_conflict_do_nothing(index_elements=list(key))
            .returning(table.c[key[0]])
        )
        return connection.execute(statement).first() is not None

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
            return _row_run(row)

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
        as multi-row INSERT ... ON CONFLICT DO NOTHING, whose RETURNING rows count the new.
        """
        unique: dict[tuple[str, CaseKey], dict[str, Any]] = {}
        for result in results:  # validated before the transaction: a bad one stores nothing
            unique.setdefault((result.run_id, result.key), validated(result).model_dump())
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
            dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
            statement = (
                dialect.insert(case_results)
                .on_conflict_do_nothing(index_elements=list(_RESULT_KEY))
                .returning(case_results.c.run_id)
            )
            added = 0
            for start in range(0, len(rows), _INSERT_CHUNK):
                chunk = rows[start : start + _INSERT_CHUNK]
                added += len(connection.execute(statement, chunk).all())
            return added

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
            return None if row is None else _row_run(row)

    def list_runs(self) -> list[RunRecord]:
        """Every run, newest start first."""
        query = sa.select(runs).order_by(runs.c.started_at.desc(), runs.c.run_id.desc())
        with self._read() as connection:
            return [_row_run(row) for row in connection.execute(query)]

    def case_results(self, run_id: str, touchpoint: str | None = None) -> list[CaseResultRecord]:
        """The run's case results (of one touchpoint if given), sorted by key."""
        query = sa.select(case_results).where(case_results.c.run_id == run_id)
        if touchpoint is not None:
            query = query.where(case_results.c.touchpoint == touchpoint)
        with self._read() as connection:
            results = [_row_result(row) for row in connection.execute(query)]
        # Sorted in Python: SQL collations differ between SQLite and PostgreSQL.
        return sorted(results, key=lambda result: result.key)

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
            results = connection.execute(
                sa.select(case_results).where(case_results.c.run_id == run_id)
            )
            promoted = build_baselines(
                run_id,
                (_row_result(result) for result in results),
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

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()


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
