"""The grading half of item 13: the stored runs graded in-process, in a child of its own.

``python -m benchmarks._otlp_grading URL`` prints :class:`Grading` as JSON. This module
imports only tracegrade: ``bounded_grade``'s children re-run the ``__main__`` module of the
process that starts them, so a light main here times the grading child itself (pickling,
grading), not this benchmark's imports.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import orjson

from tracegrade.store import open_store
from tracegrade.web._intake import received_trace
from tracegrade.web._intake_bound import GradeLimits, bounded_grade
from tracegrade.web._intake_grade import grade_received

if TYPE_CHECKING:
    from tracegrade.traces import Trace

ENGINE = "TRACEGRADE_CORE"
ENGINES = (("compiled core", "compiled"), ("Python reference", "python"))
GRADE_PASSES = 3
BOUNDED_SAMPLE = 30  # runs graded through bounded_grade (by its warm grader)


def stored_runs(url: str) -> list[Trace]:
    """The runs stored read and graded (a run stored with a problem is left out)."""
    store = open_store(url)
    try:
        records = store.received_traces(limit=10_000)
    finally:
        store.close()
    traces = []
    for record in records:
        trace = received_trace(record)
        if trace is not None and record.grade is not None and record.trace.get("problem") is None:
            traces.append(trace)
    return traces


@dataclass(frozen=True, slots=True)
class Grading:
    """The stored runs graded in-process.

    Attributes:
        runs: The runs stored read and graded.
        grade_ms: Per engine label, ``grade_received``'s wall milliseconds per run (best pass).
        grade_cpu_ms: Per engine label, its CPU milliseconds per run (the same pass).
        bounded_ms: ``bounded_grade``'s wall milliseconds per run (compiled core), a sample.
        bounded_runs: The size of that sample.
    """

    runs: int
    grade_ms: dict[str, float]
    grade_cpu_ms: dict[str, float]
    bounded_ms: float
    bounded_runs: int


def _grade_all(traces: list[Trace], engine: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``grade_received`` over ``traces`` with the engine selected."""
    # The engine is looked up at each call (tracegrade._engine.compiled_core), so the
    # variable switches it in this process; bounded_grade's fork server keeps its own.
    os.environ[ENGINE] = engine
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for trace in traces:
            grade_received(trace)
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        os.environ[ENGINE] = "compiled"


def time_grading(url: str, passes: int = GRADE_PASSES, sample: int = BOUNDED_SAMPLE) -> Grading:
    """``grade_received`` over the stored runs per engine, passes alternating (best kept);
    then ``bounded_grade`` over a sample, with the compiled core."""
    traces = stored_runs(url)
    if not traces:
        msg = f"no run was stored read and graded in {url}"
        raise RuntimeError(msg)
    best = {label: (float("inf"), 0.0) for label, _ in ENGINES}
    for _ in range(passes):
        for label, engine in ENGINES:
            best[label] = min(best[label], _grade_all(traces, engine))
    chosen = traces[:: max(1, len(traces) // sample)][:sample]
    limits = GradeLimits()
    bounded_grade(chosen[0], None, limits)  # starts the warm grader, as the intake's warm-up did
    started = time.perf_counter()
    for trace in chosen:
        grade, problem = bounded_grade(trace, None, limits)
        if grade is None:
            msg = f"trace {trace.id} was not graded: {problem}"
            raise RuntimeError(msg)
    bounded = time.perf_counter() - started
    count = len(traces)
    return Grading(
        runs=count,
        grade_ms={label: wall * 1000 / count for label, (wall, _) in best.items()},
        grade_cpu_ms={label: cpu * 1000 / count for label, (_, cpu) in best.items()},
        bounded_ms=bounded * 1000 / len(chosen),
        bounded_runs=len(chosen),
    )


if __name__ == "__main__":
    sys.stdout.buffer.write(orjson.dumps(asdict(time_grading(sys.argv[1]))))
