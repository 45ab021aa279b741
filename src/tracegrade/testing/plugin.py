"""tracegrade's pytest plugin, loaded through the ``pytest11`` entry point (docs/pytest.md).

It adds the ``tracegrade_trace`` fixture, the ``tracegrade(touchpoint=...)`` marker (each
marked test's outcome becomes a case result of that touchpoint in the project's store, one
run per session, judged against the touchpoint's baseline) and ``--tracegrade-report PATH``
(the session's grades and test outcomes as JSON). Loading it imports only pytest and the
standard library: a session that uses none of it pays almost nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from tracegrade.testing import _session

if TYPE_CHECKING:
    from collections.abc import Generator

    from tracegrade.evals import RunReport
    from tracegrade.testing._fixtures import TraceFactory

__all__ = [
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_runtest_makereport",
    "pytest_runtest_protocol",
    "pytest_sessionfinish",
    "pytest_terminal_summary",
    "pytest_unconfigure",
    "tracegrade_trace",
]

MARKER = "tracegrade"
COMMAND_SUITE_VARIABLE = "TRACEGRADE_COMMAND_SUITE"
"""Set by ``tracegrade run`` for a ``command`` suite: that run stores the reported cases
(same value as :data:`tracegrade.evals.COMMAND_SUITE_VARIABLE`, not imported: too heavy)."""
REPORT_SCHEMA_VERSION = 1

CaseOutcome = Literal["passed", "failed", "error"]
_RANK = {"passed": 0, "failed": 1, "error": 2}


@dataclass(slots=True)
class _State:
    """One session's plugin state (kept on the config: pytester nests sessions)."""

    collector: _session.Collector
    marked: dict[str, str] = field(default_factory=dict)  # test node id -> touchpoint
    outcomes: dict[str, tuple[CaseOutcome, str]] = field(default_factory=dict)
    skipped: set[str] = field(default_factory=set)
    run: RunReport | None = None
    problem: str | None = None
    written: Path | None = None  # where --tracegrade-report went
    project: Any = None  # tracegrade.evals.Project, loaded when a test is marked


_STATE = pytest.StashKey[_State]()
_BROKEN = frozenset(
    {pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR}
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--tracegrade-report PATH`` and ``--tracegrade-project PATH``."""
    group = parser.getgroup("tracegrade", "tracegrade: grade agent runs")
    group.addoption(
        "--tracegrade-report",
        metavar="PATH",
        default=None,
        help="write the session's tracegrade grades and test outcomes as JSON to PATH",
    )
    group.addoption(
        "--tracegrade-project",
        metavar="PATH",
        default=None,
        help="the tracegrade.toml (or its folder) of the touchpoints that tests marked"
        " @pytest.mark.tracegrade name (default: the rootdir's)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker and start collecting the session's grades."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(touchpoint): record the test's outcome as a case result of this"
        " tracegrade touchpoint in the project's store",
    )
    config.stash[_STATE] = _State(collector=_session.start())


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop collecting."""
    state = config.stash.get(_STATE, None)
    if state is not None:
        _session.stop(state.collector)


def _touchpoint_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return None
    touchpoint = marker.kwargs.get("touchpoint", marker.args[0] if marker.args else None)
    extra = set(marker.kwargs) - {"touchpoint"}
    if not isinstance(touchpoint, str) or not touchpoint or extra or len(marker.args) > 1:
        msg = (
            f"{item.nodeid}: @pytest.mark.{MARKER} takes one touchpoint id, as"
            f' @pytest.mark.{MARKER}(touchpoint="refund_window_grader")'
        )
        raise pytest.UsageError(msg)
    return touchpoint


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Check every marked test's touchpoint against the project before any test runs."""
    state = config.stash[_STATE]
    for item in items:
        touchpoint = _touchpoint_of(item)
        if touchpoint is not None:
            state.marked[item.nodeid] = touchpoint
    if not state.marked:
        return
    from tracegrade.errors import TracegradeError  # noqa: PLC0415 - only for marked tests
    from tracegrade.testing._record import check_touchpoints, project_at  # noqa: PLC0415

    given = config.getoption("tracegrade_project")
    target = config.invocation_params.dir / given if given is not None else config.rootpath
    try:
        state.project = project_at(Path(target))
        check_touchpoints(state.project, state.marked)
    except TracegradeError as exc:
        raise pytest.UsageError(f"tracegrade: {exc}") from exc


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """Name the running test, so the grades its assertions make are noted under it."""
    state = item.config.stash[_STATE]
    state.collector.test = item.nodeid
    try:
        return (yield)
    finally:
        state.collector.test = None


def _first_line(report: pytest.TestReport) -> str:
    text = report.longreprtext.strip()
    lines = [line for line in text.splitlines() if line.startswith("E ")]
    return (lines[0][1:].strip() if lines else text.splitlines()[-1] if text else "")[:300]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Fold each phase's report into the test's outcome: error > failed > passed."""
    report = yield
    state = item.config.stash[_STATE]
    outcome: CaseOutcome | None
    if report.skipped:
        # An xfail that failed as expected passes (as in pytest-json-report and JUnit).
        outcome = "passed" if hasattr(report, "wasxfail") else None
    elif report.failed:
        outcome = "failed" if report.when == "call" else "error"
    else:
        outcome = "passed"
    if outcome is None:
        state.skipped.add(item.nodeid)
        return report
    before = state.outcomes.get(item.nodeid)
    if before is None or _RANK[outcome] > _RANK[before[0]]:
        detail = _first_line(report) if outcome != "passed" else ""
        state.outcomes[item.nodeid] = (outcome, detail)
    return report


def _cases(state: _State) -> list[dict[str, Any]]:
    return [
        {
            "id": test,
            "outcome": outcome,
            "detail": detail,
            "touchpoint": state.marked.get(test),
        }
        for test, (outcome, detail) in state.outcomes.items()
        if test not in state.skipped
    ]


def _store(state: _State) -> None:
    by_touchpoint: dict[str, list[tuple[str, CaseOutcome, str]]] = {}
    for test, (outcome, detail) in state.outcomes.items():
        touchpoint = state.marked.get(test)
        if touchpoint is not None and test not in state.skipped:
            by_touchpoint.setdefault(touchpoint, []).append((test, outcome, detail))
    if not by_touchpoint:
        return
    from tracegrade.errors import TracegradeError  # noqa: PLC0415 - only for marked tests
    from tracegrade.testing._record import store_outcomes  # noqa: PLC0415

    try:
        state.run = store_outcomes(state.project, by_touchpoint)
    except TracegradeError as exc:
        state.problem = str(exc)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Store the marked tests' outcomes as one run; write ``--tracegrade-report``."""
    config = session.config
    state = config.stash[_STATE]
    if state.marked and not os.environ.get(COMMAND_SUITE_VARIABLE):
        _store(state)
    if state.problem is not None and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
    target = config.getoption("tracegrade_report")
    if target is None or session.exitstatus in _BROKEN:
        return  # a session that broke wrote no report: a reader must not take it as results
    report = {
        "schema_version": REPORT_SCHEMA_VERSION,
        "cases": _cases(state),
        "grades": state.collector.as_json(),
        "run": None if state.run is None else state.run.model_dump(mode="json"),
    }
    path = config.invocation_params.dir / target
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    state.written = path


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:  # noqa: ANN401 - pytest's TerminalReporter
    """Say which run the marked tests were stored in and how each touchpoint was judged."""
    state = config.stash[_STATE]
    if state.problem is not None:
        terminalreporter.write_line(f"tracegrade: error: {state.problem}", red=True)
    if state.run is not None:
        run = state.run
        terminalreporter.write_line(
            f"tracegrade: stored run {run.run_id} ({run.units} case result(s)): {run.reason}"
        )
        for touchpoint in run.touchpoints:
            terminalreporter.write_line(f"tracegrade:   {touchpoint.verdict.sentence}")
    elif state.marked and os.environ.get(COMMAND_SUITE_VARIABLE):
        terminalreporter.write_line(
            "tracegrade: marked tests not stored here: the tracegrade run that started this"
            " command stores the cases it reports"
        )
    target = config.getoption("tracegrade_report")
    if state.written is not None:
        terminalreporter.write_line(f"tracegrade: grades written to {target}")


@pytest.fixture
def tracegrade_trace(request: pytest.FixtureRequest) -> TraceFactory:
    """A factory that reads a trace file of any format (paths relative to the test file).

    ``tracegrade_trace("runs/refund.json")`` reads the one run of a file;
    ``tracegrade_trace.all("runs.jsonl")`` every run of it.
    """
    from tracegrade.testing._fixtures import TraceFactory  # noqa: PLC0415 - the plugin loads light

    return TraceFactory(request.path.parent)
