"""The native fast path's first stages on the real traces, against ``orjson.loads``.

``_core.native_trace_frames`` parses and validates a trace's bytes in the core (its own
reader, then the version 1 rules) and makes no Python object of it; ``_core.native_trace_values``
also hands back what grading reads (every frame's fields, tool arguments and results as
their ``result_text``); ``parse_native_trace`` is the reference (orjson, then pydantic).
Each is timed alternately with ``orjson.loads`` of the same bytes, so every ratio is taken
under the same machine load: ``python -m benchmarks._native_parse``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import orjson

from benchmarks._common import (
    Section,
    corpus_traces,
    paired,
    print_section,
    rate,
    repeat,
    size_text,
    table,
)
from benchmarks._real import load_blobs
from tracegrade import _core
from tracegrade.traces import parse_native_trace

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

REPEATS = 15
ROUNDS = 20  # each timed call reads every trace this many times


def run_native_parse(folder: Path, repeats: int = REPEATS) -> Section:
    """Time the core's parse and validation of every trace under ``folder``."""
    blobs = [data for _, data in load_blobs(folder)]
    size = sum(map(len, blobs)) * ROUNDS
    fallbacks = sum(_core.native_trace_frames(data) is None for data in blobs)

    def each(function: Callable[[bytes], object]) -> Callable[[], None]:
        return repeat(lambda: [function(data) for data in blobs], ROUNDS)

    baseline = each(orjson.loads)
    workloads = {
        "core parse + validate (native_trace_frames)": each(_core.native_trace_frames),
        "core, with the values as Python (native_trace_values)": each(_core.native_trace_values),
        "reference parse_native_trace": each(parse_native_trace),
    }
    rows = []
    for name, workload in workloads.items():
        loads, timed, ratio = paired(baseline, workload, repeats)
        rows.append(
            [
                name,
                rate(size, timed.best),
                rate(size, loads.best),
                f"{1 / ratio.median:.2f}",
            ]
        )
    body = (
        f"{len(blobs)} traces, {size_text(size // ROUNDS)}; {fallbacks} left to the reference.",
        "",
        *table(
            ["workload", "MB/s (best)", "orjson.loads MB/s", "orjson time / its time (median)"],
            rows,
        ),
    )
    return Section("Native fast path: parse and validate", body)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks._native_parse", description=__doc__)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    options = parser.parse_args()
    folder = corpus_traces()
    if not folder.is_dir():
        parser.exit(2, f"real corpus not found at {folder}: set TRACEGRADE_CORPUS\n")
    section = run_native_parse(folder, options.repeats)
    print_section(section)


if __name__ == "__main__":
    main()
