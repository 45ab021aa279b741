"""Graduation: the Wilson bound, the pure decision, and real runs through the runner."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.proposals.project import BETTER, set_passing, write_project
from tests.store import conftest as store_fixtures
from tracegrade.errors import ProjectError
from tracegrade.evals import (
    GraduationPolicy,
    RunTally,
    graduation,
    load_project,
    measure_graduation,
    run_evals,
    wilson_lower_bound,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.store import Store

# Every store: in-memory, SQLite and PostgreSQL, through the store tests' own fixtures.
postgres_server = store_fixtures.postgres_server
postgres_url = store_fixtures.postgres_url
sqlite_url = store_fixtures.sqlite_url
store = store_fixtures.store


@pytest.mark.parametrize(
    ("passed", "total", "expected"),
    [
        # Worked by hand: p = 0.81, z = 1.96, n = 100:
        # (0.81 + 0.019208 - 1.96 * sqrt(0.0015390 + 0.00009604)) / 1.038416 = 0.72221
        (81, 100, 0.7222),
        (10, 10, 0.7225),  # all passed: n / (n + z^2) = 10 / 13.8416
        (60, 60, 0.9398),
        (0, 10, 0.0),
        (1, 2, 0.0945),
    ],
)
def test_the_wilson_lower_bound_matches_worked_examples(
    passed: int, total: int, expected: float
) -> None:
    bound = wilson_lower_bound(passed, total)
    assert bound is not None
    assert round(bound, 4) == expected


def test_the_wilson_bound_of_nothing_is_unknown_not_zero() -> None:
    assert wilson_lower_bound(0, 0) is None
    with pytest.raises(ValueError, match="between 0 and total"):
        wilson_lower_bound(11, 10)


def tally(run: str, passed: int, failed: int = 0, **extra: object) -> RunTally:
    return RunTally.model_validate({"run_id": run, "passed": passed, "failed": failed, **extra})


POLICY = GraduationPolicy(window=3, threshold=0.85)


def test_graduation_needs_a_full_window_a_high_bound_and_no_block_failure() -> None:
    full = [tally("r3", 20), tally("r2", 20), tally("r1", 20)]
    held = graduation("tp", full, POLICY)
    assert (held.graduated, held.passed, held.runs) == (True, 60, ("r3", "r2", "r1"))
    assert held.reason.startswith("graduated: lower bound 0.940 of pass rate 1.000 (60/60)")

    short = graduation("tp", full[:2], POLICY)
    assert (short.graduated, short.reason) == (False, "not graduated: 2 of 3 runs measured so far")

    low = graduation("tp", [tally("r3", 18, 2), *full[1:]], POLICY)
    assert low.lower_bound is not None
    assert low.lower_bound > 0.85  # 58/60 still clears the bar
    lower = graduation("tp", [tally("r3", 10, 10), *full[1:]], POLICY)
    assert not lower.graduated
    assert "is below 0.850" in lower.reason

    blocked = graduation("tp", [tally("r3", 20, blocked=True), *full[1:]], POLICY)
    assert (blocked.graduated, blocked.blocked_runs) == (False, ("r3",))


def test_only_the_window_counts_and_infra_is_left_out_but_counted() -> None:
    old_failure = tally("r0", 0, 20, blocked=True)
    newer = [tally("r3", 20, infra=5), tally("r2", 20), tally("r1", 20), old_failure]
    result = graduation("tp", newer, POLICY)
    assert (result.graduated, result.infra, result.failed) == (True, 5, 0)
    nothing = graduation("tp", [tally("a", 0, infra=3)] * 3, POLICY)
    assert (nothing.graduated, nothing.pass_rate, nothing.lower_bound) == (False, None, None)


def test_the_contract_declares_graduation_and_checks_it(tmp_path: Path) -> None:
    project = load_project(
        write_project(tmp_path / "p", window=5, threshold=0.95) / "tracegrade.toml"
    )
    assert project.touchpoints[0].graduation == GraduationPolicy(window=5, threshold=0.95)
    write_project(tmp_path / "q", threshold=1.5)
    with pytest.raises(ProjectError, match="graduation"):
        load_project(tmp_path / "q" / "tracegrade.toml")


def test_graduation_flips_on_with_measured_runs_and_off_after_a_regression(
    tmp_path: Path, store: Store
) -> None:
    folder = write_project(tmp_path / "shop", prompt=BETTER)
    project = load_project(folder / "tracegrade.toml")

    def run() -> bool:
        report = run_evals(project, store)
        standing = report.touchpoints[0].graduation
        assert standing is not None
        # What the report says is what the store says once the run is finished.
        assert measure_graduation(store, "answer_prompt", POLICY) == standing
        return standing.graduated

    assert [run() for _ in range(3)] == [False, False, True]

    set_passing(folder, 10)  # a regression: the block touchpoint fails its min of 0.9
    assert run() is False
    set_passing(folder, None)
    assert [run() for _ in range(3)] == [False, False, True]  # the failure leaves the window


def test_a_warn_failure_demotes_only_through_the_bound(tmp_path: Path, store: Store) -> None:
    folder = write_project(tmp_path / "shop", prompt=BETTER, severity="warn", threshold=0.8)
    project = load_project(folder / "tracegrade.toml")
    for _ in range(3):
        run_evals(project, store)
    set_passing(folder, 17)  # 0.85 < min 0.9: failed, but warn; 57/60 keeps the bound >= 0.8
    standing = run_evals(project, store).touchpoints[0].graduation
    assert standing is not None
    assert standing.blocked_runs == ()
    assert (standing.passed, standing.failed, standing.graduated) == (57, 3, True)
