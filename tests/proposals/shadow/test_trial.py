"""Trying a proposal: shadow runs of the example project's suite, on SQLite and PostgreSQL.

Each test copies examples/proposals (14 of 20 cases pass: the prompt does not ask for the
currency) and tries one of its proposed prompts through the real runner and executors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.ray import local_ray
from tests.proposals.example import PROMPT, TOUCHPOINT, proposed
from tracegrade.errors import InputError
from tracegrade.evals import (
    SHADOW_LANE,
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    measure_graduation,
)
from tracegrade.evals._shadow_run import ShadowUnit, _interleaved
from tracegrade.proposals import improvement_problem, latest_trial, propose, try_proposal
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.evals import Executor, Project
    from tracegrade.store import Store


def _propose(store: Store, project: Project, name: str) -> int:
    made = propose(
        store, project, TOUCHPOINT, PROMPT, proposed(project.root, name),
        rationale=f"try {name}", author="ana",
    )  # fmt: skip
    assert made.id is not None
    return made.id


def test_a_proposal_that_fixes_cases_shows_a_significant_gain(
    store: Store, project: Project
) -> None:
    before = (project.root / PROMPT).read_bytes()
    number = _propose(store, project, "fix.md")
    stored_id, trial = try_proposal(store, project, number)
    # 14/20 -> 20/20: the six currency cases are fixed; McNemar exact p = 2 / 2**6.
    assert (trial.before, trial.after) == (0.7, 1.0)
    assert trial.delta == pytest.approx(0.3)
    assert (trial.fixed_pairs, trial.broken_pairs, trial.pairs) == (6, 0, 20)
    assert trial.p_value == 0.03125
    assert trial.verdict == "better"
    assert trial.significant_gain
    assert trial.low is not None
    assert trial.high is not None
    assert 0.0 < trial.low < 0.3 < trial.high <= 0.5
    fixed = [case.case for case in trial.cases if case.flip == "fixed"]
    assert fixed == [f"refund-currency-{n:02}" for n in range(6)]
    assert trial.count("unchanged") == 14
    assert improvement_problem(number, trial) is None
    # Stored with the proposal; the project's own prompt is untouched.
    assert latest_trial(store, number) == trial
    assert store.shadow_comparisons(proposal_id=number)[0].id == stored_id
    assert (project.root / PROMPT).read_bytes() == before


def test_shadow_runs_are_marked_and_never_count_as_runs_or_baselines(
    store: Store, project: Project
) -> None:
    _, trial = try_proposal(store, project, _propose(store, project, "fix.md"), repeats=2)
    runs = {run.run_id: run for run in store.list_runs()}
    assert set(runs) == {trial.base_run, trial.proposed_run}
    assert {run.lane for run in runs.values()} == {SHADOW_LANE}
    assert {run.status for run in runs.values()} == {"finished"}
    assert len(store.case_results(trial.proposed_run)) == 40  # 20 cases x 2 repeats
    assert measure_graduation(store, TOUCHPOINT).runs == ()  # not a measured run
    assert store.touchpoint_versions(TOUCHPOINT) == []  # a trial records no version
    with pytest.raises(InputError, match="is a shadow run"):
        store.promote_baseline(trial.proposed_run)
    assert store.baseline(TOUCHPOINT) is None


def test_a_change_that_changes_nothing_is_reported_as_noise(store: Store, project: Project) -> None:
    number = _propose(store, project, "reworded.md")
    _, trial = try_proposal(store, project, number, repeats=3)
    assert (trial.before, trial.after, trial.pairs) == (0.7, 0.7, 60)
    assert (trial.fixed_pairs, trial.broken_pairs, trial.p_value) == (0, 0, 1.0)
    assert trial.verdict == "noise"
    assert (trial.low, trial.high) == (0.0, 0.0)
    problem = improvement_problem(number, trial)
    assert problem is not None
    assert "not better than noise" in problem


def test_a_harmful_change_names_the_broken_block_cases(store: Store, project: Project) -> None:
    number = _propose(store, project, "shorter.md")
    _, trial = try_proposal(store, project, number)
    assert (trial.before, trial.after) == (0.7, 0.2)
    assert trial.verdict == "worse"
    assert trial.broken_block == tuple(f"refund-cite-{n:02}" for n in range(10))
    problem = improvement_problem(number, trial)
    assert problem is not None
    assert "breaks 10 case(s) of block touchpoint refund_answer" in problem


def test_a_proposal_whose_file_moved_on_is_refused_and_writes_nothing(
    store: Store, project: Project
) -> None:
    number = _propose(store, project, "fix.md")
    with pytest.raises(InputError, match="--repeats must be at least 1"):
        try_proposal(store, project, number, repeats=0)
    (project.root / PROMPT).write_text("Edited by hand.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"prompts/answer.md changed since proposal \d+"):
        try_proposal(store, project, number)
    assert store.list_runs() == []
    assert store.shadow_comparisons() == []
    with pytest.raises(InputError, match="no proposal 99"):
        try_proposal(store, project, 99)


def test_never_tried_is_a_problem_too() -> None:
    problem = improvement_problem(7, None)
    assert problem is not None
    assert "never tried" in problem


def test_the_two_versions_run_interleaved() -> None:
    units = _interleaved("t", 2, {"base": ("a", "b"), "proposed": ("a", "b", "c")})
    assert [(u.repeat, u.item, u.arm) for u in units] == [
        (0, "a", "base"), (0, "a", "proposed"), (0, "b", "base"), (0, "b", "proposed"),
        (0, "c", "proposed"),
        (1, "a", "base"), (1, "a", "proposed"), (1, "b", "base"), (1, "b", "proposed"),
        (1, "c", "proposed"),
    ]  # fmt: skip
    assert all(isinstance(unit, ShadowUnit) for unit in units)


@pytest.mark.parametrize("executor", ["threads", "processes"])
def test_every_executor_reads_the_copy_not_the_base(
    sqlite_url: str, project: Project, executor: str
) -> None:
    # Worker processes import the suite themselves, from the folder each unit names.
    chosen: Executor = LocalExecutor(2) if executor == "threads" else ProcessExecutor(2)
    store = open_store(sqlite_url)
    try:
        number = _propose(store, project, "fix.md")
        _, trial = try_proposal(store, project, number, repeats=2, executor=chosen)
    finally:
        store.close()
    assert (trial.fixed_pairs, trial.broken_pairs, trial.verdict) == (12, 0, "better")


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    yield from local_ray()


@pytest.mark.slow
def test_ray_reads_the_copy_too(sqlite_url: str, project: Project, ray_instance: None) -> None:
    store = open_store(sqlite_url)
    try:
        number = _propose(store, project, "fix.md")
        _, trial = try_proposal(store, project, number, repeats=2, executor=RayExecutor())
    finally:
        store.close()
    assert (trial.fixed_pairs, trial.broken_pairs, trial.verdict) == (12, 0, "better")
