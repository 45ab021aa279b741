"""``InMemoryStore``: the SQL store on a SQLite database in memory, gone with the process."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import sqlalchemy as sa

from tracegrade.errors import InputError
from tracegrade.store._sql import SqlStore

if TYPE_CHECKING:
    from collections.abc import Iterator

_MEMORY_URL = sa.make_url("sqlite://")


class InMemoryStore(SqlStore):
    """A :class:`Store` in a SQLite database in memory: the SQL store's own code, no file.

    Its one connection is kept open for the store's life (the database lives as long as
    it does) and migrated as a file is; threads take turns on it, one call at a time.
    Closing it drops what it held: a call after :meth:`close` is an ``InputError``. It
    cannot be sent to other processes (pickling it is a ``TypeError``); the runner's
    process pool and Ray workers never need the store, as the driver stores their results.

    Use it in tests of code that writes results, and wherever nothing needs to outlive
    the process.
    """

    def __init__(self) -> None:
        self._turn = threading.RLock()
        self._closed = False
        self._open(_MEMORY_URL)

    @contextmanager
    def _alone(self) -> Iterator[None]:
        """This thread's turn on the one connection, once the store is known to be open."""
        with self._turn:
            if self._closed:
                raise InputError(
                    "the in-memory store was closed, and what it held went with it",
                    fix="close an InMemoryStore only when done with it, or open a SQLite file"
                    " store (open_store) for results that must outlive it",
                )
            yield

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self._alone(), super()._read() as connection:
            yield connection

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        with self._alone(), super()._write() as connection:
            yield connection

    def close(self) -> None:
        """Drop the database and its connection; calls after this are an ``InputError``."""
        with self._turn:
            self._closed = True
            self._engine.dispose()

    def __reduce__(self) -> NoReturn:
        msg = (
            "an InMemoryStore cannot be sent to another process (its database lives in this"
            " one); give workers a SQLite file or PostgreSQL store URL instead"
        )
        raise TypeError(msg)
