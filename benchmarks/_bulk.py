"""Item 12: grading with no question file (``tracegrade grade DIR``): speed and parallelism.

(a) A generated folder of 200+ MB of native traces, each file graded in memory with no
question (claims extracted from the answer, each supported), against ``orjson.loads`` of the
same bytes, file by file alternately, in the same pass (its cost against grading with a
question is item 11's measurement); then the folder through ``grade_runs`` (reading, naming,
grading), as ``tracegrade grade DIR`` runs it, timed file by file against ``orjson.loads``
of each file, alternately, and whole. (b) The folder through ``grade_runs``
with the process pool (2 workers against 1) and with Ray (a local instance of 2 CPUs against
one of 1), each configuration's best time over alternating rounds.

Run alone: ``python -m benchmarks._bulk [--corpus-mb N] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from typing import TYPE_CHECKING

import orjson

from benchmarks._common import DATA, MB, Check, Section, print_section, rate, size_text, table
from benchmarks._generate import GENERATOR_VERSION, SEED, ensure_corpus
from benchmarks._runner import ray_start
from tracegrade.suites import grade_runs
from tracegrade.verdicts import grade_native

if TYPE_CHECKING:
    from pathlib import Path

CORPUS_MB = 200
PASSES = 3
ROUNDS = 3
RAY_ROUNDS = 2
SPEEDUP_TARGET = 1.6
END_TO_END_TARGET = 0.5
"""orjson.loads time / `tracegrade grade DIR` time (issue #15): at most two parses."""
ONE = "`--workers 1`: this process"
POOL = "`--workers 2`: process pool"
RAY = {1: "`--executor ray --workers 1`", 2: "`--executor ray --workers 2`"}


def _in_memory(files: tuple[Path, ...]) -> tuple[float, float]:
    """One pass: per file, zero-config grading and ``orjson.loads``.

    Returns:
        Seconds in each, over the pass (reading the bytes excluded).
    """
    zero = loads = 0.0
    clock = time.perf_counter
    for path in files:
        data = path.read_bytes()
        start = clock()
        grade_native(data, name=path.name)
        zero_done = clock()
        orjson.loads(data)
        loads += clock() - zero_done
        zero += zero_done - start
    return zero, loads


def _through_grade_runs(files: tuple[Path, ...], *, workers: int = 1, ray: bool = False) -> float:
    """Seconds to grade every file through ``grade_runs``; every run must be graded."""
    start = time.perf_counter()
    graded = errors = 0
    for run in grade_runs(files, workers=workers, ray=ray):
        graded += run.grade is not None
        errors += run.error is not None
    seconds = time.perf_counter() - start
    if errors or graded != len(files):
        msg = f"grade_runs graded {graded} of {len(files)} files, {errors} errors"
        raise RuntimeError(msg)
    return seconds


def _end_to_end_paired(files: tuple[Path, ...]) -> tuple[float, float]:
    """One pass of ``grade_runs`` over the folder, ``orjson.loads`` of each file's bytes beside.

    The clock runs while ``grade_runs`` works on a file (reads it from disk, detects its
    format, grades and names it) and stops at each run it yields; then the file's bytes are
    parsed by ``orjson.loads``, timed apart. The two alternate file by file, as in the
    in-memory pass: a burst of load on the shared machine weighs on both alike, where whole
    passes seconds apart each met their own. Reading the bytes for ``orjson.loads`` is not
    timed.

    Returns:
        Seconds in ``grade_runs``, seconds in ``orjson.loads``, over the pass.
    """
    command = loads = 0.0
    clock = time.perf_counter
    runs = grade_runs(files)
    start = clock()
    for path, run in zip(files, runs, strict=True):
        command += clock() - start
        if run.grade is None:
            msg = f"grade_runs did not grade {path}: {run.error}"
            raise RuntimeError(msg)
        data = path.read_bytes()
        parse_start = clock()
        orjson.loads(data)
        loads += clock() - parse_start
        start = clock()
    return command, loads


def _memory(files: tuple[Path, ...], workers: int) -> tuple[int, int]:
    """Peak traced memory of this process after the first quarter of the runs, and after all.

    Each run is dropped as soon as it is counted, as the command drops it once written. A
    quarter, not a tenth: with workers, the first batches in flight (256 files each) fill
    the pipeline before memory settles.
    """
    first = max(1, round(len(files) * 0.25))
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    peaks: list[int] = []
    for count, _ in enumerate(grade_runs(files, workers=workers), start=1):
        if count in {first, len(files)}:
            peaks.append(tracemalloc.get_traced_memory()[1] - base)
    tracemalloc.stop()
    return peaks[0], peaks[-1]


def _keep(times: dict[str, float], key: str, seconds: float) -> None:
    times[key] = min(times.get(key, float("inf")), seconds)


def _parallel(files: tuple[Path, ...], rounds: int) -> tuple[dict[str, float], str | None]:
    """Best seconds per configuration; the reason Ray was skipped, if it was."""
    times: dict[str, float] = {}
    _through_grade_runs(files[:50], workers=2)  # warm: start the pool's fork server
    for _ in range(rounds):  # alternating, so the machine's drifting load falls on all
        _keep(times, ONE, _through_grade_runs(files))
        _keep(times, POOL, _through_grade_runs(files, workers=2))
    for _ in range(RAY_ROUNDS):
        for workers in (1, 2):
            ray = ray_start(workers)
            if isinstance(ray, str):
                return times, ray
            try:
                _through_grade_runs(files[:50], ray=True, workers=workers)  # warm the workers
                for _ in range(max(1, rounds - 1)):
                    seconds = _through_grade_runs(files, ray=True, workers=workers)
                    _keep(times, RAY[workers], seconds)
            finally:
                ray.shutdown()
    return times, None


def run_bulk(corpus_mb: int = CORPUS_MB, rounds: int = ROUNDS) -> Section:
    """Item 12: zero-config grading speed, 2 workers against 1."""
    corpus = ensure_corpus(DATA / f"bulk-{corpus_mb}", corpus_mb * MB)
    files = corpus.files
    total = corpus.total_bytes
    made = "reused" if corpus.reused else f"generated in {corpus.seconds:.0f} s"
    passes = [_in_memory(files) for _ in range(PASSES)]
    zero = min(p[0] for p in passes)
    loads = min(p[1] for p in passes)
    orjson_ratios = sorted(p[1] / p[0] for p in passes)
    end_to_end = min(_through_grade_runs(files) for _ in range(2))
    paired = [_end_to_end_paired(files) for _ in range(PASSES)]
    end_to_end_ratios = sorted(p[1] / p[0] for p in paired)
    end_to_end_ratio = statistics.median(end_to_end_ratios)
    times, ray_skipped = _parallel(files, rounds)
    memory = {workers: _memory(files, workers) for workers in (1, 2)}
    pool_speedup = times[ONE] / times[POOL]
    rows = [
        [label, f"{seconds:.2f}", rate(total, seconds), f"{times[ONE] / seconds:.2f}x"]
        for label, seconds in times.items()
    ]
    checks = [
        Check("no question: grade MB/s (in memory, best)", rate(total, zero)),
        Check("no question: orjson / grade time", f"{statistics.median(orjson_ratios):.3f}"),
        Check(
            f"grade DIR ({size_text(total)}), --workers 1: orjson / end-to-end time",
            f"{end_to_end_ratio:.3f}",
            f">= {END_TO_END_TARGET}",
            end_to_end_ratio >= END_TO_END_TARGET,
        ),
        Check(f"grade DIR ({size_text(total)}), --workers 2 vs 1", f"{pool_speedup:.2f}x"),
    ]
    for workers, (first, whole) in memory.items():
        checks.append(
            Check(
                f"grade DIR, --workers {workers}: peak traced memory, first 25% / all",
                f"{size_text(first)} / {size_text(whole)}",
                "flat (all <= 1.5x first 25%)",
                whole <= 1.5 * first,
            )
        )
    notes: list[str] = []
    if ray_skipped is None:
        ray_speedup = times[RAY[1]] / times[RAY[2]]
        checks.append(
            Check(
                f"grade DIR ({size_text(total)}), Ray 2 vs 1 worker",
                f"{ray_speedup:.2f}x",
                f">= {SPEEDUP_TARGET}x",
                ray_speedup >= SPEEDUP_TARGET,
            )
        )
    else:
        notes.append(f"Ray rows skipped: {ray_skipped}.")
    body = [
        (
            f"{len(files):,} generated native traces, {size_text(total)} (generator"
            f" v{GENERATOR_VERSION}, seed {SEED}, {made}). In memory: per file, grading with no"
            " question (`grade_native(data)`: parse, observe, extract the answer's claims,"
            " support them) and `orjson.loads`, alternately;"
            f" {PASSES} passes, best pass shown, ratios the median of the passes."
        ),
        "",
        *table(
            ["", "seconds", "MB/s"],
            [
                ["grade, no question", f"{zero:.2f}", rate(total, zero)],
                ["`orjson.loads`", f"{loads:.2f}", rate(total, loads)],
                [
                    "`grade_runs` over the folder (read + name + grade)",
                    f"{end_to_end:.2f}",
                    rate(total, end_to_end),
                ],
            ],
        ),
        "",
        (
            f"orjson time / no-question grade time: **{statistics.median(orjson_ratios):.3f}**"
            f" (range {orjson_ratios[0]:.3f} to {orjson_ratios[-1]:.3f}). End to end, the folder"
            f" through `grade_runs` (reading each file from disk, detecting its format, grading,"
            f" naming) against `orjson.loads` of the same bytes, file by file alternately:"
            f" **{end_to_end_ratio:.3f}** (median of {PASSES} passes, range"
            f" {end_to_end_ratios[0]:.3f} to {end_to_end_ratios[-1]:.3f}; target >="
            f" {END_TO_END_TARGET}). Its cost against"
            " grading with a question is measured once, in item 11 (on the real traces and on"
            " the first traces of this same generated sequence)."
        ),
        "",
        (
            "The folder through `grade_runs` (as `tracegrade grade DIR --workers N` and"
            " `--executor ray` run it; results in input order, every file read from disk by"
            f" the worker). Best of {rounds} alternating rounds; Ray: {RAY_ROUNDS} local"
            f" instances of each size, started in turn, {max(1, rounds - 1)} timed runs each"
            " after a warm-up, `ray.init` excluded. The pool's times include forking its"
            " workers from the (warm) fork server."
        ),
        "",
        *table(["configuration", "seconds", "MB/s", "vs --workers 1"], rows),
        "",
        (
            "Memory of this process under `tracemalloc` (Python allocations; each run dropped"
            " once counted, as the command drops it once written), peak after the first"
            " quarter of the runs and after all of them:"
        ),
        "",
        *table(
            ["", "first 25%", "all", "all / first 25%"],
            [
                [f"`--workers {w}`", size_text(a), size_text(b), f"{b / a:.2f}x"]
                for w, (a, b) in memory.items()
            ],
        ),
    ]
    if notes:
        body += ["", *notes]
    return Section("12. Grading with no question file", tuple(body), tuple(checks))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks._bulk", description=__doc__)
    parser.add_argument("--corpus-mb", type=int, default=CORPUS_MB)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    options = parser.parse_args()
    section = run_bulk(options.corpus_mb, options.rounds)
    print_section(section)


if __name__ == "__main__":
    main()
