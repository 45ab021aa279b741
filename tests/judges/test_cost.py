"""Judge calls land in the cost ledger with role judge; an unpriced model stays unpriced."""

from __future__ import annotations

import pytest

from tests.judges.builders import verdict
from tracegrade.cost import collect_calls
from tracegrade.judges import (
    FakeJudge,
    PanelCase,
    PanelResult,
    record_panel_cost,
    run_panel,
    score_tool_description,
)
from tracegrade.store import InMemoryStore, open_store


def _panel() -> PanelResult:
    priced = FakeJudge(
        [verdict()] * 2, name="a", model="gpt-4o-mini", input_tokens=1000, output_tokens=500
    )
    unpriced = FakeJudge(
        [verdict()] * 2, name="b", model="local-judge-v1", input_tokens=800, output_tokens=100
    )
    return run_panel([priced, unpriced], [PanelCase("c1", "x"), PanelCase("c2", "y")])


def test_panel_cost_is_recorded_per_call_with_role_judge(store) -> None:
    recorded = record_panel_cost(_panel(), "refund_panel", store=store)
    assert len(recorded) == 4
    stored = store.ai_calls(touchpoint="refund_panel")
    assert [(c.model, c.role, c.input_tokens, c.output_tokens) for c in stored] == [
        ("gpt-4o-mini", "judge", 1000, 500),
        ("local-judge-v1", "judge", 800, 100),
        ("gpt-4o-mini", "judge", 1000, 500),
        ("local-judge-v1", "judge", 800, 100),
    ]
    # gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output tokens.
    assert stored[0].cost_usd == pytest.approx(1000 * 0.15e-6 + 500 * 0.60e-6)
    assert stored[1].cost_usd is None  # unknown model: unpriced, never free
    assert stored[0].details["judge"] == "a"
    assert stored[0].details["case"] == "c1"
    (judge_role,) = store.cost_rollup("role", touchpoint="refund_panel")
    assert (judge_role.key, judge_role.calls, judge_role.unpriced_calls) == ("judge", 4, 2)
    assert judge_role.cost_usd == pytest.approx(2 * (1000 * 0.15e-6 + 500 * 0.60e-6))


def test_inside_a_run_unit_the_calls_join_the_run() -> None:
    with collect_calls("run-7", "refund_panel") as collected:
        record_panel_cost(_panel(), None)
    assert len(collected) == 4
    assert {(c.run_id, c.touchpoint, c.role) for c in collected} == {
        ("run-7", "refund_panel", "judge")
    }


def test_a_rubric_score_costs_its_one_call() -> None:
    scores = {"purpose": 3, "when_to_use": 3, "arguments": 3, "side_effects": 3, "failure_modes": 3}
    judge = FakeJudge([{"scores": scores, "notes": ""}], model="gpt-4o-mini", output_tokens=20)
    store = InMemoryStore()
    (call,) = record_panel_cost(
        score_tool_description(judge, "read_file", "Reads."), "read_file", store=store
    )
    assert (call.role, call.output_tokens) == ("judge", 20)
    assert call.cost_usd is not None
    assert store.ai_calls(touchpoint="read_file") == [call]


def test_outside_a_run_without_a_store_the_default_store_gets_them(monkeypatch, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'default.db'}"
    monkeypatch.setenv("TRACEGRADE_STORE_URL", url)
    record_panel_cost(_panel(), "refund_panel")
    store = open_store(url)
    try:
        assert (
            len(
                store.ai_calls(
                    touchpoint="refund_panel",
                )
            )
            == 4
        )
    finally:
        store.close()
