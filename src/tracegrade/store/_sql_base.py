"""``SqlBase``: the engine, transactions and error translation every SQL store part shares.

``SqlStore`` is assembled from parts, one per concern (runs and results, costs, the
improvement loop, browsing), each a subclass of this base in its own module.
"""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

from tracegrade.errors import InfrastructureError, InputError, MissingExtraError
from tracegrade.store._migrate import WRITE, upgrade_to_head
from tracegrade.store._url import display_url, in_memory, parse_store_url

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["SqlBase", "json_text"]

_BUSY_TIMEOUT_S = 30  # how long a SQLite writer waits for another writer's lock
_CONNECT_TIMEOUT_S = 10  # how long to wait for a PostgreSQL server


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


def json_text(value: object) -> str:
    """JSON columns' text: orjson, or the standard library for what orjson refuses.

    Records hold JSON values only (validated on the way in); orjson refuses integers beyond
    64 bits, which JSON and the standard library allow.
    """
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    memory = in_memory(url)
    engine = sa.create_engine(
        url,
        # In memory the database lives as long as its connection: one is kept for the
        # store's life and shared by every thread (the store makes them take turns).
        poolclass=StaticPool if memory else None,
        connect_args={"check_same_thread": False} if memory else {"timeout": _BUSY_TIMEOUT_S},
        json_serializer=json_text,
        json_deserializer=orjson.loads,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:  # noqa: ANN401 (DB-API object)
        # Let SQLAlchemy emit BEGIN itself (pysqlite's implicit one skips DDL), so
        # migrations are transactional and writers take the lock up front.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not memory:  # a file shared with other processes
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


_DEFAULT_FOLDER = ".tracegrade"  # the default store's folder (DEFAULT_URL), made when missing


def _store_folder(file: Path, url: str) -> None:
    """Make the store file's folder when it is the default's ``.tracegrade``, and only then.

    Any other missing folder is an error: a URL with a typo must not scatter folders (and an
    empty store) wherever it points.

    Raises:
        InputError: The folder does not exist and is not a ``.tracegrade`` folder of an
            existing one.
    """
    folder = file.parent
    if folder.is_dir():
        return
    if folder.name == _DEFAULT_FOLDER and folder.parent.is_dir():
        folder.mkdir(exist_ok=True)
        return
    raise InputError(
        f"the store URL {url!r} names a file in {folder}, which does not exist",
        fix="create the folder first, or fix the path (a typo?); only a missing .tracegrade"
        " folder is made for you",
    )


class SqlBase:
    """The connection a SQL store is built on: engine, transactions, error translation.

    See :class:`~tracegrade.store.SqlStore` for the URL, the migration on opening and the
    errors.
    """

    def __init__(self, url: str) -> None:
        self._open(parse_store_url(url))

    def _open(self, url: sa.URL) -> None:
        """Make the engine for a parsed URL and migrate the database to the newest schema."""
        self._url = url
        self.url = display_url(self._url)
        """The store's URL without its password."""
        with self._database_errors():
            if self._url.drivername == "sqlite":
                if not in_memory(self._url):
                    _store_folder(Path(self._url.database or ""), self.url)
                self._engine = _sqlite_engine(self._url)
            else:
                self._engine = sa.create_engine(
                    self._url,
                    pool_pre_ping=True,
                    json_serializer=json_text,
                    json_deserializer=orjson.loads,  # ~3x the stdlib on stored summaries
                    connect_args={"connect_timeout": _CONNECT_TIMEOUT_S},
                )
            upgrade_to_head(self._engine)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"

    @contextmanager
    def _database_errors(self) -> Iterator[None]:
        try:
            yield
        except ImportError as exc:
            # A missing driver is the postgres extra not installed: bad setup (exit 2), named.
            raise MissingExtraError(
                f"the store at {self.url} needs the postgres extra ({exc.name or exc} is not"
                " installed)",
                extra="postgres",
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

    def close(self) -> None:
        """Close every pooled connection."""
        self._engine.dispose()
