"""Traces received live (OTLP/HTTP): the record, the protocol part and its SQL.

A received trace is kept under its OTLP trace id. Its spans may arrive over several
export requests, so the receiver reads the stored record, merges the new spans in and
writes the record again (:meth:`ReceivedTraceStore.update_received_trace`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa
from pydantic import AwareDatetime, Field, field_validator

from tracegrade.store._records import JsonObject, _Record, as_utc, utc_now, validated
from tracegrade.store._schema import received_traces
from tracegrade.store._sql_base import SqlBase

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["ReceivedTraceRecord", "ReceivedTraceStore", "SqlIntake"]

_MAX_LIMIT = 10_000  # the most records one received_traces call returns


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
    received_at: AwareDatetime = Field(default_factory=utc_now)

    @field_validator("received_at")
    @classmethod
    def _in_utc(cls, value: datetime) -> datetime:
        return as_utc(value)


class ReceivedTraceStore(Protocol):
    """The store's part for received traces (see :class:`ReceivedTraceRecord`)."""

    def add_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Store a received trace; ``False`` (and nothing changed) when its id is stored."""
        ...

    def update_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Replace the stored trace with this id; ``False`` when no trace has that id."""
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


def _values(record: ReceivedTraceRecord) -> dict[str, Any]:
    return validated(record).model_dump()


class SqlIntake(SqlBase):
    """Received traces in the ``received_traces`` table."""

    def add_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Store a received trace; ``False`` (and nothing changed) when its id is stored."""
        with self._write() as connection:
            return self._insert_new(connection, received_traces, ["trace_id"], _values(record))

    def update_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Replace the stored trace with this id; ``False`` when no trace has that id."""
        values = _values(record)
        del values["trace_id"]
        statement = (
            sa.update(received_traces)
            .where(received_traces.c.trace_id == record.trace_id)
            .values(**values)
            .returning(received_traces.c.id)
        )
        with self._write() as connection:
            return connection.execute(statement).first() is not None

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
