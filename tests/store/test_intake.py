"""Received traces in the store: the same behaviour on SQLite in memory or file and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from tracegrade.store import ReceivedTraceRecord, Store, swap_received_trace

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


def put(store: Store, record: ReceivedTraceRecord) -> bool:
    """Store the record whatever is stored under its id; whether the id was new."""
    return store.merge_received_trace(record.trace_id, lambda _stored: record)[1]


def test_a_received_trace_reads_back_equal(store: Store) -> None:
    record = received("a" * 32, grade={"answer": "ungraded", "figures": [{"raw": "45 days"}]})
    assert store.merge_received_trace("a" * 32, lambda _: record) == (record, True)
    assert store.get_received_trace("a" * 32) == record
    assert store.get_received_trace("b" * 32) is None


def test_a_merge_sees_the_stored_trace_and_replaces_it(store: Store) -> None:
    first = received("a" * 32, touchpoint=None)
    seen: list[ReceivedTraceRecord | None] = []

    def merge(stored: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
        seen.append(stored)
        return received("a" * 32, touchpoint="refunds", minutes=5, grade={"answer": "ungraded"})

    assert put(store, first) is True
    merged, new = store.merge_received_trace("a" * 32, merge)
    assert (seen, new) == ([first], False)
    assert store.get_received_trace("a" * 32) == merged
    assert merged.touchpoint == "refunds"


def test_a_failed_or_wrong_merge_stores_nothing(store: Store) -> None:
    def broken(_stored: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
        raise RuntimeError("the merge broke")

    with pytest.raises(RuntimeError, match="the merge broke"):
        store.merge_received_trace("a" * 32, broken)
    with pytest.raises(ValueError, match="returned trace"):
        store.merge_received_trace("a" * 32, lambda _: received("b" * 32))
    bad = received("a" * 32).model_copy(update={"trace_id": ""})  # model_copy skips validation
    with pytest.raises(ValidationError):
        store.merge_received_trace("a" * 32, lambda _: bad)
    assert store.received_traces() == []


def test_received_traces_are_newest_first_by_touchpoint_and_limited(store: Store) -> None:
    put(store, received("1" * 32, minutes=0))
    put(store, received("2" * 32, minutes=2, touchpoint="search"))
    put(store, received("3" * 32, minutes=1))
    put(store, received("4" * 32, minutes=1))  # same time: stored later first
    ids = [record.trace_id[0] for record in store.received_traces()]
    assert ids == ["2", "4", "3", "1"]
    assert [r.trace_id[0] for r in store.received_traces("refunds")] == ["4", "3", "1"]
    assert [r.trace_id[0] for r in store.received_traces(limit=2)] == ["2", "4"]
    assert store.received_traces("nobody") == []


def test_a_merge_moves_a_trace_to_the_front(store: Store) -> None:
    put(store, received("1" * 32, minutes=0))
    put(store, received("2" * 32, minutes=1))
    assert put(store, received("1" * 32, minutes=2)) is False
    assert [r.trace_id[0] for r in store.received_traces()] == ["1", "2"]


def test_times_come_back_in_utc(store: Store) -> None:
    eastern = timezone(timedelta(hours=-5))
    record = received("a" * 32).model_copy(update={"received_at": T0.astimezone(eastern)})
    put(store, record)
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


def test_a_swap_writes_only_over_the_copy_it_was_made_from(store: Store) -> None:
    first = received("a" * 32, grade={"answer": "ungraded"})
    assert swap_received_trace(store, first, expected=None)
    assert not swap_received_trace(store, received("a" * 32, minutes=1), expected=None)
    stale = received("a" * 32, minutes=5)
    assert store.get_received_trace("a" * 32) == first  # the refused swap wrote nothing

    newer = received("a" * 32, minutes=2)
    assert swap_received_trace(store, newer, expected=first)
    assert not swap_received_trace(store, stale, expected=first)  # first is no longer stored
    assert store.get_received_trace("a" * 32) == newer
