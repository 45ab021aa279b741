"""The Store protocol's behaviour, the same on SQLite in memory, a SQLite file and PostgreSQL."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING

import pytest

from tracegrade.errors import InputError
from tracegrade.store import (
    CaseKey,
    CaseResultRecord,
    RunRecord,
    Store,
    TouchpointVersionRecord,
    open_store,
)
from tracegrade.store._records import validated

if TYPE_CHECKING:
    from pathlib import Path

T0 = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)


def run(run_id: str = "run-1", minutes: int = 0) -> RunRecord:
    return RunRecord(
        run_id=run_id,
        started_at=T0 + timedelta(minutes=minutes),
        lane="fast",
        registry_version="reg-7",
    )


def case(
    case_id: str,
    *,
    touchpoint: str = "refunds",
    repeat: int = 0,
    outcome: str = "passed",
    metric: float | None = 1.0,
    run_id: str = "run-1",
) -> CaseResultRecord:
    return CaseResultRecord.model_validate(
        {
            "run_id": run_id,
            "touchpoint": touchpoint,
            "case_id": case_id,
            "repeat": repeat,
            "outcome": outcome,
            "metric": metric,
            "payload": {"verdicts": [{"claim": "45 days", "grade": "read", "evidence": ["o3"]}]},
            "recorded_at": T0,
        }
    )


def test_a_started_run_reads_back_equal(store: Store) -> None:
    started = run()
    store.start_run(started)
    assert store.get_run("run-1") == started
    assert store.get_run("run-2") is None


def test_a_run_id_is_stored_once(store: Store) -> None:
    store.start_run(run())
    with pytest.raises(InputError, match="run 'run-1' already exists"):
        store.start_run(run())


def test_list_runs_is_newest_first(store: Store) -> None:
    store.start_run(run("old", minutes=0))
    store.start_run(run("new", minutes=5))
    store.start_run(run("middle", minutes=2))
    assert [r.run_id for r in store.list_runs()] == ["new", "middle", "old"]


def test_adding_a_result_twice_keeps_the_first(store: Store) -> None:
    store.start_run(run())
    assert store.add_case_result(case("c1", outcome="failed", metric=0.0)) is True
    assert store.add_case_result(case("c1", outcome="passed", metric=1.0)) is False
    assert [(r.outcome, r.metric) for r in store.case_results("run-1")] == [("failed", 0.0)]


def test_repeats_and_touchpoints_are_separate_results(store: Store) -> None:
    store.start_run(run())
    for record in [case("c1"), case("c1", repeat=1), case("c1", touchpoint="search")]:
        assert store.add_case_result(record) is True
    assert store.finished_cases("run-1") == {
        CaseKey("refunds", "c1", 0),
        CaseKey("refunds", "c1", 1),
        CaseKey("search", "c1", 0),
    }
    assert store.finished_cases("other-run") == frozenset()


def test_a_result_for_an_unknown_run_is_refused(store: Store) -> None:
    with pytest.raises(InputError, match="run 'ghost' does not exist"):
        store.add_case_result(case("c1", run_id="ghost"))


def test_case_results_round_trip_sorted_and_filtered(store: Store) -> None:
    store.start_run(run())
    written = [
        case("b", touchpoint="search", metric=None),
        case("b"),
        case("a", repeat=1, outcome="infra", metric=None),
        case("a", outcome="error", metric=0.25),
    ]
    for record in written:
        store.add_case_result(record)
    assert store.case_results("run-1") == sorted(written, key=lambda r: r.key)
    assert [r.key for r in store.case_results("run-1", "search")] == [CaseKey("search", "b", 0)]
    assert store.case_results("run-1", "nothing") == []


def test_payload_json_round_trips(store: Store) -> None:
    store.start_run(run())
    payload = {"text": "€ 45 — «read»", "nested": {"list": [1, 2.5, None, True]}, "empty": {}}
    store.add_case_result(case("c1").model_copy(update={"payload": payload}))
    assert store.case_results("run-1")[0].payload == payload


def test_finish_run_sets_status_summary_and_time(store: Store) -> None:
    store.start_run(run())
    end = T0 + timedelta(hours=1)
    finished = store.finish_run("run-1", summary={"passed": 3, "failed": 1}, finished_at=end)
    assert (finished.status, finished.finished_at, finished.summary) == (
        "finished",
        end,
        {"passed": 3, "failed": 1},
    )
    assert store.get_run("run-1") == finished
    killed = store.finish_run("run-1", status="killed", finished_at=end)
    assert killed.summary == {"passed": 3, "failed": 1}  # None keeps the summary


def test_resume_run_makes_it_running_again(store: Store) -> None:
    store.start_run(run())
    store.finish_run("run-1", status="killed")
    resumed = store.resume_run("run-1")
    assert (resumed.status, resumed.finished_at) == ("running", None)
    assert store.get_run("run-1") == resumed


def test_changing_an_unknown_run_is_refused(store: Store) -> None:
    with pytest.raises(InputError, match="run 'ghost' does not exist"):
        store.finish_run("ghost")
    with pytest.raises(InputError, match="run 'ghost' does not exist"):
        store.resume_run("ghost")


def test_times_come_back_in_utc(store: Store) -> None:
    paris = timezone(timedelta(hours=1))
    store.start_run(run().model_copy(update={"started_at": T0.astimezone(paris)}))
    got = store.get_run("run-1")
    assert got is not None
    assert got.started_at == T0
    assert got.started_at.utcoffset() == timedelta(0)


def finished_run(store: Store, run_id: str, minutes: int, outcomes: list[str]) -> None:
    store.start_run(run(run_id, minutes))
    for index, outcome in enumerate(outcomes):
        store.add_case_result(
            case(f"c{index // 2}", repeat=index % 2, outcome=outcome, run_id=run_id, metric=index)
        )
    store.add_case_result(case("x", touchpoint="search", run_id=run_id, metric=None))
    store.finish_run(run_id)


def test_promote_makes_a_baseline_per_touchpoint(store: Store) -> None:
    finished_run(store, "run-1", 0, ["passed", "failed", "passed"])
    promoted = store.promote_baseline("run-1", promoted_at=T0)
    assert [(b.touchpoint, b.metric, b.outcomes) for b in promoted] == [
        ("refunds", 1.0, {"c0": ("passed", "failed"), "c1": ("passed",)}),
        ("search", None, {"x": ("passed",)}),  # no metric values: unknown, not zero
    ]
    assert store.baseline("refunds") == promoted[0]
    assert store.baseline("search") == promoted[1]
    assert store.baseline("billing") is None


def test_baseline_history_is_newest_first(store: Store) -> None:
    finished_run(store, "run-1", 0, ["passed"])
    finished_run(store, "run-2", 5, ["failed"])
    store.promote_baseline("run-1", promoted_at=T0)
    store.promote_baseline("run-2", "refunds", promoted_at=T0 + timedelta(days=1))
    assert [b.run_id for b in store.baseline_history("refunds")] == ["run-2", "run-1"]
    assert [b.run_id for b in store.baseline_history("search")] == ["run-1"]
    current = store.baseline("refunds")
    assert current is not None
    assert current.run_id == "run-2"


def test_only_a_finished_run_with_results_is_promoted(store: Store) -> None:
    store.start_run(run())
    store.add_case_result(case("c1"))
    with pytest.raises(InputError, match="run 'run-1' is running, not finished"):
        store.promote_baseline("run-1")
    store.finish_run("run-1")
    with pytest.raises(InputError, match="no results for touchpoint 'search'"):
        store.promote_baseline("run-1", "search")
    with pytest.raises(InputError, match="run 'ghost' does not exist"):
        store.promote_baseline("ghost")
    assert store.baseline_history("refunds") == []


def version(number: str, hashes: dict[str, str], minutes: int = 0) -> TouchpointVersionRecord:
    return TouchpointVersionRecord(
        touchpoint="refunds",
        version=number,
        registry_version="reg-7",
        hashes=hashes,
        recorded_at=T0 + timedelta(minutes=minutes),
    )


def test_touchpoint_versions_are_recorded_once_newest_first(store: Store) -> None:
    first = version("1", {"prompt.md": "a" * 64})
    second = version("2", {"prompt.md": "b" * 64, "tools.py": "c" * 64}, minutes=1)
    assert store.record_touchpoint_version(first) is True
    assert store.record_touchpoint_version(second) is True
    assert store.record_touchpoint_version(first) is False
    assert store.touchpoint_versions("refunds") == [second, first]
    assert store.touchpoint_versions("search") == []


def test_a_version_whose_files_changed_is_refused(store: Store) -> None:
    store.record_touchpoint_version(version("1", {"prompt.md": "a" * 64}))
    with pytest.raises(InputError, match="version '1' is already recorded with other file hashes"):
        store.record_touchpoint_version(version("1", {"prompt.md": "f" * 64}))
    assert len(store.touchpoint_versions("refunds")) == 1


def test_a_batch_is_stored_at_once_and_counts_the_new(store: Store) -> None:
    store.start_run(run())
    batch = [case("c1"), case("c2"), case("c1", repeat=1), case("c1", touchpoint="search")]
    assert store.add_case_results(batch) == 4
    assert store.finished_cases("run-1") == {
        CaseKey("refunds", "c1", 0),
        CaseKey("refunds", "c2", 0),
        CaseKey("refunds", "c1", 1),
        CaseKey("search", "c1", 0),
    }
    assert store.add_case_results([]) == 0


def test_a_batch_skips_stored_keys_and_its_own_duplicates(store: Store) -> None:
    store.start_run(run())
    store.add_case_result(case("c1", outcome="failed", metric=0.0))
    batch = [
        case("c1", outcome="passed"),  # stored already: skipped
        case("c2", outcome="failed", metric=0.0),
        case("c2", outcome="passed"),  # earlier in the batch: skipped
        case("c3"),
    ]
    assert store.add_case_results(batch) == 2
    assert store.add_case_results(batch) == 0
    outcomes = [(r.case_id, r.outcome) for r in store.case_results("run-1")]
    assert outcomes == [("c1", "failed"), ("c2", "failed"), ("c3", "passed")]


def test_a_batch_with_an_invalid_result_stores_nothing(store: Store) -> None:
    store.start_run(run())
    bad = case("c2").model_copy(update={"repeat": -1})  # model_copy skips validation
    with pytest.raises(ValueError, match="repeat"):
        store.add_case_results([case("c1"), bad, case("c3")])
    assert store.case_results("run-1") == []


def test_a_batch_naming_an_unknown_run_stores_nothing(store: Store) -> None:
    store.start_run(run())
    with pytest.raises(InputError, match="run 'ghost' does not exist"):
        store.add_case_results([case("c1"), case("c2", run_id="ghost")])
    assert store.case_results("run-1") == []


def test_a_batch_may_span_runs(store: Store) -> None:
    store.start_run(run())
    store.start_run(run("run-2", minutes=1))
    assert store.add_case_results([case("c1"), case("c1", run_id="run-2")]) == 2
    assert len(store.case_results("run-1")) == len(store.case_results("run-2")) == 1


def test_outcomes_by_repeat_counts_one_touchpoint_of_one_run(store: Store) -> None:
    store.start_run(run())
    store.start_run(run("run-2", minutes=1))
    store.add_case_results(
        [
            case("a"),
            case("b", outcome="failed", metric=0.0),
            case("a", repeat=1, outcome="infra", metric=None),
            case("b", repeat=1),
            case("a", touchpoint="other", outcome="failed"),
            case("a", run_id="run-2", outcome="error", metric=None),
        ]
    )
    assert store.outcomes_by_repeat("run-1", "refunds") == {
        (0, "passed"): 1,
        (0, "failed"): 1,
        (1, "infra"): 1,
        (1, "passed"): 1,
    }
    assert store.outcomes_by_repeat("run-1", "missing") == {}


def test_a_batch_with_every_column_reads_back_equal(store: Store) -> None:
    store.start_run(run())
    batch = [
        case(f"c{n:03d}", repeat=n % 3, outcome="failed" if n % 4 else "passed", metric=n / 7)
        for n in range(300)
    ]
    assert store.add_case_results(batch) == 300
    assert store.case_results("run-1") == sorted(batch, key=lambda result: result.key)


def test_list_runs_pages_newest_first_and_filters_by_status(store: Store) -> None:
    for minute in range(5):
        store.start_run(run(f"run-{minute}", minutes=minute))
    store.finish_run("run-1")
    store.finish_run("run-3")
    newest = [r.run_id for r in store.list_runs()]
    assert newest == ["run-4", "run-3", "run-2", "run-1", "run-0"]
    assert [r.run_id for r in store.list_runs(limit=2)] == newest[:2]
    assert [r.run_id for r in store.list_runs(limit=2, offset=2)] == newest[2:4]
    assert [r.run_id for r in store.list_runs(offset=4)] == newest[4:]
    assert [r.run_id for r in store.list_runs(status="finished")] == ["run-3", "run-1"]
    assert [r.run_id for r in store.list_runs(status="finished", offset=1)] == ["run-1"]
    assert store.list_runs(limit=0) == []


def test_payload_json_keeps_integers_beyond_64_bits(store: Store) -> None:
    store.start_run(run())
    result = case("big").model_copy(update={"payload": {"count": 2**70, "ids": [2**64, -1]}})
    store.add_case_results([result])
    assert store.case_results("run-1")[0].payload == {"count": 2**70, "ids": [2**64, -1]}


def test_a_batch_reads_back_as_written(store: Store) -> None:
    store.start_run(run())
    plus_two = timezone(timedelta(hours=2))
    written = [
        case("c1").model_copy(
            update={"payload": {"text": "€ 45", "big": 2**70, "list": [1, None]}}
        ),
        case("c2", metric=None).model_copy(update={"recorded_at": T0.astimezone(plus_two)}),
        case("c3", outcome="infra", metric=0.25),
    ]
    assert store.add_case_results(written) == 3
    read = store.case_results("run-1")
    assert read == [validated(record) for record in written]
    assert read[1].recorded_at == T0
    assert read[1].recorded_at.tzinfo == UTC  # stored in UTC, read back in UTC


def test_sqlite_batches_store_times_as_single_writes_do(tmp_path: Path) -> None:
    # One format for every row, so ordering and comparing the column's text stays right.
    store = open_store(f"sqlite:///{tmp_path}/t.db")
    try:
        store.start_run(run())
        moment = T0.astimezone(timezone(timedelta(hours=-5)))
        store.add_case_result(case("one").model_copy(update={"recorded_at": moment}))
        store.add_case_results([case("batch").model_copy(update={"recorded_at": moment})])
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "t.db") as database:
        texts = database.execute("SELECT recorded_at FROM case_results ORDER BY case_id").fetchall()
    assert texts[0] == texts[1]
