"""The native fast path's observations: observe and a handful of searches, core vs reference.

Over the real nine-commits traces, each pass takes every trace from its bytes through parse,
validate and ``observe`` (strict, built-in decoders), then ``find_ids`` of four needles in
each of the three fields, ``find_word_ids`` of five forms in each field and
``lines_containing`` of each needle: in Python (``parse_native_trace``, ``observe``,
``Observations``, with the compiled search index as by default, and under
``TRACEGRADE_CORE=python``) and in one core call (``_core.native_observe_check``, the Rust
port in rust/src/native/observe.rs), timed alternately in the same run; ``orjson.loads``
of the same bytes is the common baseline.

Run: ``python -m benchmarks._native_observe [--seconds S]`` (needs the real corpus).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, get_args

import orjson

from benchmarks._common import (
    QUESTION,
    Section,
    clock,
    corpus_traces,
    paired,
    print_section,
    rate,
    repeat,
    table,
)
from benchmarks._real import engine_choice, load_blobs
from tracegrade import _core
from tracegrade.observations import SearchField, observe
from tracegrade.traces import parse_native_trace

if TYPE_CHECKING:
    from collections.abc import Callable

FIELDS: tuple[SearchField, ...] = get_args(SearchField)
NEEDLES = [QUESTION.tell or "", QUESTION.truth_file or "", "config", "error"]
FORMS = ["gpt-5-mini", "model", "the", "src", "test"]
REPEATS = 7


Workload = tuple[list[str], list[str]]  # (needles, forms); none: observe only
WORKLOADS: tuple[tuple[str, Workload], ...] = (
    ("parse + validate + observe", ([], [])),
    ("... + searches", (NEEDLES, FORMS)),
)


def _python(blobs: list[tuple[str, bytes]], workload: Workload) -> Callable[[], None]:
    needles, forms = workload

    def run() -> None:
        for name, data in blobs:
            observations = observe(parse_native_trace(data, name))
            for needle in needles:
                for where in FIELDS:
                    observations.find_ids(needle, where)
            if forms:
                for where in FIELDS:
                    observations.find_word_ids(forms, where)
            for needle in needles:
                observations.lines_containing(needle)

    return run


def _core_pass(blobs: list[tuple[str, bytes]], workload: Workload) -> Callable[[], None]:
    needles, forms = workload

    def run() -> None:
        for _, data in blobs:
            if isinstance(_core.native_observe_check(data, needles, forms), str):
                msg = "the core declined a nine-commits trace"
                raise RuntimeError(msg)

    return run


def run_native_observe(budget: float) -> Section:
    """Time the Python pipeline and the core call over the real traces, alternately."""
    blobs = load_blobs(corpus_traces())
    total = sum(len(data) for _, data in blobs)

    def loads() -> None:
        for _, data in blobs:
            orjson.loads(data)

    once = min(clock(_python(blobs, WORKLOADS[-1][1])) for _ in range(3))
    passes = max(1, round(budget / REPEATS / max(once, 1e-9)))
    size = total * passes
    rows = []
    for label, workload in WORKLOADS:
        core = repeat(_core_pass(blobs, workload), passes)
        with engine_choice(None):
            python = repeat(_python(blobs, workload), passes)
            default, by_core, ratio = paired(python, core, REPEATS)
        with engine_choice("python"):
            python = repeat(_python(blobs, workload), passes)
            reference, _, ratio_reference = paired(python, core, REPEATS)
        _, _, to_loads = paired(repeat(loads, passes), core, REPEATS)
        rows += [
            [f"{label}: Python, compiled index (default)", rate(size, default.median), ""],
            [
                f"{label}: Python reference (`TRACEGRADE_CORE=python`)",
                rate(size, reference.median),
                "",
            ],
            [
                f"{label}: one core call (`native_observe_check`)",
                rate(size, by_core.median),
                (
                    f"{1 / ratio.median:.1f}x the default, {1 / ratio_reference.median:.1f}x the"
                    f" reference; {to_loads.median:.2f} `orjson.loads`"
                ),
            ],
        ]
    body = (
        (
            f"{len(blobs)} traces, {total / 1e6:.2f} MB, each timing {passes} passes; {REPEATS}"
            " alternating repeats, medians. Searches: find_ids of"
            f" {len(NEEDLES)} needles x {len(FIELDS)} fields, find_word_ids of {len(FORMS)}"
            f" forms x {len(FIELDS)} fields, lines_containing of {len(NEEDLES)} needles."
        ),
        "",
        *table(["", "MB/s (median)", "core: speed-up; time in orjson.loads"], rows),
        "",
        (
            "Speed-ups are medians of per-repeat ratios, each paired in the same repeat; on a"
            " shared machine they hold steadier than the rates."
        ),
    )
    return Section("Native fast path: observations", body)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks._native_observe")
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long each timing")
    options = parser.parse_args()
    if not corpus_traces().is_dir():
        print(f"skipped: the real corpus is not at {corpus_traces()}", file=sys.stderr)
        sys.exit(2)
    section = run_native_observe(options.seconds)
    print_section(section)


if __name__ == "__main__":
    main()
