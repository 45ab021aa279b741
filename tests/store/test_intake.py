"""Received traces in the store: the same behaviour in memory, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from tracegrade.store import ReceivedTraceRecord, Store

T0 = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)


def received(
    trace_id: str,
    *,
    touchpoint: str | None = "refunds",
    minutes: int = 0,
    grade: dict[str, object] | None = None,
) -> ReceivedTraceRecord:
    return ReceivedTraceRecord.model_validate(
        {
            "trace_id": trace_id,
            "touchpoint": touchpoint,
            "source_format": "openinference",
            "trace": {"id": trace_id, "task": "q", "otlp": {"resourceSpans": []}},
            "grade": grade,
            "received_at": T0 + timedelta(minutes=minutes),
        }
    )


def test_a_received_trace_reads_back_equal(store: Store) -> None:
    record = received("a" * 32, grade={"answer": "ungraded", "figures": [{"raw": "45 days"}]})
    assert store.add_received_trace(record) is True
    assert store.get_received_trace("a" * 32) == record
    assert store.get_received_trace("b" * 32) is None


def test_a_trace_id_is_stored_once_and_the_first_kept(store: Store) -> None:
    first = received("a" * 32, touchpoint="refunds")
    assert store.add_received_trace(first) is True
    assert store.add_received_trace(received("a" * 32, touchpoint="other")) is False
    assert store.get_received_trace("a" * 32) == first


def test_an_update_replaces_the_stored_trace(store: Store) -> None:
    store.add_received_trace(received("a" * 32, touchpoint=None))
    merged = received("a" * 32, touchpoint="refunds", minutes=5, grade={"answer": "ungraded"})
    assert store.update_received_trace(merged) is True
    assert store.get_received_trace("a" * 32) == merged


def test_an_update_of_an_unknown_trace_stores_nothing(store: Store) -> None:
    assert store.update_received_trace(received("a" * 32)) is False
    assert store.get_received_trace("a" * 32) is None
    assert store.received_traces() == []


def test_received_traces_are_newest_first_by_touchpoint_and_limited(store: Store) -> None:
    store.add_received_trace(received("1" * 32, minutes=0))
    store.add_received_trace(received("2" * 32, minutes=2, touchpoint="search"))
    store.add_received_trace(received("3" * 32, minutes=1))
    store.add_received_trace(received("4" * 32, minutes=1))  # same time: stored later first
    ids = [record.trace_id[0] for record in store.received_traces()]
    assert ids == ["2", "4", "3", "1"]
    assert [r.trace_id[0] for r in store.received_traces("refunds")] == ["4", "3", "1"]
    assert [r.trace_id[0] for r in store.received_traces(limit=2)] == ["2", "4"]
    assert store.received_traces("nobody") == []


def test_an_update_moves_a_trace_to_the_front(store: Store) -> None:
    store.add_received_trace(received("1" * 32, minutes=0))
    store.add_received_trace(received("2" * 32, minutes=1))
    store.update_received_trace(received("1" * 32, minutes=2))
    assert [r.trace_id[0] for r in store.received_traces()] == ["1", "2"]


def test_times_come_back_in_utc(store: Store) -> None:
    eastern = timezone(timedelta(hours=-5))
    record = received("a" * 32).model_copy(update={"received_at": T0.astimezone(eastern)})
    store.add_received_trace(record)
    stored = store.get_received_trace("a" * 32)
    assert stored is not None
    assert stored.received_at == T0
    assert stored.received_at.tzinfo == UTC


def test_a_record_needs_a_trace_id_and_an_aware_time() -> None:
    with pytest.raises(ValidationError):
        received("")
    with pytest.raises(ValidationError):
        ReceivedTraceRecord(
            trace_id="a", source_format="otlp", trace={}, received_at=datetime(2026, 1, 1)
        )
