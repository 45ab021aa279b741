"""InMemoryStore: the SQL store on SQLite in memory, migrated, shared by threads, one process."""

from __future__ import annotations

import pickle
import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from tracegrade.errors import InputError
from tracegrade.store import (
    CaseResultRecord,
    InMemoryStore,
    ReceivedTraceRecord,
    RunRecord,
    SqlStore,
    open_store,
)
from tracegrade.store._migrate import head_revision
from tracegrade.store._schema import METADATA


def _run(run_id: str = "r") -> RunRecord:
    return RunRecord(run_id=run_id, lane="fast", registry_version="1")


def test_it_is_the_sql_store_migrated_to_head_in_memory() -> None:
    store = InMemoryStore()
    assert isinstance(store, SqlStore)
    assert store.url == "sqlite://"
    with store._read() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == head_revision()
        assert compare_metadata(context, METADATA) == []
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.close()


def test_each_store_has_a_database_of_its_own() -> None:
    first, second = InMemoryStore(), InMemoryStore()
    first.start_run(_run())
    assert [run.run_id for run in first.list_runs()] == ["r"]
    assert second.list_runs() == []
    second.start_run(_run())  # the same id: no clash across stores
    first.close()
    second.close()


def _result(run_id: str, case: str) -> CaseResultRecord:
    return CaseResultRecord(run_id=run_id, touchpoint="tp", case_id=case, outcome="passed")


def _count(record: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
    seen = 0 if record is None else int(str(record.trace["merges"]))
    return ReceivedTraceRecord(
        trace_id="t", source_format="native", trace={"merges": seen + 1}, grade=None
    )


def test_threads_sharing_the_one_connection_lose_nothing() -> None:
    store = InMemoryStore()
    store.start_run(_run())
    threads, each = 8, 40
    failures: list[BaseException] = []

    def write(number: int) -> None:
        try:
            for case in range(each):
                store.add_case_result(_result("r", f"t{number}-c{case}"))
                store.merge_received_trace("t", _count)  # a read and a write, one transaction
                store.case_result_page("r", limit=5)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failures.append(exc)

    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert failures == []
    assert len(store.finished_cases("r")) == threads * each
    record = store.get_received_trace("t")
    assert record is not None
    assert record.trace["merges"] == threads * each
    store.close()


def test_a_failed_transaction_leaves_the_shared_connection_usable() -> None:
    store = InMemoryStore()
    store.start_run(_run())
    with pytest.raises(InputError, match="already"):
        store.start_run(_run())
    with pytest.raises(InputError, match="does not exist"):
        store.add_case_results([_result("r", "a"), _result("nope", "b")])
    assert store.add_case_results([_result("r", "a")]) == 1
    store.close()


def test_a_closed_store_refuses_calls_instead_of_answering_empty() -> None:
    store = InMemoryStore()
    store.start_run(_run())
    store.close()
    store.close()  # closing twice is fine
    with pytest.raises(InputError, match="in-memory store was closed") as raised:
        store.list_runs()
    assert raised.value.exit_code == 2
    with pytest.raises(InputError, match="in-memory store was closed"):
        store.start_run(_run("other"))


def test_it_cannot_be_sent_to_another_process() -> None:
    store = InMemoryStore()
    with pytest.raises(TypeError, match="cannot be sent to another process"):
        pickle.dumps(store)
    store.close()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_a_memory_url_is_refused_by_open_store_and_points_at_this_store(url: str) -> None:
    # A command's results in memory would be gone when it exits: "did nothing" is an error.
    with pytest.raises(InputError, match=r"names no SQLite file.*InMemoryStore\(\)"):
        open_store(url)
