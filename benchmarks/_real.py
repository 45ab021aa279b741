"""Item 1: the real traces, in memory: grading (parse, validate, observe, grade) vs orjson.loads."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

import orjson

from benchmarks._common import (
    QUESTION,
    Check,
    Section,
    clock,
    paired,
    rate,
    repeat,
    size_text,
    table,
)
from tracegrade._engine import ENGINE_VARIABLE
from tracegrade.observations import observe
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import grade, grade_native, grade_observed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

RATIO_TARGET = 0.75
"""orjson.loads time / grading time on the real traces (issue #15): at most 1.33 JSON parses."""

REPEATS = 7


def load_blobs(folder: Path) -> list[tuple[str, bytes]]:
    """Every trace file under ``folder`` as ``(relative name, bytes)``, read once, in order."""
    return [
        (path.relative_to(folder).as_posix(), path.read_bytes())
        for path in sorted(folder.rglob("*.json"))
    ]


def _calibrate(function: Callable[[], object], budget: float) -> int:
    """How many calls of ``function`` take about ``budget`` seconds (at least one)."""
    function()
    once = min(clock(function) for _ in range(3))
    return max(1, round(budget / max(once, 1e-9)))


def run_real(folder: Path, budget: float) -> Section:
    """Grade the real traces many times, timing orjson.loads of the same bytes alongside.

    Args:
        folder: The real traces.
        budget: About how many seconds grading should take in all (the whole item takes
            about twice that, with the per-stage and per-trace tables).
    """
    blobs = load_blobs(folder)
    total = sum(len(data) for _, data in blobs)

    def grade_all() -> None:
        for name, data in blobs:
            grade_native(data, QUESTION, name=name)

    def loads_all() -> None:
        for _, data in blobs:
            orjson.loads(data)

    def grade_all_python() -> None:
        with engine_choice("python"):
            grade_all()

    passes = _calibrate(grade_all, budget / REPEATS)
    with engine_choice(None):  # the default: the compiled core
        graded, loaded, ratio = paired(
            repeat(grade_all, passes), repeat(loads_all, passes), REPEATS
        )
    by_python, _, ratio_python = paired(
        repeat(grade_all_python, passes), repeat(loads_all, passes), REPEATS
    )
    size = total * passes
    body = [
        (
            f"{len(blobs)} traces, {size_text(total)} in all, read once; each repeat grades them"
            f" {passes} times and parses them with `orjson.loads` {passes} times (alternating,"
            f" {REPEATS} repeats). Median, with the best repeat in brackets."
        ),
        "",
        *table(
            ["", "MB/s (median)", "MB/s (best)"],
            [
                [
                    "grade (`grade_native`: parse + validate + observe + grade)",
                    rate(size, graded.median),
                    rate(size, graded.best),
                ],
                ["`orjson.loads`", rate(size, loaded.median), rate(size, loaded.best)],
            ],
        ),
        "",
        "By engine (`TRACEGRADE_CORE`; each paired with `orjson.loads` in its own repeats):",
        "",
        *table(
            ["engine", "grade MB/s (median)", "orjson / grade time", "parses"],
            [
                [
                    "compiled core (default)",
                    rate(size, graded.median),
                    f"{ratio.median:.3f}",
                    f"{1 / ratio.median:.1f}",
                ],
                [
                    "Python reference (`TRACEGRADE_CORE=python`)",
                    rate(size, by_python.median),
                    f"{ratio_python.median:.3f}",
                    f"{1 / ratio_python.median:.1f}",
                ],
            ],
        ),
        "",
        (
            f"Ratio orjson time / grade time: **{ratio.median:.3f}** (median; range"
            f" {ratio.best:.3f} to {ratio.worst:.3f}; target >= {RATIO_TARGET}, i.e. grading costs"
            f" {1 / ratio.median:.1f} parses)."
        ),
        "",
        *_stages(blobs, max(1, passes // 4)),
        "",
        *_per_trace(blobs),
    ]
    checks = (
        Check("real traces: grade MB/s (median)", rate(size, graded.median)),
        Check("real traces: orjson.loads MB/s (median)", rate(size, loaded.median)),
        Check("real traces: grade MB/s, Python engine (median)", rate(size, by_python.median)),
        Check(
            "real traces: orjson / grade time, Python engine",
            f"{ratio_python.median:.3f}",
        ),
        Check(
            "real traces: orjson / grade time",
            f"{ratio.median:.3f}",
            f">= {RATIO_TARGET}",
            ratio.median >= RATIO_TARGET,
        ),
    )
    return Section("1. Real traces, in memory", tuple(body), checks)


@contextmanager
def engine_choice(choice: str | None) -> Iterator[None]:
    """Run the block with ``TRACEGRADE_CORE`` set to ``choice`` (``None``: unset)."""
    saved = os.environ.get(ENGINE_VARIABLE)
    if choice is None:
        os.environ.pop(ENGINE_VARIABLE, None)
    else:
        os.environ[ENGINE_VARIABLE] = choice
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(ENGINE_VARIABLE, None)
        else:
            os.environ[ENGINE_VARIABLE] = saved


def _stages(blobs: list[tuple[str, bytes]], passes: int) -> list[str]:
    """Where grading time goes: the pipeline cut after each stage, always from the bytes.

    Each stage's cost is the difference between two cuts, so objects are never reused
    across runs (observations cache their search index and hits, a reused one would lie).
    """
    total = sum(len(data) for _, data in blobs)

    def loads() -> None:
        for _, data in blobs:
            orjson.loads(data)

    def parse() -> None:
        for name, data in blobs:
            parse_native_trace(data, name)

    def parse_observe() -> None:
        for name, data in blobs:
            observe(parse_native_trace(data, name))

    def full() -> None:
        for name, data in blobs:
            trace = parse_native_trace(data, name)
            grade_observed(trace, QUESTION, observe(trace))

    def native() -> None:
        for name, data in blobs:
            grade_native(data, QUESTION, name=name)

    cuts = [
        ("`orjson.loads`", loads),
        ("+ `validate_native_trace` (pydantic `Trace`)", parse),
        ("+ `observe` (decode tool results, build sources)", parse_observe),
        ("+ `grade_observed` (claims, support, provenance, `Grade`)", full),
    ]
    whole_native = min(clock(repeat(native, passes)) for _ in range(3)) / passes
    times = [
        min(clock(repeat(function, passes)) for _ in range(3)) / passes for _, function in cuts
    ]
    whole = times[-1]
    rows = [
        [
            label,
            f"{seconds * 1e3:.3f}",
            f"{(seconds - previous) * 1e3:.3f}",
            f"{(seconds - previous) / whole:.0%}",
            f"{seconds / times[0]:.1f}",
        ]
        for (label, _), seconds, previous in zip(cuts, times, [0.0, *times[:-1]], strict=True)
    ]
    return [
        (
            f"Where the time goes in the pipeline of `Trace` objects (what a trace of another"
            f" format, or one the core leaves to the reference, takes): the pipeline cut after"
            f" each stage, over all {len(blobs)} traces ({size_text(total)}) from their bytes"
            f" (best of 3, {passes} passes each); a stage costs the difference between two cuts."
            f" The core's one call (`grade_native`) takes {whole_native * 1e3:.3f} ms per pass,"
            f" {whole_native / times[0]:.1f} parses:"
        ),
        "",
        *table(["pipeline up to", "ms per pass", "stage ms", "stage share", "parses"], rows),
    ]


def _per_trace(blobs: list[tuple[str, bytes]]) -> list[str]:
    """Each trace's own grade and parse time (best of 3), to show which shapes cost most."""
    rows: list[list[object]] = []
    for name, data in blobs:
        trace = parse_native_trace(data, name)
        result = grade(trace, QUESTION)

        def grade_one(data: bytes = data, name: str = name) -> None:
            grade_native(data, QUESTION, name=name)

        def loads_one(data: bytes = data) -> None:
            orjson.loads(data)

        times = _calibrate(grade_one, 0.012)
        graded = min(clock(repeat(grade_one, times)) for _ in range(3)) / times
        loaded = min(clock(repeat(loads_one, times)) for _ in range(3)) / times
        tools = sorted(set(trace.tool_path))
        rows.append(
            [
                f"`{name}`",
                size_text(len(data)),
                ", ".join(tools) or "-",
                result.observations,
                f"{graded * 1e6:,.0f}",
                f"{loaded * 1e6:,.1f}",
                f"{loaded / graded:.3f}",
            ]
        )
    return [
        "Per trace (best of 3):",
        "",
        *table(["trace", "size", "tools", "observations", "grade µs", "orjson µs", "ratio"], rows),
    ]
