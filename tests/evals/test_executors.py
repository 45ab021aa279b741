"""Executors: the same project through threads, a process pool and Ray stores the same results.

Ray starts once for the module (a local instance with 2 CPUs; start and stop cost seconds)
and the tests are skipped, with the reason, when it is not installed or cannot start.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers.ray import local_ray
from tracegrade.errors import InputError
from tracegrade.evals import (
    CaseOutcome,
    LocalExecutor,
    RayExecutor,
    Touchpoint,
    TouchpointEntry,
    load_project,
    run_evals,
)
from tracegrade.evals._dispatch import WorkUnit
from tracegrade.evals._executor import ProcessExecutor, _batches, _ray_in_flight
from tracegrade.store import InMemoryStore, Store, open_store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.evals import Executor, Project

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project" / "tracegrade.toml"

Stored = list[tuple[str, str, int, str, object]]


def _closure(passed: int, total: int) -> Callable[[int], list[CaseOutcome]]:
    """A suite function only cloudpickle can ship (a closure)."""

    def suite(repeat: int) -> list[CaseOutcome]:
        return [
            CaseOutcome(case=f"c{n:02}", outcome="passed" if n < passed else "failed")
            for n in range(total)
        ]

    return suite


def _closure_project(tmp_path: Path) -> Project:
    contract = Touchpoint.model_validate(
        {
            "id": "closure",
            "kind": "prompt",
            "owner": "t",
            "suite_kind": "callable",
            "call": "tests:closure",
            "severity_on_fail": "block",
            "repeats": 3,
        }
    )
    path = tmp_path / "tracegrade.toml"
    path.write_text("", encoding="utf-8")
    entry = TouchpointEntry(contract, "python tests:closure", _closure(7, 10))
    return load_project(path, registered=(entry,))


def _stored(project: Project, executor: Executor, folder: Path | None) -> Stored:
    """Run the project into a fresh SQLite file in ``folder`` (or in memory); sorted results."""
    if folder is None:
        store: Store = InMemoryStore()
    else:
        folder.mkdir()
        store = open_store(f"sqlite:///{folder}/r.db")
    try:
        report = run_evals(project, store, executor=executor, backoff=0.0)
        results = store.case_results(report.run_id)
    finally:
        store.close()
    return sorted(
        (r.touchpoint, r.case_id, r.repeat, r.outcome, r.payload.get("unit_cases")) for r in results
    )


@pytest.fixture(scope="module")
def example_results(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    """The example project (grade, guard, gate, command suites) run one unit at a time."""
    project = load_project(EXAMPLE, registered=())
    return _stored(project, LocalExecutor(), tmp_path_factory.mktemp("sequential") / "s")


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance (2 CPUs) for the module."""
    yield from local_ray()


def test_the_example_runs_whole_with_one_result_per_case(example_results: Stored):
    touchpoints = {row[0] for row in example_results}
    assert touchpoints == {
        "refund_window_grader",
        "spreadsheet_figures",
        "legal_assistant_gate",
        "legacy_evals",
        "refund_answer_panel",
    }
    assert len(example_results) == 4 + 2 + 12 + 3 + 4


@pytest.mark.parametrize("executor", [LocalExecutor(workers=2), ProcessExecutor(workers=2)])
def test_threads_and_processes_store_what_one_at_a_time_stores(
    executor: Executor, example_results: Stored, tmp_path: Path
):
    project = load_project(EXAMPLE, registered=())

    assert _stored(project, executor, tmp_path / "run") == example_results


def test_a_process_pool_stores_into_a_store_in_memory(example_results: Stored):
    # Workers never see the store (it stays in this process): results come back and are
    # stored here, so a store that cannot leave the process serves every executor.
    project = load_project(EXAMPLE, registered=())

    assert _stored(project, ProcessExecutor(workers=2), None) == example_results


def test_ray_stores_what_one_at_a_time_stores(
    ray_instance: None, example_results: Stored, tmp_path: Path
):
    project = load_project(EXAMPLE, registered=())

    assert _stored(project, RayExecutor(workers=2), tmp_path / "run") == example_results


def test_ray_and_processes_ship_a_closure_suite(ray_instance: None, tmp_path: Path):
    project = _closure_project(tmp_path)
    expected = _stored(project, LocalExecutor(), tmp_path / "local")

    assert len(expected) == 30
    assert _stored(project, ProcessExecutor(workers=2), tmp_path / "processes") == expected
    assert _stored(project, RayExecutor(), tmp_path / "ray") == expected


def test_units_go_in_batches_of_about_eight_per_worker():
    units = [WorkUnit("tp", 0, f"case{n}") for n in range(1000)]

    batches = _batches(units, 2)

    assert [unit for batch in batches for unit in batch] == units
    assert {len(batch) for batch in batches[:-1]} == {63}
    assert len(_batches(units[:3], 4)) == 3
    assert max(len(batch) for batch in _batches(units * 10, 1)) == 256


@pytest.mark.parametrize("make", [LocalExecutor, ProcessExecutor])
def test_fewer_than_one_worker_is_bad_input(make: Callable[[int], Any]):
    with pytest.raises(InputError, match="at least 1"):
        make(0)


def _reads_the_environment(repeat: int) -> list[CaseOutcome]:
    """A suite whose outcome is the worker's TRACEGRADE_TEST_MARK (module level: picklable)."""
    return [
        CaseOutcome(case="env", outcome="passed", detail=os.environ.get("TRACEGRADE_TEST_MARK"))
    ]


def _environment_project(tmp_path: Path) -> Project:
    contract = Touchpoint.model_validate(
        {
            "id": "env",
            "kind": "prompt",
            "owner": "t",
            "suite_kind": "callable",
            "call": "tests:env",
            "severity_on_fail": "info",
        }
    )
    path = tmp_path / "tracegrade.toml"
    path.write_text("", encoding="utf-8")
    entry = TouchpointEntry(contract, "python tests:env", _reads_the_environment)
    return load_project(path, registered=(entry,))


def test_pool_workers_see_the_drivers_environment_as_it_is_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Workers fork from a fork server started by an earlier pool: they must still see the
    # environment the driver has at this run, not the one the server started with.
    project = _environment_project(tmp_path)
    details = []
    for number, mark in enumerate(("first", "second")):
        monkeypatch.setenv("TRACEGRADE_TEST_MARK", mark)
        store = open_store(f"sqlite:///{tmp_path}/r{number}.db")
        try:
            report = run_evals(project, store, executor=ProcessExecutor(workers=1))
            details.append(store.case_results(report.run_id)[0].payload["detail"])
        finally:
            store.close()
    assert details == ["first", "second"]


def _timed_closure(folder: Path) -> Callable[[int], list[CaseOutcome]]:
    """A suite that writes when each repeat ran, in whichever process runs it."""

    def suite(repeat: int) -> list[CaseOutcome]:
        import time  # noqa: PLC0415 - runs in a Ray worker

        start = time.monotonic()
        time.sleep(0.1)
        (folder / f"{repeat}.txt").write_text(f"{start} {time.monotonic()}", encoding="utf-8")
        return [CaseOutcome(case="c", outcome="passed")]

    return suite


@pytest.mark.parametrize(("workers", "at_once"), [(1, 1), (2, 2)])
def test_ray_runs_at_most_workers_batches_at_once_on_a_larger_instance(
    ray_instance: None, tmp_path: Path, workers: int, at_once: int
):
    # The instance has 2 CPUs: with workers=1 a queued batch would run beside the first.
    contract = Touchpoint.model_validate(
        {"id": "timed", "kind": "prompt", "owner": "t", "suite_kind": "callable",
         "call": "tests:timed", "severity_on_fail": "info", "repeats": 6}
    )  # fmt: skip
    path = tmp_path / "tracegrade.toml"
    path.write_text("", encoding="utf-8")
    (tmp_path / "times").mkdir()
    entry = TouchpointEntry(contract, "python tests:timed", _timed_closure(tmp_path / "times"))
    project = load_project(path, registered=(entry,))
    _stored(project, RayExecutor(workers=workers), tmp_path / "run")
    spans = [
        tuple(map(float, file.read_text(encoding="utf-8").split()))
        for file in (tmp_path / "times").iterdir()
    ]
    assert len(spans) == 6
    most = max(sum(1 for start, end in spans if start <= moment < end) for moment, _ in spans)
    assert most == at_once


@pytest.mark.parametrize(
    ("workers", "cpus", "expected"),
    [(None, 4, 8), (2, 2, 4), (2, 1, 4), (1, 2, 1), (3, 8, 3)],
)
def test_ray_queues_a_batch_per_worker_only_when_ray_caps_the_workers(
    workers: int | None, cpus: int, expected: int
):
    assert _ray_in_flight(workers, cpus) == expected
