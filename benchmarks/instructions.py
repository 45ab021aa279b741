"""Instructions per pass, counted by callgrind: a steady measure on a shared, noisy machine.

``python -m benchmarks.instructions [WORKLOAD ...] [--files N] [--passes N]``

Wall times here move by 10-30% from one minute to the next (other tenants); an instruction
count does not, so it tells whether a change to the grading path did less work, to well
under 1%, where a timing cannot. It is not a speed: a cache miss or a SIMD loop costs what
a count does not show. The timed benchmarks (``python -m benchmarks``) stay the measure of
speed and of the issue's targets; this one is for deciding between two versions of the code.

Each workload runs in a child under ``valgrind --tool=callgrind``, collecting only inside
``functools.reduce`` (the child warms up outside it, then runs the timed passes inside it):

- ``real``: the 18 nine-commits traces, ``grade_native(data, QUESTION)`` (item 1);
- ``generated``: the first ``--files`` generated traces of item 2, with the question;
- ``bulk``: the first ``--files`` traces of item 12's folder, graded as ``tracegrade grade
  DIR`` grades a native file in memory (no question, the default redaction rules);
- ``files``: the same files through ``grade_runs`` from disk, as ``tracegrade grade DIR``
  runs (reading each file, detecting its format, grading and naming its run); the system
  calls' own work, in the kernel, is not counted.

For each it prints instructions per pass of the whole call (Python around the core), of the
core's call alone (``NativeGrader.grade`` with its arguments ready: parsing, grading and
building the ``Grade``), and of ``orjson.loads`` of the same bytes, with the share each
is of ``orjson.loads``.
"""

from __future__ import annotations

import argparse
import functools
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks._common import DATA, QUESTION, corpus_traces, table

if TYPE_CHECKING:
    from collections.abc import Callable

WORKLOADS = ("real", "generated", "bulk", "files")
MODES = ("whole", "core", "orjson")
# callgrind's --toggle-collect pattern: the reduce the child runs its passes in.
_REDUCE = "functools_reduce"


def _paths(workload: str, files: int) -> list[Path]:
    if workload == "real":
        folder = corpus_traces()
        if not folder.is_dir():
            msg = f"no real corpus at {folder} (set TRACEGRADE_CORPUS)"
            raise SystemExit(msg)
        paths = sorted(folder.rglob("*.json"))
    else:
        folder = DATA / ("generated" if workload == "generated" else "bulk-200")
        paths = sorted(folder.glob("*.json"))[:files]
        if not paths:
            what = "item 2" if workload == "generated" else "item 12"
            msg = f"no generated traces in {folder}: run `python -m benchmarks` once ({what})"
            raise SystemExit(msg)
    return paths


def _child(workload: str, mode: str, files: int, passes: int) -> None:
    """Run the passes of one workload inside ``functools.reduce`` (what callgrind collects)."""
    import orjson  # noqa: PLC0415 - the child only

    from tracegrade._engine import compiled_core  # noqa: PLC0415
    from tracegrade.suites import grade_runs  # noqa: PLC0415
    from tracegrade.traces import default_redactor  # noqa: PLC0415
    from tracegrade.verdicts import compiled_grade, grade_native  # noqa: PLC0415
    from tracegrade.verdicts._grade import NO_QUESTION  # noqa: PLC0415
    from tracegrade.verdicts._native import (  # noqa: PLC0415
        native_grader,
        prepared_question,
        redaction_patterns,
    )

    paths = _paths(workload, files)
    blobs = [path.read_bytes() for path in paths]
    core = compiled_core()
    if core is None:
        msg = "the compiled core is not selected (TRACEGRADE_CORE=python?)"
        raise SystemExit(msg)
    grader = native_grader(core)
    redactor = default_redactor()
    bulk = workload in ("bulk", "files")
    prepared = prepared_question(grader, NO_QUESTION if bulk else QUESTION)
    patterns = redaction_patterns(core, redactor) if bulk else None

    def whole(data: bytes) -> object:
        if bulk:
            return compiled_grade(data, auto=True, redactor=redactor)
        return grade_native(data, QUESTION)

    def core_call(data: bytes) -> object:
        return grader.grade(data, prepared, bulk, patterns)

    def every_file(_: object) -> object:
        for run in grade_runs(paths):
            if run.grade is None:
                msg = f"grade_runs did not grade {run.path}: {run.error}"
                raise SystemExit(msg)
        return None

    work: Callable[[Any], object] = {"whole": whole, "core": core_call, "orjson": orjson.loads}[
        mode
    ]
    items: list[Any] = list(blobs)
    if workload == "files" and mode == "whole":  # a pass is one call, over every file
        work, items = every_file, [paths]
    for item in items:  # warm: lazy tables, the DFA caches, the question's tuple
        work(item)
        work(item)

    def step(_: object, item: object) -> object:
        return work(item)

    functools.reduce(step, items * passes, None)


def _count(workload: str, mode: str, files: int, passes: int) -> int:
    """Instructions callgrind collected for ``passes`` passes of one workload and mode."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--toggle-collect={_REDUCE}",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--child",
            workload,
            mode,
            str(files),
            str(passes),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            tail = done.stderr.strip().splitlines()[-5:]
            msg = f"callgrind failed on {workload}/{mode}: " + " | ".join(tail)
            raise SystemExit(msg)
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instructions")
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=", ".join(WORKLOADS))
    parser.add_argument("--files", type=int, default=300, help="generated/bulk files (300)")
    parser.add_argument("--passes", type=int, default=5, help="passes counted (5)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        workload, mode, files, passes = args.child
        _child(workload, mode, int(files), int(passes))
        return
    unknown = sorted(set(args.workloads) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}: choose from {', '.join(WORKLOADS)}")
    if shutil.which("valgrind") is None:
        msg = "valgrind is not installed (Debian: apt-get install -y valgrind)"
        raise SystemExit(msg)
    rows = []
    for workload in args.workloads or WORKLOADS:
        counts = {mode: _count(workload, mode, args.files, args.passes) for mode in MODES}
        per_pass = {mode: count / args.passes for mode, count in counts.items()}
        loads = per_pass["orjson"]
        rows.append(
            [
                workload,
                f"{per_pass['whole'] / 1e6:,.2f}",
                f"{per_pass['core'] / 1e6:,.2f}",
                f"{loads / 1e6:,.2f}",
                f"{per_pass['whole'] / loads:.2f}",
                f"{per_pass['core'] / loads:.2f}",
            ]
        )
        print(f"[instructions] {workload} done", file=sys.stderr, flush=True)
    header = [
        "workload",
        "whole call, M instr/pass",
        "core call",
        "orjson.loads",
        "whole / orjson",
        "core / orjson",
    ]
    print("\n".join(table(header, rows)))
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(
        f"\n{args.passes} passes; generated and bulk: the first {args.files} files;"
        f" commit {head or 'unknown'}."
    )


if __name__ == "__main__":
    main()
