"""Grading a received run within a time and size bound, in a child process.

Grading is deterministic but its cost grows with the run: an 11 MiB tool result takes
seconds. A received run is graded in a child process, outside any store transaction, and
the child is killed when it passes :attr:`GradeLimits.seconds`; a run whose text is larger
than :attr:`GradeLimits.characters` is not graded at all. Either way the run is stored
ungraded with the reason (``problem``), never lost, and graded again when more of its spans
arrive. The limits are documented in docs/security.md.

Children come from a fork server that has the grader imported (``forkserver``; ``spawn``
where there is none), so each costs tens of milliseconds, not an interpreter start-up.
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.errors import TracegradeError
from tracegrade.suites import load_decoders
from tracegrade.web._intake_grade import grade_received

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkServerContext, SpawnContext
    from pathlib import Path

    from tracegrade.traces import Trace

__all__ = ["GRADE_MAX_CHARACTERS", "GRADE_SECONDS", "GradeLimits", "bounded_grade", "trace_size"]

GRADE_SECONDS = 20.0
"""How long grading one received run may take before it is stopped (seconds)."""
GRADE_MAX_CHARACTERS = 16 * 1024 * 1024
"""The most text (characters of messages, call arguments and tool results) a graded run has."""

_FIX = "the run is kept ungraded; see docs/security.md (limits)"
_GRADER = "tracegrade.web._intake_bound"


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


def _grade_child(connection: Connection, trace: Trace, suite: Path | None) -> None:
    """The child: grade, and send ``("grade", json)`` or ``("problem", reason)``."""
    try:
        decoders = load_decoders(suite) if suite is not None else ()
        connection.send(("grade", grade_received(trace, decoders)))
    except TracegradeError as exc:
        connection.send(("problem", f"not graded: {exc}"))
    except Exception as exc:  # noqa: BLE001 - any failure is the run's problem, stored with it
        connection.send(("problem", f"not graded: the grader failed ({type(exc).__name__}: {exc})"))
    finally:
        connection.close()


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
    context = _context()
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_grade_child, args=(sending, trace, suite), daemon=True)
    child.start()
    sending.close()
    try:
        if not receiving.poll(limits.seconds):
            return None, f"not graded: grading took longer than {limits.seconds:g} s; {_FIX}"
        try:
            kind, value = receiving.recv()
        except EOFError:
            child.join(5)
            return None, f"not graded: the grader ended with exit code {child.exitcode}; {_FIX}"
        return (value, None) if kind == "grade" else (None, value)
    finally:
        receiving.close()
        if child.is_alive():
            child.kill()
        child.join(5)
