"""Grading a received run within a time and size bound, in a child process.

Grading is deterministic but its cost grows with the run: an 11 MiB tool result takes
seconds. A received run is graded in a child process, outside any store transaction, and
the child is killed when it passes :attr:`GradeLimits.seconds`; a run whose text is larger
than :attr:`GradeLimits.characters` is not graded at all. Either way the run is stored
ungraded with the reason (``problem``), never lost, and graded again when more of its spans
arrive. The limits are documented in docs/security.md.

The children are warm graders: each grades one run after another, so a run costs its
grading and two pipe messages, not a process. One that passes the time bound is killed; one
that ended (crashed, or killed from outside) is replaced; one that graded a large run is
retired after it, so what a large run left in its memory does not stay. They come from a fork
server that has the grader imported (``forkserver``; ``spawn`` where there is none), and each
exits when the receiver's end of its pipe closes (the receiver ended, even by ``kill -9``).
"""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TracegradeError
from tracegrade.suites import load_decoders
from tracegrade.web._intake_grade import grade_received

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkServerContext, SpawnContext
    from multiprocessing.process import BaseProcess
    from pathlib import Path

    from tracegrade.traces import Trace

__all__ = [
    "GRADE_MAX_CHARACTERS",
    "GRADE_SECONDS",
    "GradeLimits",
    "bounded_grade",
    "stop_idle_graders",
    "trace_size",
]

GRADE_SECONDS = 20.0
"""How long grading one received run may take before it is stopped (seconds)."""
GRADE_MAX_CHARACTERS = 16 * 1024 * 1024
"""The most text (characters of messages, call arguments and tool results) a graded run has."""

_FIX = "the run is kept ungraded; see docs/security.md (limits)"
_GRADER = "tracegrade.web._intake_bound"
_IDLE_GRADERS = 4
"""Warm graders kept waiting between requests (more are started while requests overlap)."""
_RETIRE_CHARACTERS = 1024 * 1024
"""A grader that graded a run of more text than this is retired after it (its memory)."""


@dataclass(frozen=True, slots=True)
class GradeLimits:
    """The bounds of grading one received run.

    Attributes:
        seconds: Wall-clock time for the child to grade it.
        characters: The most text the run may hold to be graded.
    """

    seconds: float = GRADE_SECONDS
    characters: int = GRADE_MAX_CHARACTERS


def trace_size(trace: Trace) -> int:
    """The characters of text in a run: its task and every frame's text and values."""
    size = len(trace.task)
    for frame in trace.frames:
        for name in ("content", "summary", "args", "result", "artifact"):
            value = getattr(frame, name, None)
            if isinstance(value, str):
                size += len(value)
            elif value is not None:
                size += len(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
    return size


def _serve(connection: Connection) -> None:
    """A warm grader: grade each ``(trace, suite)`` received until the pipe closes."""
    while True:
        try:
            trace, suite = connection.recv()
        except EOFError:  # the receiver closed its end, or ended
            return
        connection.send(_graded(trace, suite))


def _graded(trace: Trace, suite: Path | None) -> tuple[str, Any]:
    """``("grade", json)`` or ``("problem", reason)``."""
    try:
        decoders = load_decoders(suite) if suite is not None else ()
        return "grade", grade_received(trace, decoders)
    except TracegradeError as exc:
        return "problem", f"not graded: {exc}"
    except Exception as exc:  # noqa: BLE001 - any failure is the run's problem, stored with it
        return "problem", f"not graded: the grader failed ({type(exc).__name__}: {exc})"


class _Grader:
    """One warm grading process and the receiver's end of its pipe."""

    __slots__ = ("connection", "process")

    def __init__(self) -> None:
        context = _context()
        self.connection, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()

    def stop(self) -> None:
        """Close the pipe and make sure the process is gone."""
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


_idle: list[_Grader] = []
_idle_lock = threading.Lock()  # the receiver grades requests on several threads


def _take_grader() -> _Grader:
    with _idle_lock:
        while _idle:
            grader = _idle.pop()
            if grader.process.is_alive():
                return grader
            grader.stop()
    return _Grader()


def stop_idle_graders() -> None:
    """Stop the warm graders waiting for a run (the next run starts a fresh one)."""
    with _idle_lock:
        idle = list(_idle)
        _idle.clear()
    for grader in idle:
        grader.stop()


def _give_back(grader: _Grader) -> None:
    with _idle_lock:
        if len(_idle) < _IDLE_GRADERS:
            _idle.append(grader)
            return
    grader.stop()


def _context() -> ForkServerContext | SpawnContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([_GRADER])
        return context
    return multiprocessing.get_context("spawn")


def bounded_grade(
    trace: Trace, suite: Path | None, limits: GradeLimits
) -> tuple[dict[str, Any] | None, str | None]:
    """The run's grade JSON, or ``None`` and why it was not graded.

    Args:
        trace: The received run.
        suite: The grade suite whose declared decoders decode its tools, if any.
        limits: The time and size bounds.
    """
    size = trace_size(trace)
    if size > limits.characters:
        return None, (
            f"not graded: the run holds {size:,} characters of text, over the limit of"
            f" {limits.characters:,}; {_FIX}"
        )
    grader = _take_grader()
    kept = False
    try:
        try:
            grader.connection.send((trace, suite))
        except OSError:  # it ended while idle: one fresh grader, once
            grader.stop()
            grader = _take_grader()
            grader.connection.send((trace, suite))
        if not grader.connection.poll(limits.seconds):
            return None, f"not graded: grading took longer than {limits.seconds:g} s; {_FIX}"
        try:
            kind, value = grader.connection.recv()
        except EOFError:
            grader.process.join(5)
            code = grader.process.exitcode
            return None, f"not graded: the grader ended with exit code {code}; {_FIX}"
        kept = size <= _RETIRE_CHARACTERS
        return (value, None) if kind == "grade" else (None, value)
    finally:
        if kept:
            _give_back(grader)
        else:
            grader.stop()
