"""Concurrent writers lose nothing; a writer killed mid-write leaves only whole rows."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys

import pytest
import sqlalchemy as sa

from tests.store._writer import merge_concurrently, result, write_concurrently
from tracegrade.store import CaseKey, open_store
from tracegrade.store._url import parse_store_url
from tracegrade.web._intake_bound import stop_idle_graders

from .conftest import REPO


def stored_rows(url: str) -> list[tuple[object, ...]]:
    """Every case_results row, read with plain SQL (not through the store)."""
    engine = sa.create_engine(parse_store_url(url))
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT touchpoint, case_id, repeat, outcome, metric, payload FROM case_results"
        ).all()
    engine.dispose()
    return [tuple(row) for row in rows]


@pytest.mark.parametrize("batch", [0, 40], ids=["one at a time", "in batches"])
def test_two_processes_writing_one_run_lose_nothing(store_url: str, batch: int) -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2, timeout=30)
    inserted: multiprocessing.Queue[int] = context.Queue()
    # Both open the new store at once (so both migrate), then write 0..199 and 100..299.
    writers = [
        context.Process(
            target=write_concurrently,
            args=(store_url, "run", cases),
            kwargs={"barrier": barrier, "inserted": inserted, "batch": batch},
        )
        for cases in [range(200), range(100, 300)]
    ]
    for writer in writers:
        writer.start()
    counts = [inserted.get(timeout=20) for _ in writers]
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    assert sum(counts) == 300  # each overlapping case went in exactly once
    store = open_store(store_url)
    assert store.finished_cases("run") == {result("run", i).key for i in range(300)}
    store.close()
    assert len(stored_rows(store_url)) == 300


def test_a_killed_writer_leaves_whole_rows_and_a_resume_completes_it(store_url: str) -> None:
    total = 400
    command = [sys.executable, "-m", "tests.store._writer", store_url, "run", str(total)]
    with subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdout is not None
        committed = [int(writer.stdout.readline()) for _ in range(60)]
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL

    rows = stored_rows(store_url)
    assert len(rows) < total, "the writer finished before it was killed; nothing was tested"
    written = {int(str(case_id).removeprefix("case-")) for _, case_id, *_ in rows}
    assert set(committed) <= written  # every write that committed is there
    for row in rows:  # and every row there is whole
        expected = result("run", int(str(row[1]).removeprefix("case-")))
        assert row[:5] == (
            expected.touchpoint,
            expected.case_id,
            0,
            expected.outcome,
            expected.metric,
        )
        payload = row[5] if isinstance(row[5], dict) else json.loads(str(row[5]))  # SQLite: text
        assert payload == expected.payload

    resumed = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    rewritten = [int(line) for line in resumed.stdout.split()]
    assert set(rewritten).isdisjoint(written)  # finished cases were not run again
    rows = stored_rows(store_url)
    assert len(rows) == total
    assert {CaseKey(str(r[0]), str(r[1]), int(str(r[2]))) for r in rows} == {
        result("run", i).key for i in range(total)
    }


@pytest.fixture(autouse=True)
def _no_leftover_children() -> None:
    """Spawned writers are joined by each test; nothing should outlive it."""
    stop_idle_graders()  # the intake's warm graders wait by design (an earlier test's)
    assert multiprocessing.active_children() == []


def test_two_server_processes_merging_one_trace_lose_nothing(store_url: str) -> None:
    # Two OTLP receivers on one store, each adding its spans to the same 20 traces.
    open_store(store_url).close()  # migrated before both start
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2, timeout=30)
    writers = [
        context.Process(
            target=merge_concurrently, args=(store_url, marker, 20), kwargs={"barrier": barrier}
        )
        for marker in ("left", "right")
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
        assert writer.exitcode == 0
    store = open_store(store_url)
    stored = store.received_traces(limit=100)
    store.close()
    assert len(stored) == 20
    markers = [record.trace["markers"] for record in stored]
    assert all(
        isinstance(each, list) and sorted(map(str, each)) == ["left", "right"] for each in markers
    )
