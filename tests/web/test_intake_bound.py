"""The intake's warm graders: reused between runs, replaced when they end, retired or killed."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pytest

from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import grade
from tracegrade.web import _intake_bound
from tracegrade.web._intake_bound import (
    GradeLimits,
    bounded_grade,
    stop_idle_graders,
    trace_size,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces import Trace

EXAMPLE = Path(__file__).parents[2] / "examples" / "traces" / "read-source.json"
LIMITS = GradeLimits(seconds=30)


@pytest.fixture(autouse=True)
def no_idle_graders() -> Iterator[None]:
    """Each test starts with no warm grader and leaves none behind."""
    stop_idle_graders()
    yield
    stop_idle_graders()


def _idle_pids() -> list[int | None]:
    return [grader.process.pid for grader in _intake_bound._idle]


def _graded() -> dict[str, object]:
    trace = parse_native_trace(EXAMPLE.read_bytes(), EXAMPLE.name)
    result, problem = bounded_grade(trace, None, LIMITS)
    assert problem is None
    assert result is not None
    assert result["trace_id"] == grade(trace).trace_id
    return result


def test_one_warm_grader_grades_run_after_run() -> None:
    _graded()
    first = _idle_pids()
    _graded()
    assert len(first) == 1
    assert _idle_pids() == first


def test_a_grader_that_ended_while_idle_is_replaced() -> None:
    _graded()
    (grader,) = _intake_bound._idle
    assert grader.process.pid is not None
    os.kill(grader.process.pid, signal.SIGKILL)
    grader.process.join(5)
    _graded()
    assert _idle_pids() != [grader.process.pid]


def test_a_grader_that_passes_the_time_bound_is_killed_and_the_next_run_graded() -> None:
    _graded()
    (grader,) = _intake_bound._idle
    line = "REFUND_WINDOW = '45 days'  # order 88231 ships in 3 days, costs $1,250.00\n"
    slow = _with_result(line * (4 * 1024 * 1024 // len(line)))

    result, problem = bounded_grade(slow, None, GradeLimits(seconds=0.2))

    assert result is None
    assert problem is not None
    assert "grading took longer than 0.2 s" in problem
    grader.process.join(5)
    assert not grader.process.is_alive()
    assert _idle_pids() == []
    _graded()


def _with_result(result: str) -> Trace:
    """The example run with its first tool result replaced by ``result``."""
    data = orjson.loads(EXAMPLE.read_bytes())
    first = next(frame for frame in data["frames"] if frame["type"] == "tool_result")
    first["result"] = result
    return parse_native_trace(orjson.dumps(data), EXAMPLE.name)


def test_a_grader_that_graded_a_large_run_is_retired(monkeypatch: pytest.MonkeyPatch) -> None:
    trace = parse_native_trace(EXAMPLE.read_bytes(), EXAMPLE.name)
    monkeypatch.setattr(_intake_bound, "_RETIRE_CHARACTERS", trace_size(trace) - 1)
    result, problem = bounded_grade(trace, None, LIMITS)
    assert problem is None
    assert result is not None
    assert _idle_pids() == []


def test_a_grader_exits_when_the_receiver_closes_its_pipe() -> None:
    grader = _intake_bound._Grader()
    grader.connection.close()
    grader.process.join(10)
    assert grader.process.exitcode == 0
