"""The browse read models, the same on SQLite in memory, a SQLite file and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tracegrade.store import CaseResultRecord, RunRecord

if TYPE_CHECKING:
    from tracegrade.store import JsonObject, Store

T0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


def _run(store: Store, run_id: str, minutes: int = 0) -> None:
    store.start_run(
        RunRecord(
            run_id=run_id, started_at=T0 + timedelta(minutes=minutes), lane="pr",
            registry_version="reg",
        )
    )  # fmt: skip


def _result(
    run_id: str, case: str, outcome: str = "passed", touchpoint: str = "tp"
) -> CaseResultRecord:
    return CaseResultRecord.model_validate(
        {"run_id": run_id, "touchpoint": touchpoint, "case_id": case, "outcome": outcome,
         "metric": 1.0 if outcome == "passed" else 0.0, "payload": {"detail": f"why {case}"}}
    )  # fmt: skip


def _report(touchpoint: str, metric: float, *, baseline: float | None = None) -> JsonObject:
    verdict: JsonObject = {
        "status": "held", "failed": False, "baseline": baseline,
        "delta": None if baseline is None else metric - baseline,
        "metric": {"value": metric}, "spread": {"low": metric - 0.1, "high": metric},
    }  # fmt: skip
    return {"report": {"touchpoints": [{"touchpoint": touchpoint, "verdict": verdict}]}}


def test_a_page_holds_the_results_in_stored_order_with_ids_and_the_total(store: Store):
    _run(store, "r1")
    _run(store, "r2", 1)
    store.add_case_results([_result("r1", f"c{n:02}", "failed" if n % 3 == 0 else "passed")
                            for n in range(10)])  # fmt: skip
    store.add_case_results([_result("r2", "other")])

    first = store.case_result_page("r1", limit=4)
    second = store.case_result_page("r1", offset=4, limit=4)
    last = store.case_result_page("r1", offset=8, limit=4)

    assert first.total == second.total == last.total == 10
    cases = [row.result.case_id for page in (first, second, last) for row in page.rows]
    assert cases == [f"c{n:02}" for n in range(10)]
    ids = [row.id for page in (first, second, last) for row in page.rows]
    assert ids == sorted(ids)
    assert len(set(ids)) == 10
    assert (last.offset, last.limit, len(last.rows)) == (8, 4, 2)


def test_a_page_filters_by_outcome_and_touchpoint(store: Store):
    _run(store, "r1")
    store.add_case_results([
        _result("r1", "a", "failed"), _result("r1", "b"), _result("r1", "c", "failed", "tp2"),
    ])  # fmt: skip

    failed = store.case_result_page("r1", outcome="failed")
    of_tp2 = store.case_result_page("r1", touchpoint="tp2")

    assert [row.result.case_id for row in failed.rows] == ["a", "c"]
    assert failed.total == 2
    assert [row.result.case_id for row in of_tp2.rows] == ["c"]
    assert store.case_result_page("unknown-run").total == 0


def test_a_result_is_found_again_by_its_row_id(store: Store):
    _run(store, "r1")
    store.add_case_results([_result("r1", "a"), _result("r1", "b", "failed")])
    rows = store.case_result_page("r1").rows

    found = store.get_case_result(rows[1].id)

    assert found == rows[1]
    assert found is not None
    assert found.result.payload == {"detail": "why b"}
    assert store.get_case_result(max(row.id for row in rows) + 1000) is None


def test_page_bounds_are_clamped(store: Store):
    _run(store, "r1")
    store.add_case_results([_result("r1", f"c{n}") for n in range(3)])

    page = store.case_result_page("r1", offset=-5, limit=0)

    assert (page.offset, page.limit, len(page.rows)) == (0, 1, 1)


def test_outcome_counts_per_touchpoint(store: Store):
    _run(store, "r1")
    store.add_case_results([
        _result("r1", "a", "failed"), _result("r1", "b"), _result("r1", "c"),
        _result("r1", "d", "infra", "tp2"),
    ])  # fmt: skip

    assert store.run_outcome_counts("r1") == {"tp": {"failed": 1, "passed": 2}, "tp2": {"infra": 1}}
    assert store.run_outcome_counts("nothing") == {}


def test_history_comes_from_finished_runs_newest_first(store: Store):
    for number, metric in enumerate([0.5, 0.75, 1.0]):
        _run(store, f"r{number}", number)
        store.finish_run(f"r{number}", summary=_report("tp", metric, baseline=0.5))
    _run(store, "still-running", 10)
    _run(store, "other", 11)
    store.finish_run("other", summary=_report("elsewhere", 0.1))

    history = store.touchpoint_history("tp")
    limited = store.touchpoint_history("tp", limit=2)

    assert [point.run_id for point in history] == ["r2", "r1", "r0"]
    assert [point.metric for point in history] == [1.0, 0.75, 0.5]
    assert history[0].baseline == 0.5
    assert history[0].delta == 0.5
    assert history[0].band_low == 0.9
    assert history[0].status == "held"
    assert [point.run_id for point in limited] == ["r2", "r1"]
    assert store.touchpoint_history("never-ran") == []
