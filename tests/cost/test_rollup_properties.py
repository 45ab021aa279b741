"""Properties of the pure sums: unpriced calls are counted, never added as zero."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracegrade.cost import ModelPrice, Usage, cost_breakdown, cost_of
from tracegrade.store import AiCallRecord, rollup_calls

START = datetime(2025, 1, 1, tzinfo=UTC)

calls = st.lists(
    st.builds(
        AiCallRecord,
        run_id=st.sampled_from(["r1", "r2", None]),
        touchpoint=st.sampled_from(["search", "answer", "judge_panel"]),
        model=st.sampled_from(["gpt-4o", "claude-sonnet-4", "house-llm"]),
        role=st.sampled_from(["agent", "judge"]),
        input_tokens=st.integers(0, 10**6),
        output_tokens=st.integers(0, 10**5),
        cost_usd=st.one_of(st.none(), st.floats(0, 50, allow_nan=False)),
        recorded_at=st.integers(0, 10**6).map(lambda s: START + timedelta(seconds=s * 7)),
    ),
    max_size=30,
)


@given(calls, st.sampled_from(["touchpoint", "model", "day", "role"]))
def test_rollups_partition_the_calls_and_skip_only_the_unpriced(
    chosen: list[AiCallRecord], by: str
):
    rows = rollup_calls(chosen, by)  # type: ignore[arg-type]
    assert [row.key for row in rows] == sorted({row.key for row in rows})
    assert sum(row.calls for row in rows) == len(chosen)
    assert sum(row.unpriced_calls for row in rows) == sum(c.cost_usd is None for c in chosen)
    assert sum(row.input_tokens for row in rows) == sum(c.input_tokens for c in chosen)
    priced = [c.cost_usd for c in chosen if c.cost_usd is not None]
    assert sum(row.cost_usd or 0.0 for row in rows) == pytest.approx(sum(priced))
    for row in rows:
        assert (row.cost_usd is None) == (row.unpriced_calls == row.calls)


@given(calls)
def test_the_breakdown_adds_up_and_an_all_unpriced_role_is_none(chosen: list[AiCallRecord]):
    split = cost_breakdown(chosen)
    assert split.agent.calls + split.judge.calls == split.total.calls == len(chosen)
    assert split.total.unpriced_calls == split.agent.unpriced_calls + split.judge.unpriced_calls
    for part in (split.agent, split.judge, split.total):
        assert (part.cost_usd is None) == (part.calls == part.unpriced_calls)


@given(st.integers(0, 10**7), st.integers(0, 10**7), st.integers(0, 10**7), st.integers(0, 10**7))
def test_cache_reads_never_cost_more_than_plain_input(
    plain: int, cached: int, written: int, output: int
):
    price = ModelPrice(input=3.0, output=15.0, input_cache_read=0.3, input_cache_write=3.75)
    usage = Usage(plain + cached + written, output, cached, written)
    uncached = Usage(plain + cached + written, output, 0, written)
    assert cost_of(usage, price) <= cost_of(uncached, price) + 1e-12
    assert cost_of(usage, price) >= 0
