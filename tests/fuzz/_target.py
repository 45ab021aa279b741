"""What one fuzz input goes through, and how its outcome is classified.

An input is written under its seed's file name (readers detect formats by name and first
bytes), then read, graded with no question, replayed through the guard (the live-trace
check) and converted to native JSON and read back. Any exception outside
:class:`~tracegrade.errors.TracegradeError` is a crash.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import orjson

from tracegrade.errors import TracegradeError
from tracegrade.guard import parse_policy, replay
from tracegrade.traces import ToolCallFrame, read_traces
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.traces import Trace

Outcome = Literal["read", "refused", "crash"]


@dataclass(frozen=True, slots=True)
class Result:
    """One input's outcome: read, refused with a TracegradeError, or a crash."""

    outcome: Outcome
    detail: str = ""  # the error line, or the crash's type and last frames


def _exercise(trace: Trace) -> None:
    grade(trace)
    tools = sorted({f.name for f in trace.frames if isinstance(f, ToolCallFrame)})
    if tools:
        replay(trace, parse_policy({"tools": {tool: {"scan": ["a"]} for tool in tools[:20]}}))
    native = orjson.dumps(trace.model_dump(mode="json"))
    (back,) = read_traces(native, format_name="native")
    if back.frames != trace.frames:
        raise AssertionError(f"the native round trip changed trace {trace.id}'s frames")


def run_input(path: Path) -> Result:
    """Read the file at ``path`` and put every trace through grading, guard and convert."""
    try:
        for trace in read_traces(path):
            try:
                _exercise(trace)
            except TracegradeError as exc:
                raise exc.in_file(str(path)) from None  # as the CLI does for a grading error
    except TracegradeError as exc:
        message = str(exc)
        if str(path) not in message and "<bytes>" not in message:
            return Result("crash", f"unnamed: the error does not name the file: {message[:300]}")
        return Result("refused", message[:300])
    except Exception as exc:  # noqa: BLE001 - classifying every other exception is the point
        frames = traceback.extract_tb(exc.__traceback__)[-3:]
        where = " < ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno}" for f in reversed(frames))
        return Result("crash", f"{type(exc).__name__} at {where}: {str(exc)[:200]}")
    return Result("read")
