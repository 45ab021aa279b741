"""record_ai_call: into the current run inside a unit, else straight to a store."""

from __future__ import annotations

import contextvars
import threading
from typing import TYPE_CHECKING

import pytest

from tracegrade.cost import (
    STORE_URL_VARIABLE,
    ModelPrice,
    PriceTable,
    Usage,
    collect_calls,
    current_run_id,
    record_ai_call,
    repriced,
)
from tracegrade.errors import InputError
from tracegrade.store import InMemoryStore, open_store

if TYPE_CHECKING:
    from pathlib import Path


def test_outside_a_run_a_call_goes_to_the_given_store_priced():
    store = InMemoryStore()
    call = record_ai_call("search", "gpt-4o-mini", Usage(1_000, 100), 0.25, store=store)
    assert call.cost_usd == pytest.approx((1_000 * 0.15 + 100 * 0.60) / 1e6)
    assert call.run_id is None
    assert call.details == {"priced_as": "openai/gpt-4o-mini"}
    assert store.ai_calls() == [call]


def test_an_unknown_model_is_stored_unpriced_never_zero():
    store = InMemoryStore()
    call = record_ai_call("search", "house-llm-7b", Usage(1_000, 100), None, store=store)
    assert call.cost_usd is None
    assert "priced_as" not in call.details
    [rollup] = store.cost_rollup("model")
    assert (rollup.cost_usd, rollup.unpriced_calls, rollup.input_tokens) == (None, 1, 1_000)


def test_usage_as_a_dict_the_model_from_usage_and_cache_writes_kept():
    store = InMemoryStore()
    call = record_ai_call(
        "judge_panel",
        None,
        {
            "input_tokens": 2_000,
            "output_tokens": 10,
            "cache_write_input_tokens": 1_000,
            "model": "claude-3-5-haiku-20241022",
        },
        1.5,
        role="judge",
        store=store,
    )
    assert call.model == "claude-3-5-haiku-20241022"
    assert call.role == "judge"
    assert call.details["cache_write_input_tokens"] == 1_000
    assert call.cost_usd == pytest.approx((1_000 * 0.80 + 1_000 * 1.00 + 10 * 4.00) / 1e6)


def test_a_call_without_usage_is_recorded_as_unpriced():
    store = InMemoryStore()
    call = record_ai_call("search", "gpt-4o", None, 0.1, store=store)
    assert (call.input_tokens, call.output_tokens, call.cost_usd) == (0, 0, None)
    assert call.details == {"usage_missing": True}


def test_outside_a_run_without_a_store_the_default_store_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    url = f"sqlite:///{tmp_path / 'default.db'}"
    monkeypatch.setenv(STORE_URL_VARIABLE, url)
    record_ai_call("search", "gpt-4o", Usage(10, 10), 0.1)
    store = open_store(url)
    try:
        assert [call.touchpoint for call in store.ai_calls()] == ["search"]
    finally:
        store.close()


def test_inside_a_run_calls_join_the_run_and_unit_touchpoint_and_no_store_is_touched():
    store = InMemoryStore()
    assert current_run_id() is None
    with collect_calls("run-1", "legal_gate") as calls:
        assert current_run_id() == "run-1"
        first = record_ai_call(None, "gpt-4o", Usage(100, 10), 0.2, store=store)
        second = record_ai_call("other_tp", "gpt-4o", Usage(100, 10), 0.2, role="judge")
    assert current_run_id() is None
    assert calls == [first, second]
    assert (first.run_id, first.touchpoint) == ("run-1", "legal_gate")
    assert (second.run_id, second.touchpoint, second.role) == ("run-1", "other_tp", "judge")
    assert store.ai_calls() == []


def test_inside_a_run_the_runs_price_table_prices_the_calls():
    table = PriceTable({"house-llm": ModelPrice(1.0, 1.0)})
    with collect_calls("run-1", "tp", table) as calls:
        record_ai_call(None, "house-llm", Usage(500_000, 500_000), None)
        record_ai_call(None, "gpt-4o", Usage(500_000, 500_000), None)
    assert [call.cost_usd for call in calls] == [pytest.approx(1.0), None]


def test_a_thread_started_with_the_context_copied_still_collects():
    with collect_calls("run-1", "tp") as calls:
        context = contextvars.copy_context()
        worker = threading.Thread(
            target=context.run, args=(record_ai_call, None, "gpt-4o", Usage(1, 1), None)
        )
        worker.start()
        worker.join()
    assert [call.run_id for call in calls] == ["run-1"]


def test_outside_a_run_a_touchpoint_is_required():
    with pytest.raises(InputError, match="needs a touchpoint"):
        record_ai_call(None, "gpt-4o", Usage(1, 1), None, store=InMemoryStore())


@pytest.mark.parametrize(
    ("role", "latency", "usage", "words"),
    [
        ("grader", 0.1, Usage(1, 1), "role"),
        ("agent", -1.0, Usage(1, 1), "latency_seconds"),
        ("agent", 0.1, {"input_tokens": 1}, "output_tokens"),
    ],
)
def test_bad_arguments_are_bad_input(role: str, latency: float, usage: object, words: str):
    with pytest.raises(InputError, match=words):
        record_ai_call("tp", "gpt-4o", usage, latency, role, store=InMemoryStore())  # type: ignore[arg-type]


def test_repricing_a_stored_call_gives_what_recording_it_today_would():
    store = InMemoryStore()
    usage = {"input_tokens": 2_000, "output_tokens": 10, "cache_write_input_tokens": 1_000}
    old = PriceTable({"anthropic/house": ModelPrice(input=1.0, output=2.0)})
    call = record_ai_call("t", "house", usage, None, store=store, prices=old)
    assert call.cost_usd == pytest.approx((2_000 * 1.0 + 10 * 2.0) / 1e6)
    today = PriceTable({"house": ModelPrice(input=2.0, output=4.0, input_cache_write=3.0)})

    again = repriced(call, today)

    fresh = record_ai_call("t", "house", usage, None, store=InMemoryStore(), prices=today)
    assert again.cost_usd == pytest.approx(fresh.cost_usd)
    assert again.cost_usd == pytest.approx((1_000 * 2.0 + 1_000 * 3.0 + 10 * 4.0) / 1e6)
    assert (
        again.details == fresh.details == {"priced_as": "house", "cache_write_input_tokens": 1_000}
    )
    assert store.ai_calls() == [call]  # the stored call keeps its price
    gone = repriced(call, PriceTable({}))
    assert (gone.cost_usd, "priced_as" in gone.details) == (None, False)


def test_repricing_a_call_without_usage_leaves_it_unpriced():
    call = record_ai_call("search", "gpt-4o", None, 0.1, store=InMemoryStore())
    assert repriced(call, PriceTable({"gpt-4o": ModelPrice(1.0, 1.0)})).cost_usd is None
