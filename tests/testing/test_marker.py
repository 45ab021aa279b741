"""The tracegrade marker: marked tests become case results of a touchpoint, with baselines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from tests.testing._runs import GROUNDED, UNGROUNDED, project
from tests.testing.conftest import plugin_args
from tracegrade.store import open_store
from tracegrade.testing.plugin import COMMAND_SUITE_VARIABLE

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

pytest_plugins = ["pytester"]

AGENT_TESTS = """
import pytest
from tracegrade.testing import assert_grounded

@pytest.mark.tracegrade(touchpoint="refund_agent")
def test_grounded():
    assert_grounded("runs/grounded.json")

@pytest.mark.tracegrade(touchpoint="refund_agent")
def test_guess():
    assert_grounded("runs/guess.json")

def test_unmarked():
    pass
"""


def _agent(pytester: pytest.Pytester, tests: str = AGENT_TESTS, *, min_share: float = 0.0) -> None:
    (pytester.path / "runs").mkdir(exist_ok=True)
    (pytester.path / "runs" / "grounded.json").write_text(GROUNDED, encoding="utf-8")
    (pytester.path / "runs" / "guess.json").write_text(UNGROUNDED, encoding="utf-8")
    project(pytester.path, min_share=min_share)
    pytester.makepyfile(test_agent=tests)


def _store_url(folder: Path) -> str:
    return f"sqlite:///{folder / '.tracegrade' / 'tracegrade.db'}"


def _report(pytester: pytest.Pytester) -> dict[str, object]:
    return dict(json.loads((pytester.path / "r.json").read_text(encoding="utf-8")))


def test_marked_outcomes_are_stored_as_one_judged_run(pytester: pytest.Pytester) -> None:
    _agent(pytester, min_share=0.75)
    result = pytester.runpytest(*plugin_args(), "--tracegrade-report", "r.json")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "tracegrade: stored run * (2 case result(s)): *",
            "tracegrade:   refund_agent*0.5*",
        ]
    )
    run = _report(pytester)["run"]
    assert isinstance(run, dict)
    store = open_store(_store_url(pytester.path))
    try:
        results = store.case_results(run["run_id"], "refund_agent")
        assert sorted((r.case_id.split("::")[1], r.outcome, r.metric) for r in results) == [
            ("test_grounded", "passed", 1.0),
            ("test_guess", "failed", 0.0),
        ]
        failed = next(r for r in results if r.outcome == "failed")
        assert str(failed.payload["detail"]).startswith("AssertionError: 2 of 3 claim(s)")
        stored = store.get_run(run["run_id"])
        assert stored is not None
        assert stored.status == "finished"
        summary: Any = stored.summary
        assert summary["plan"] == {"touchpoints": ["refund_agent"], "source": "pytest"}
        (verdict,) = [t["verdict"] for t in summary["report"]["touchpoints"]]
        assert verdict["metric"]["value"] == 0.5
        assert verdict["failed"] is True  # under the contract's min of 0.75
        assert store.touchpoint_versions("refund_agent")  # its version is recorded, as a run's
    finally:
        store.close()


def test_a_later_session_is_judged_against_the_promoted_baseline(
    pytester: pytest.Pytester,
) -> None:
    _agent(pytester)
    pytester.runpytest(*plugin_args(), "--tracegrade-report", "r.json")
    first = _report(pytester)["run"]
    assert isinstance(first, dict)
    store = open_store(_store_url(pytester.path))
    try:
        store.promote_baseline(first["run_id"], "refund_agent")
    finally:
        store.close()
    # The guess is now asserted only for its path claims (none): both marked tests pass.
    pytester.makepyfile(
        test_agent=AGENT_TESTS.replace('guess.json")', 'guess.json", kinds={"path"})')
    )
    pytester.runpytest(*plugin_args(), "--tracegrade-report", "r.json").assert_outcomes(passed=3)
    second = _report(pytester)["run"]
    assert isinstance(second, dict)
    (touchpoint,) = second["touchpoints"]
    assert touchpoint["baseline_run"] == first["run_id"]
    assert touchpoint["verdict"]["baseline"] == 0.5
    assert touchpoint["verdict"]["metric"]["value"] == 1.0
    assert touchpoint["verdict"]["failed"] is False


def test_an_unknown_touchpoint_stops_the_session_before_any_test(
    pytester: pytest.Pytester,
) -> None:
    _agent(
        pytester,
        AGENT_TESTS.replace(
            'touchpoint="refund_agent")\ndef test_guess', 'touchpoint="refund")\ndef test_guess'
        ),
    )
    result = pytester.runpytest(*plugin_args())
    assert result.ret == 4  # pytest's usage error
    result.stderr.fnmatch_lines(
        [
            (
                "ERROR: tracegrade: *tracegrade.toml: case test_agent.py::test_guess: no touchpoint"
                " 'refund'. Known touchpoints: refund_agent"
            )
        ]
    )
    assert not (pytester.path / ".tracegrade").exists()


def test_a_marker_without_a_touchpoint_is_a_usage_error(pytester: pytest.Pytester) -> None:
    _agent(
        pytester,
        AGENT_TESTS.replace('(touchpoint="refund_agent")\ndef test_guess', "\ndef test_guess"),
    )
    result = pytester.runpytest(*plugin_args(), "--tracegrade-report", "r.json")
    assert result.ret == 4
    result.stderr.fnmatch_lines(
        ["ERROR: test_agent.py::test_guess: @pytest.mark.tracegrade takes one touchpoint id*"]
    )
    assert not (pytester.path / "r.json").exists()  # a broken session reports no results


def test_marked_tests_need_a_project(pytester: pytest.Pytester) -> None:
    _agent(pytester)
    (pytester.path / "tracegrade.toml").unlink()
    result = pytester.runpytest(*plugin_args())
    assert result.ret == 4
    result.stderr.fnmatch_lines(
        ["ERROR: tracegrade: *tracegrade.toml does not exist, and tests are marked*"]
    )


def test_skipped_marked_tests_are_left_out_and_none_run_is_an_error(
    pytester: pytest.Pytester,
) -> None:
    _agent(pytester, AGENT_TESTS.replace("def test_", "@pytest.mark.skip\ndef test_"))
    result = pytester.runpytest(*plugin_args())
    result.assert_outcomes(skipped=3)
    assert not (pytester.path / ".tracegrade").exists()  # no case outcome: no run


def test_under_tracegrade_run_the_command_suite_stores_the_cases_once(
    pytester: pytest.Pytester,
) -> None:
    _agent(pytester)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "tracegrade", "run", ".", "--format", "json"],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    store = open_store(_store_url(pytester.path))
    try:
        runs = store.list_runs()
        assert [r.run_id for r in runs] == [report["run_id"]]  # the plugin stored no run of its own
        results = store.case_results(report["run_id"], "refund_agent")
        assert sorted((r.case_id.split("::")[1], r.outcome) for r in results) == [
            ("test_grounded", "passed"),
            ("test_guess", "failed"),
            ("test_unmarked", "passed"),
        ]
    finally:
        store.close()


def test_the_command_suite_variable_matches_the_runners() -> None:
    from tracegrade.evals import COMMAND_SUITE_VARIABLE as RUNNERS  # noqa: PLC0415

    assert COMMAND_SUITE_VARIABLE == RUNNERS
