"""Traces received live (OTLP/HTTP): the record, the protocol part and its SQL.

A received trace is kept under its OTLP trace id. Its spans may arrive over several
export requests, so the receiver merges the new spans into the stored record in one
transaction (:meth:`ReceivedTraceStore.merge_received_trace`): merges of one trace id, from
any number of server processes, run one after another and none is lost.

Reading and grading a large trace takes seconds, too long to hold the write lock (SQLite
has one for the whole file). So the receiver does that work on a copy read before, and
:func:`swap_received_trace` writes the result only if the stored record is still that
copy, in a transaction that only compares and writes; otherwise it reads and grades again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa
from pydantic import Field

from tracegrade.store._records import (
    JsonObject,
    UtcDatetime,
    _Record,
    as_utc,
    utc_now,
    validated,
)
from tracegrade.store._schema import received_traces
from tracegrade.store._sql_base import SqlBase

if TYPE_CHECKING:
    from collections.abc import Callable

    Merge = Callable[["ReceivedTraceRecord | None"], "ReceivedTraceRecord"]
    """Makes the record to store from the one stored (``None`` when there is none)."""

__all__ = [
    "ReceivedTraceRecord",
    "ReceivedTraceStore",
    "SqlIntake",
    "merged",
    "swap_received_trace",
]

_MAX_LIMIT = 10_000  # the most records one received_traces call returns
# Held until the transaction ends; keyed by a 64-bit hash of the trace id.
_LOCK_TRACE_ID = sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:trace_id, 0))")


class ReceivedTraceRecord(_Record):
    """A trace an instrumented agent sent to the OTLP receiver, with its grade.

    Attributes:
        trace_id: The OTLP trace id (32 lower-case hex digits).
        touchpoint: The touchpoint the run belongs to, or ``None`` when none was named.
        source_format: The reader that normalised it (``openinference``, ``otel-genai``),
            or ``otlp`` when its spans could not be read as a run yet.
        trace: The normalised trace's JSON (a :class:`~tracegrade.traces.Trace` dump) and,
            under ``otlp``, the raw spans received so far (an OTLP JSON export), so spans
            that arrive later are merged and the whole set read again.
        grade: The deterministic grade's JSON; ``None`` when the trace could not be graded.
        received_at: When its spans last arrived.
    """

    trace_id: str = Field(min_length=1)
    touchpoint: str | None = None
    source_format: str = Field(min_length=1)
    trace: JsonObject
    grade: JsonObject | None = None
    received_at: UtcDatetime = Field(default_factory=utc_now)


class ReceivedTraceStore(Protocol):
    """The store's part for received traces (see :class:`ReceivedTraceRecord`)."""

    def merge_received_trace(self, trace_id: str, merge: Merge) -> tuple[ReceivedTraceRecord, bool]:
        """Store ``merge(stored)`` under ``trace_id``, stored being ``None`` the first time.

        The read, ``merge`` and the write are one transaction, and merges of one trace id
        run one after another, in this process or any other on the same store: none reads
        a record another is about to replace. Returns the record stored, and whether the
        trace was new.

        Raises:
            ValueError: ``merge`` returned a record under another trace id.
        """
        ...

    def received_traces(
        self, touchpoint: str | None = None, *, limit: int = 100
    ) -> list[ReceivedTraceRecord]:
        """The newest received traces (of one touchpoint if given), newest first."""
        ...

    def get_received_trace(self, trace_id: str) -> ReceivedTraceRecord | None:
        """The received trace with this id, or ``None``."""
        ...


def clamp_limit(limit: int) -> int:
    """A record count between 0 and the most one call returns."""
    return max(0, min(limit, _MAX_LIMIT))


def _row_record(row: sa.Row[Any]) -> ReceivedTraceRecord:
    return ReceivedTraceRecord(
        trace_id=row.trace_id,
        touchpoint=row.touchpoint,
        source_format=row.source_format,
        trace=row.trace,
        grade=row.grade,
        received_at=as_utc(row.received_at),
    )


def merged(trace_id: str, stored: ReceivedTraceRecord | None, merge: Merge) -> ReceivedTraceRecord:
    """``merge(stored)``, validated, checked to be under ``trace_id``."""
    record = validated(merge(stored))
    if record.trace_id != trace_id:
        msg = f"a merge of trace {trace_id} returned trace {record.trace_id}"
        raise ValueError(msg)
    return record


class _StaleCopyError(Exception):
    """The stored record is no longer the copy the new one was made from."""


def swap_received_trace(
    store: ReceivedTraceStore,
    record: ReceivedTraceRecord,
    *,
    expected: ReceivedTraceRecord | None,
) -> bool:
    """Store ``record`` if the stored one is still ``expected`` (``None``: there is none).

    One short transaction of :meth:`ReceivedTraceStore.merge_received_trace`: the stored
    record is read under the lock and compared, nothing else runs inside it. Returns
    whether ``record`` was stored; ``False`` (and nothing written) when another merge of the
    trace came first.
    """

    def swap(stored: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
        if stored != expected:
            raise _StaleCopyError
        return record

    try:
        store.merge_received_trace(record.trace_id, swap)
    except _StaleCopyError:
        return False
    return True


class SqlIntake(SqlBase):
    """Received traces in the ``received_traces`` table."""

    def merge_received_trace(self, trace_id: str, merge: Merge) -> tuple[ReceivedTraceRecord, bool]:
        """Store ``merge(stored)`` under ``trace_id`` in one transaction; it, and if it is new.

        SQLite: the transaction takes the write lock as it begins, so the read is of the
        latest record. PostgreSQL: a transaction lock on the trace id (an advisory lock)
        makes merges of one id wait for each other; other ids go on at once.
        """
        query = sa.select(received_traces).where(received_traces.c.trace_id == trace_id)
        with self._write() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(_LOCK_TRACE_ID, {"trace_id": trace_id})
            row = connection.execute(query).one_or_none()
            stored = None if row is None else _row_record(row)
            record = merged(trace_id, stored, merge)
            values = record.model_dump()
            if stored is None:
                connection.execute(sa.insert(received_traces).values(**values))
            else:
                del values["trace_id"]
                connection.execute(
                    sa.update(received_traces)
                    .where(received_traces.c.trace_id == trace_id)
                    .values(**values)
                )
            return record, stored is None

    def received_traces(
        self, touchpoint: str | None = None, *, limit: int = 100
    ) -> list[ReceivedTraceRecord]:
        """The newest received traces (of one touchpoint if given), newest first."""
        query = (
            sa.select(received_traces)
            .order_by(received_traces.c.received_at.desc(), received_traces.c.id.desc())
            .limit(clamp_limit(limit))
        )
        if touchpoint is not None:
            query = query.where(received_traces.c.touchpoint == touchpoint)
        with self._read() as connection:
            return [_row_record(row) for row in connection.execute(query)]

    def get_received_trace(self, trace_id: str) -> ReceivedTraceRecord | None:
        """The received trace with this id, or ``None``."""
        query = sa.select(received_traces).where(received_traces.c.trace_id == trace_id)
        with self._read() as connection:
            row = connection.execute(query).one_or_none()
            return None if row is None else _row_record(row)
