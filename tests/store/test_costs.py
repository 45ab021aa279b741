"""The cost ledger on every store (memory, SQLite, PostgreSQL): calls, filters, rollups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING

import pytest
from pydantic import ValidationError

from tracegrade.store import AiCallRecord, CostRollup, rollup_calls

if TYPE_CHECKING:
    from tracegrade.store import Store

DAY1 = datetime(2025, 3, 1, 23, 30, tzinfo=UTC)
DAY2 = datetime(2025, 3, 2, 0, 30, tzinfo=UTC)


def _call(**fields: object) -> AiCallRecord:
    values: dict[str, object] = {
        "run_id": "r1",
        "touchpoint": "search",
        "model": "gpt-4o",
        "role": "agent",
        "input_tokens": 100,
        "output_tokens": 10,
        "latency_seconds": 0.5,
        "cost_usd": 0.001,
        "recorded_at": DAY1,
        **fields,
    }
    return AiCallRecord.model_validate(values)


def _dumped(rows: list[CostRollup]) -> list[dict[str, object]]:
    return [row.model_dump() for row in rows]


CALLS = [
    _call(),
    _call(touchpoint="answer", cost_usd=0.002, output_tokens=20),
    _call(model="house-llm", cost_usd=None, input_tokens=50, recorded_at=DAY2),
    _call(role="judge", model="claude-sonnet-4", cost_usd=0.004, recorded_at=DAY2, run_id="r2"),
    _call(run_id=None, touchpoint="answer", cost_usd=None, model="house-llm", recorded_at=DAY2),
]


def test_calls_round_trip_oldest_first_and_filter(store: Store):
    assert store.add_ai_calls(CALLS) == len(CALLS)
    assert store.ai_calls() == CALLS
    assert store.ai_calls(run_id="r2") == [CALLS[3]]
    assert store.ai_calls(touchpoint="answer") == [CALLS[1], CALLS[4]]
    assert store.ai_calls(since=DAY2) == CALLS[2:]
    assert (
        store.ai_calls(since=datetime(2025, 3, 2, 1, 30, tzinfo=timezone(timedelta(hours=1))))
        == CALLS[2:]
    )
    assert store.ai_calls(run_id="r1", touchpoint="search", since=DAY2) == [CALLS[2]]
    assert store.add_ai_calls([]) == 0


def test_rollup_by_touchpoint_counts_unpriced_and_never_adds_zero(store: Store):
    store.add_ai_calls(CALLS)
    assert _dumped(store.cost_rollup("touchpoint")) == [
        {
            "key": "answer",
            "calls": 2,
            "input_tokens": 200,
            "output_tokens": 30,
            "cost_usd": pytest.approx(0.002),
            "unpriced_calls": 1,
        },
        {
            "key": "search",
            "calls": 3,
            "input_tokens": 250,
            "output_tokens": 30,
            "cost_usd": pytest.approx(0.005),
            "unpriced_calls": 1,
        },
    ]


def test_rollup_by_model_a_wholly_unpriced_model_costs_none(store: Store):
    store.add_ai_calls(CALLS)
    rows = {row.key: row for row in store.cost_rollup("model")}
    assert list(rows) == ["claude-sonnet-4", "gpt-4o", "house-llm"]
    assert rows["house-llm"].cost_usd is None
    assert (rows["house-llm"].calls, rows["house-llm"].unpriced_calls) == (2, 2)
    assert rows["house-llm"].input_tokens == 150
    assert rows["gpt-4o"].cost_usd == pytest.approx(0.003)


def test_rollup_by_utc_day_and_role_with_filters(store: Store):
    store.add_ai_calls(CALLS)
    days = store.cost_rollup("day")
    assert [(row.key, row.calls) for row in days] == [("2025-03-01", 2), ("2025-03-02", 3)]
    assert days[1].cost_usd == pytest.approx(0.004)
    roles = store.cost_rollup("role", run_id="r1")
    assert [(row.key, row.calls, row.unpriced_calls) for row in roles] == [("agent", 3, 1)]
    assert _dumped(store.cost_rollup("role", touchpoint="search", since=DAY2)) == [
        {
            "key": "agent",
            "calls": 1,
            "input_tokens": 50,
            "output_tokens": 10,
            "cost_usd": None,
            "unpriced_calls": 1,
        },
        {
            "key": "judge",
            "calls": 1,
            "input_tokens": 100,
            "output_tokens": 10,
            "cost_usd": pytest.approx(0.004),
            "unpriced_calls": 0,
        },
    ]
    assert store.cost_rollup("model", run_id="nope") == []


def test_a_day_is_the_utc_date_whatever_the_zone_given(store: Store):
    late = datetime(2025, 3, 1, 20, 0, tzinfo=timezone(timedelta(hours=-5)))  # 01:00 UTC on 2nd
    store.add_ai_calls([_call(recorded_at=late)])
    assert [row.key for row in store.cost_rollup("day")] == ["2025-03-02"]
    assert store.ai_calls()[0].recorded_at == datetime(2025, 3, 2, 1, 0, tzinfo=UTC)


def test_a_batch_is_all_or_nothing(store: Store):
    bad = CALLS[0].model_copy(update={"role": "grader"})  # model_copy skips validation
    with pytest.raises(ValidationError):
        store.add_ai_calls([CALLS[1], bad])
    assert store.ai_calls() == []


def test_records_refuse_negative_tokens_and_unknown_roles():
    with pytest.raises(ValidationError):
        _call(input_tokens=-1)
    with pytest.raises(ValidationError):
        _call(role="grader")
    with pytest.raises(ValidationError):
        _call(cost_usd=-0.1)


def test_rollup_calls_is_pure_and_sorted():
    rows = rollup_calls(reversed(CALLS), "touchpoint")
    assert [row.key for row in rows] == ["answer", "search"]
    assert rollup_calls([], "model") == []
