"""The runner collects each unit's model calls (threads, processes, Ray) and --cost-limit."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.cost import suites
from tracegrade.cost import format_usd
from tracegrade.evals import (
    LocalExecutor,
    ProcessExecutor,
    Touchpoint,
    TouchpointEntry,
    load_project,
    run_evals,
)
from tracegrade.store import InMemoryStore, Store, open_store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.evals import Executor, Project


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened: Store = (
        InMemoryStore() if request.param == "memory" else open_store(f"sqlite:///{tmp_path}/r.db")
    )
    yield opened
    opened.close()


def _entry(name: str, function: Callable[[int], Any], repeats: int) -> TouchpointEntry:
    contract = Touchpoint.model_validate(
        {
            "id": name,
            "kind": "agent_recipe",
            "owner": "t",
            "suite_kind": "callable",
            "call": f"tests.cost.suites:{function.__name__}",
            "severity_on_fail": "block",
            "repeats": repeats,
        }
    )
    return TouchpointEntry(contract, f"python tests.cost.suites:{function.__name__}", function)


def _project(tmp_path: Path, *entries: TouchpointEntry, prices: str | None = None) -> Project:
    path = tmp_path / "tracegrade.toml"
    path.write_text("" if prices is None else f'[cost]\nprices = "{prices}"\n', encoding="utf-8")
    return load_project(path, registered=entries)


EXECUTORS: dict[str, Callable[[], Executor]] = {
    "sequential": LocalExecutor,
    "threads": lambda: LocalExecutor(workers=3),
    "processes": lambda: ProcessExecutor(workers=2),
}


@pytest.mark.parametrize("executor", list(EXECUTORS))
def test_each_units_calls_are_stored_with_the_run_and_reported_agent_vs_judge(
    tmp_path: Path, store: Store, executor: str
):
    project = _project(
        tmp_path, _entry("agent", suites.agent_and_judge, 3), _entry("nano", suites.ten_cents, 2)
    )
    report = run_evals(project, store, executor=EXECUTORS[executor](), backoff=0.0)
    calls = store.ai_calls(run_id=report.run_id)
    assert len(calls) == 3 * 4 + 2
    assert {call.touchpoint for call in calls} == {"agent", "nano"}
    agent = report.touchpoints[0].cost
    assert (agent.agent.calls, agent.agent.unpriced_calls) == (9, 3)
    assert agent.agent.cost_usd == pytest.approx(3 * 0.30)
    assert (agent.judge.calls, agent.judge.unpriced_calls) == (3, 0)
    assert agent.judge.cost_usd == pytest.approx(3 * 0.80)
    nano = report.touchpoints[1].cost
    assert nano.agent.cost_usd == pytest.approx(0.20)
    assert nano.judge.calls == 0
    assert nano.judge.cost_usd is None
    assert report.cost.agent.cost_usd == pytest.approx(0.90 + 0.20)
    assert report.cost.judge.cost_usd == pytest.approx(2.40)
    assert (report.cost.total.calls, report.cost.total.unpriced_calls) == (14, 3)
    assert report.exit_code == 0
    assert report.stopped is None
    stored = store.get_run(report.run_id)
    assert stored is not None
    assert stored.summary["report"]["cost"]["judge"]["calls"] == 3  # type: ignore[index, call-overload]


def test_a_wholly_unpriced_touchpoint_is_reported_unpriced_not_free(tmp_path: Path, store: Store):
    project = _project(tmp_path, _entry("house", suites.unpriced_only, 2))
    report = run_evals(project, store, backoff=0.0)
    cost = report.touchpoints[0].cost.agent
    assert (cost.calls, cost.unpriced_calls, cost.cost_usd) == (2, 2, None)
    assert report.cost.total.cost_usd is None


def test_the_projects_price_file_prices_the_run(tmp_path: Path, store: Store):
    (tmp_path / "prices.toml").write_text(
        '[models."house-llm-7b"]\ninput = 1000.0\noutput = 0.0\n', encoding="utf-8"
    )
    project = _project(tmp_path, _entry("house", suites.unpriced_only, 1), prices="prices.toml")
    report = run_evals(project, store, backoff=0.0)
    assert report.cost.total.cost_usd == pytest.approx(100 * 1000.0 / 1e6)
    assert report.cost.total.unpriced_calls == 0


@pytest.mark.parametrize("executor", ["sequential", "processes"])
def test_cost_limit_stops_new_units_keeps_finished_ones_and_resume_completes(
    tmp_path: Path, store: Store, executor: str
):
    project = _project(tmp_path, _entry("nano", suites.ten_cents, 6))
    make = EXECUTORS[executor] if executor == "sequential" else lambda: ProcessExecutor(workers=1)
    stopped = run_evals(project, store, executor=make(), backoff=0.0, cost_limit=0.25)
    # $0.10 a unit: after the third the run has spent $0.30 > $0.25, so no fourth starts.
    # (The process pool keeps one more batch queued per worker; that one may run, and what
    # ran is kept: results and their calls alike.)
    kept = len(store.case_results(stopped.run_id))
    assert kept == 3 if executor == "sequential" else kept in {3, 4}
    assert stopped.exit_code == 1
    assert stopped.stopped == f"cost limit $0.2500 reached (${kept / 10:.4f} spent)"
    assert stopped.reason == f"stopped: {stopped.stopped}"
    assert len(store.ai_calls(run_id=stopped.run_id)) == kept
    run = store.get_run(stopped.run_id)
    assert run is not None
    assert run.status == "killed"

    again = run_evals(project, store, resume=stopped.run_id, cost_limit=0.25, backoff=0.0)
    assert again.stopped is not None  # it had spent its limit already: nothing more ran
    assert again.stopped.startswith("cost limit $0.2500 reached")
    assert len(store.case_results(stopped.run_id)) == kept

    done = run_evals(project, store, resume=stopped.run_id, backoff=0.0)
    assert (done.exit_code, done.stopped, done.units_skipped) == (0, None, kept)
    assert len(store.case_results(stopped.run_id)) == 6
    assert len(store.ai_calls(run_id=stopped.run_id)) == 6
    assert done.cost.total.cost_usd == pytest.approx(0.60)
    finished = store.get_run(stopped.run_id)
    assert finished is not None
    assert finished.status == "finished"


def test_a_limit_never_exceeded_changes_nothing(tmp_path: Path, store: Store):
    project = _project(tmp_path, _entry("nano", suites.ten_cents, 3))
    report = run_evals(project, store, backoff=0.0, cost_limit=0.30)
    assert (report.exit_code, report.stopped) == (0, None)  # $0.30 spent does not exceed $0.30
    assert len(store.case_results(report.run_id)) == 3


def test_crossing_the_limit_with_the_last_unit_is_a_finished_run(tmp_path: Path, store: Store):
    project = _project(tmp_path, _entry("nano", suites.ten_cents, 3))
    report = run_evals(project, store, backoff=0.0, cost_limit=0.25)
    assert (report.exit_code, report.stopped) == (0, None)
    run = store.get_run(report.run_id)
    assert run is not None
    assert run.status == "finished"


def test_threads_stop_starting_units_at_the_limit(tmp_path: Path):
    store = InMemoryStore()
    project = _project(tmp_path, _entry("nano", suites.ten_cents, 40))
    report = run_evals(
        project, store, executor=LocalExecutor(workers=2), backoff=0.0, cost_limit=0.05
    )
    assert report.stopped is not None
    stored = len(store.case_results(report.run_id))
    # The unit that crossed the limit, and at most the one the other thread was running.
    assert 1 <= stored <= 3
    assert len(store.ai_calls(run_id=report.run_id)) == stored


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (the ray extra)"
)
def test_ray_tasks_bring_their_calls_back(tmp_path: Path):
    # In a process of its own: Ray started and stopped many times in one process (other
    # test modules start it too) eventually fails to start its GCS.
    (tmp_path / "tracegrade.toml").write_text(RAY_PROJECT, encoding="utf-8")
    script = RAY_SCRIPT.format(project=tmp_path / "tracegrade.toml", db=tmp_path / "r.db")
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    report, calls = json.loads(done.stdout.splitlines()[-1])
    assert report["cost"]["total"]["calls"] == 8
    assert report["cost"]["judge"]["cost_usd"] == pytest.approx(1.60)
    assert report["cost"]["agent"]["unpriced_calls"] == 2
    assert calls == [report["run_id"]] * 8


REPO = Path(__file__).resolve().parents[2]
RAY_PROJECT = """
[[touchpoints]]
id = "agent"
kind = "agent_recipe"
owner = "t"
suite_kind = "callable"
call = "tests.cost.suites:agent_and_judge"
severity_on_fail = "block"
repeats = 2
"""
RAY_SCRIPT = """
import json
from tracegrade.evals import RayExecutor, load_project, run_evals
from tracegrade.store import open_store

store = open_store("sqlite:///{db}")
report = run_evals(load_project("{project}"), store, executor=RayExecutor(workers=2), backoff=0.0)
calls = [call.run_id for call in store.ai_calls()]
print(json.dumps([report.model_dump(mode="json"), calls]))
"""


def test_a_batch_that_crossed_the_limit_is_stored_whole(tmp_path: Path, store: Store):
    # 20 units on one worker run in batches of 3; the limit trips on the second unit of the
    # first batch, whose third unit has finished in the worker too: it is kept. The one
    # batch queued behind it may run too; no other starts.
    project = _project(tmp_path, _entry("nano", suites.ten_cents, 20))
    report = run_evals(
        project, store, executor=ProcessExecutor(workers=1), backoff=0.0, cost_limit=0.15
    )
    results = store.case_results(report.run_id)
    assert {0, 1, 2} <= {result.repeat for result in results}  # the first batch, whole
    assert len(results) in {3, 6}
    assert len(store.ai_calls(run_id=report.run_id)) == len(results)
    assert report.stopped == f"cost limit $0.1500 reached ({format_usd(len(results) / 10)} spent)"


RAY_STOP_SCRIPT = """
import json, os
from tracegrade.evals import RayExecutor, load_project, run_evals
from tracegrade.store import open_store

os.environ["TRACEGRADE_TEST_MARKS"] = "{marks}"
store = open_store("sqlite:///{db}")
report = run_evals(
    load_project("{project}"), store, executor=RayExecutor(workers=1), backoff=0.0,
    cost_limit=0.25,
)
results = sorted(result.repeat for result in store.case_results(report.run_id))
calls = len(store.ai_calls(run_id=report.run_id))
print(json.dumps([report.exit_code, report.stopped, results, calls]))
"""


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (the ray extra)"
)
def test_a_ray_stop_keeps_every_unit_that_started_with_its_cost(tmp_path: Path):
    # $0.10 a unit, one worker (a 1-CPU local instance), limit $0.25: the stop comes after the
    # third unit, while the fourth runs and a fifth waits in Ray's queue. A unit that started
    # made its paid call: its result and cost are kept, never cancelled and lost.
    project = RAY_PROJECT.replace("agent_and_judge", "ten_cents_slowly").replace(
        "repeats = 2", "repeats = 8"
    )
    (tmp_path / "tracegrade.toml").write_text(project, encoding="utf-8")
    (tmp_path / "marks").mkdir()
    script = RAY_STOP_SCRIPT.format(
        project=tmp_path / "tracegrade.toml", db=tmp_path / "r.db", marks=tmp_path / "marks"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    exit_code, stopped, results, calls = json.loads(done.stdout.splitlines()[-1])
    started = sorted(int(mark.stem) for mark in (tmp_path / "marks").iterdir())
    assert exit_code == 1
    assert stopped.startswith("cost limit $0.2500 reached")
    assert results[:3] == [0, 1, 2]
    assert len(results) <= 5  # at most the running unit and the one queued behind it
    assert results == started  # every unit that started is kept
    assert calls == len(results)
