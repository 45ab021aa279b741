"""Item 2: a generated corpus of 100+ MB, streamed one file at a time: speed and memory."""

from __future__ import annotations

import gc
import resource
import statistics
import time
import tracemalloc
from typing import TYPE_CHECKING

import orjson

from benchmarks._common import QUESTION, REPO, Check, Section, rate, size_text, table
from benchmarks._generate import GENERATOR_VERSION, SEED, ensure_corpus
from benchmarks._real import engine_choice
from tracegrade.verdicts import grade_native

if TYPE_CHECKING:
    from pathlib import Path

PASSES = 3
CHECKPOINTS = (0.1, 0.25, 0.5, 1.0)


def _shown(folder: Path) -> str:
    """The folder relative to the repository when it is inside it."""
    return folder.relative_to(REPO).as_posix() if folder.is_relative_to(REPO) else str(folder)


def _stream_pass(files: tuple[Path, ...]) -> tuple[float, float, float]:
    """Read, grade and discard each file; parse the same bytes with orjson right after.

    Returns:
        Seconds reading, seconds grading, seconds in ``orjson.loads``.
    """
    reading = grading = loading = 0.0
    clock = time.perf_counter
    for path in files:
        start = clock()
        data = path.read_bytes()
        read_done = clock()
        grade_native(data, QUESTION, name=path.name)
        grade_done = clock()
        orjson.loads(data)
        loads_done = clock()
        reading += read_done - start
        grading += grade_done - read_done
        loading += loads_done - grade_done
    return reading, grading, loading


def _memory_pass(files: tuple[Path, ...]) -> tuple[list[tuple[float, int, int, int, int]], int]:
    """Peak traced memory while streaming the first 10%, 25%, 50% and all of the corpus.

    Returns:
        Per checkpoint: share, files, bytes streamed, largest file so far, peak traced
        memory above the start; and the memory still held after the whole stream.
    """
    marks = {max(1, round(len(files) * share)): share for share in CHECKPOINTS}
    points: list[tuple[float, int, int, int, int]] = []
    gc.collect()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    done = largest = 0
    for count, path in enumerate(files, start=1):
        data = path.read_bytes()
        grade_native(data, QUESTION, name=path.name)
        done += len(data)
        largest = max(largest, len(data))
        del data
        if count in marks:
            peak = tracemalloc.get_traced_memory()[1] - baseline
            points.append((marks[count], count, done, largest, peak))
    gc.collect()
    retained = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    return points, retained


RATIO_TARGET = 1.0
"""orjson.loads time / grading time on the generated corpus (issue #15): at most one parse."""


def run_stream(folder: Path, target_bytes: int) -> Section:
    """Generate (or reuse) the corpus, stream it ``PASSES`` times, then measure memory once."""
    corpus = ensure_corpus(folder, target_bytes)
    files = corpus.files
    sizes = sorted(path.stat().st_size for path in files)
    made = "reused from an earlier run" if corpus.reused else f"generated in {corpus.seconds:.1f} s"
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    passes = [_stream_pass(files) for _ in range(PASSES)]
    with engine_choice("python"):  # the reference, once, for the engines side by side
        by_python = _stream_pass(files)
    python_ratio = by_python[2] / by_python[1]
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reading = statistics.median(p[0] for p in passes)
    grading = statistics.median(p[1] for p in passes)
    loading = statistics.median(p[2] for p in passes)
    ratios = sorted(p[2] / p[1] for p in passes)
    ratio = statistics.median(ratios)
    total = corpus.total_bytes
    points, retained = _memory_pass(files)
    memory_rows = [
        [f"first {share:.0%}", f"{count:,}", size_text(done), size_text(largest),
         size_text(peak), f"{peak / largest:.1f}x"]
        for share, count, done, largest, peak in points
    ]  # fmt: skip
    first_peak, full_peak = points[0][4], points[-1][4]
    flat = full_peak <= 1.5 * first_peak
    body = [
        (
            f"{len(files):,} generated traces, {size_text(total)} (generator v{GENERATOR_VERSION},"
            f" seed {SEED}, {made}; `{_shown(folder)}`). Sizes: smallest"
            f" {size_text(sizes[0])}, median {size_text(statistics.median(sizes))}, largest"
            f" {size_text(sizes[-1])}."
        ),
        "",
        (
            f"Each pass reads one file, grades it, then parses the same bytes with `orjson.loads`,"
            f" and drops both. {PASSES} passes; median (best) shown."
        ),
        "",
        *table(
            ["", "seconds", "MB/s (median)", "MB/s (best)"],
            [
                [
                    "read bytes (page cache)",
                    f"{reading:.2f}",
                    rate(total, reading),
                    rate(total, min(p[0] for p in passes)),
                ],
                [
                    "grade (`grade_native`: parse + validate + observe + grade)",
                    f"{grading:.2f}",
                    rate(total, grading),
                    rate(total, min(p[1] for p in passes)),
                ],
                [
                    "grade, Python reference (`TRACEGRADE_CORE=python`, one pass)",
                    f"{by_python[1]:.2f}",
                    rate(total, by_python[1]),
                    rate(total, by_python[1]),
                ],
                [
                    "read + grade (end to end)",
                    f"{reading + grading:.2f}",
                    rate(total, reading + grading),
                    rate(total, min(p[0] + p[1] for p in passes)),
                ],
                [
                    "`orjson.loads`",
                    f"{loading:.2f}",
                    rate(total, loading),
                    rate(total, min(p[2] for p in passes)),
                ],
            ],
        ),
        "",
        (
            f"Ratio orjson time / grade time: **{ratio:.3f}** (median; range {ratios[0]:.3f} to"
            f" {ratios[-1]:.3f}; target >= {RATIO_TARGET}); the Python reference's:"
            f" {python_ratio:.3f}."
        ),
        "",
        (
            "Memory, a separate pass under `tracemalloc` (Python allocations only; peak is"
            " cumulative from the start of the stream):"
        ),
        "",
        *table(
            ["streamed", "files", "bytes", "largest file so far", "peak traced", "peak / largest"],
            memory_rows,
        ),
        "",
        (
            f"Held after the whole stream: {size_text(max(retained, 0))}. Process RSS high-water"
            f" mark grew by {size_text(max(rss_after - rss_before, 0) * 1024)} over the {PASSES}"
            f" timed passes (from {size_text(rss_before * 1024)})."
        ),
    ]
    checks = (
        Check(f"generated {size_text(total)}: grade MB/s (median)", rate(total, grading)),
        Check("generated: read + grade MB/s (end to end)", rate(total, reading + grading)),
        Check("generated: orjson / grade time, Python engine", f"{python_ratio:.3f}"),
        Check(
            "generated: orjson / grade time",
            f"{ratio:.3f}",
            f">= {RATIO_TARGET}",
            ratio >= RATIO_TARGET,
        ),
        Check(
            "generated: peak traced memory, first 10% / all",
            f"{size_text(first_peak)} / {size_text(full_peak)}",
            "flat (all <= 1.5x first 10%)",
            flat,
        ),
    )
    return Section("2. Generated corpus, streamed", tuple(body), checks)
