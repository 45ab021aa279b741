"""Run every benchmark and write the report: ``.venv/bin/python -m benchmarks``.

Items: (1) the real traces graded in memory against ``orjson.loads``; (2) a generated
100+ MB corpus streamed one file at a time, with memory; (3) the ``tracegrade grade``
command against interpreter start-up; then cProfile hot spots; (5) unsourced figures on
FaithBench; (6) the runtime guard's check cost against history length, and against a naive
rebuild; (7) the guard replayed over real tau-bench and tau2 airline runs; (8) reading each
trace format from a generated ~50 MB file against ``orjson.loads``; (9) the eval runner's
overhead and parallel speed-up; (10) web page and API latency at 100,000 stored results
against a trivial route (also ``python -m benchmarks.web_latency``); (11) zero-config grading:
claims extracted with no question file, on FaithBench, nine-commits and tau-bench, and their
cost against grading with a question; (12) grading with no question file: MB/s against
``orjson.loads``, and a 200+ MB folder on the process pool and on Ray, 2 workers against 1
(also ``python -m benchmarks._bulk``); (13) the OTLP intake: runs/s and MB/s over a served
app into SQLite, and grading's share of its time (also ``python -m benchmarks._otlp_intake``);
(14) the compiled core's native path stage by stage against the Python pipeline. Items 1, 3
and 14 need the real corpus (``$TRACEGRADE_CORPUS/nine-commits/traces``), item 5
``$TRACEGRADE_CORPUS/faithbench/faithbench.jsonl``, item 7 ``$TRACEGRADE_CORPUS/tau_bench``;
each is skipped without it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from importlib.metadata import version
from typing import TYPE_CHECKING

from benchmarks._bulk import run_bulk
from benchmarks._claims import run_claims
from benchmarks._cli import run_cli
from benchmarks._common import DATA, REPO, Check, Section, corpus_traces, table
from benchmarks._faithbench import run_faithbench
from benchmarks._guard import run_guard
from benchmarks._native_stages import run_native_stages
from benchmarks._otlp_intake import run_otlp_intake
from benchmarks._profile import lower_cost, run_profile
from benchmarks._readers import run_readers
from benchmarks._real import load_blobs, run_real
from benchmarks._runner import run_runner
from benchmarks._stream import run_stream
from benchmarks._taubench import run_taubench
from benchmarks.web_latency import run_web_latency

if TYPE_CHECKING:
    from collections.abc import Callable

RESULTS = REPO / "benchmarks" / "RESULTS.md"


def _nproc() -> str:
    try:
        return subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(os.cpu_count())


def _revision() -> str:
    """The commit measured, and whether src/ had uncommitted changes."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--", "src")
    except OSError:
        return "unknown (no git)"
    if not head:
        return "unknown (not a git checkout)"
    return f"commit `{head}`" + (" with uncommitted changes in `src/`" if dirty else "")


def _command() -> str:
    python = sys.executable
    if python.startswith(os.getcwd() + os.sep):
        python = os.path.relpath(python)
    return " ".join([python, "-m", "benchmarks", *sys.argv[1:]])


def _say(text: str) -> None:
    print(f"[benchmarks] {text}", file=sys.stderr, flush=True)


def _skipped(title: str, folder: os.PathLike[str]) -> Section:
    return Section(
        title,
        (
            (
                f"Skipped: the real corpus is not at `{folder}`. Set `TRACEGRADE_CORPUS` to the"
                " folder that holds `nine-commits/` to run this item."
            ),
        ),
    )


def _hot_spots(real: list[tuple[str, bytes]] | None, generated: list[tuple[str, bytes]]) -> Section:
    """cProfile of the real traces (of generated ones without the corpus), and lower-casing."""
    if real is not None:
        body = [*run_profile(real, 40, "the real traces"), "", *lower_cost(real)]
    else:
        label = f"the first {len(generated)} generated traces"
        body = [*run_profile(generated, 1, label), "", *lower_cost(generated)]
    return Section("4. Hot spots", tuple(body))


def render(sections: list[Section], header: list[str]) -> str:
    """The Markdown report: header, summary of headline numbers, then each section."""
    checks: list[Check] = [check for section in sections for check in section.checks]
    lines = [
        *header,
        "",
        "## Summary",
        "",
        *table(
            ["metric", "result", "target", "status"],
            [[c.metric, c.value, c.target, c.status] for c in checks],
        ),
    ]
    for section in sections:
        lines += ["", f"## {section.title}", "", *section.body]
    return "\n".join(lines) + "\n"


# Items 5 on need nothing from the items before them: (what the progress line says, the item).
_SELF_CONTAINED: tuple[tuple[str, Callable[[], Section]], ...] = (
    ("5. unsourced figures on FaithBench", run_faithbench),
    ("6. runtime guard: check cost vs history length", run_guard),
    ("7. guard replay on tau-bench and tau2 airline runs", run_taubench),
    ("8. reading each trace format (~50 MB generated files)", run_readers),
    ("9. eval runner: overhead into SQLite and PostgreSQL, Ray and process-pool speed-up",
     run_runner),
    ("10. web UI and API latency at 100,000 stored case results (SQLite)", run_web_latency),
    ("11. zero-config grading: extracted claims on FaithBench, nine-commits, tau-bench; cost",
     run_claims),
    ("12. grading with no question file: speed, 2 workers vs 1", run_bulk),
    ("13. OTLP intake: throughput and the grading share", run_otlp_intake),
    ("14. the compiled core's native path, stage by stage", run_native_stages),
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--corpus-mb", type=int, default=100, help="generated corpus size in MB (default 100)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.5,
        help="seconds of grading for the real-trace timing (default 2.5)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; keep RESULTS.md")
    options = parser.parse_args()

    started = time.perf_counter()
    traces = corpus_traces()
    have_corpus = traces.is_dir()
    sections: list[Section] = []
    real: list[tuple[str, bytes]] | None = None
    if have_corpus:
        _say(f"1. real traces from {traces}")
        sections.append(run_real(traces, options.seconds))
        real = load_blobs(traces)
    else:
        _say(f"1. skipped: no real corpus at {traces}")
        sections.append(_skipped("1. Real traces, in memory", traces))

    folder = DATA / "generated"
    _say(f"2. generated corpus ({options.corpus_mb} MB) in {folder}")
    sections.append(run_stream(folder, options.corpus_mb * 1_000_000))

    if have_corpus:
        _say("3. command line")
        sections.append(run_cli(traces))
    else:
        _say("3. skipped: no real corpus")
        sections.append(_skipped("3. Command line", traces))

    _say("4. hot spots (cProfile)")
    sample = [(path.name, path.read_bytes()) for path in sorted(folder.glob("*.json"))[:300]]
    sections.append(_hot_spots(real, sample))

    for label, run in _SELF_CONTAINED:
        _say(label)
        sections.append(run())

    elapsed = time.perf_counter() - started
    header = [
        "# tracegrade benchmarks",
        "",
        (
            "Run from the repository root: `.venv/bin/python -m benchmarks` (options:"
            " `--corpus-mb N`, `--seconds S`, `--no-write`). It prints this report and writes it to"
            " `benchmarks/RESULTS.md`; the generated corpus is kept in `benchmarks/.data/`"
            " (git-ignored) and reused while the generator version is unchanged."
        ),
        "",
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        (
            f"- machine: `nproc` = {_nproc()}, {platform.system()} {platform.machine()},"
            f" Python {platform.python_version()} ({platform.python_implementation()}),"
            f" orjson {version('orjson')}, pydantic {version('pydantic')}"
        ),
        f"- tracegrade: {_revision()}",
        f"- command: `{_command()}` (whole run {elapsed:.0f} s)",
        (
            "- MB = 10^6 bytes. Ratios are measured within the same run and are steadier than"
            " absolute times on a shared machine."
        ),
    ]
    report = render(sections, header)
    print(report, end="")
    if not options.no_write:
        RESULTS.write_text(report, encoding="utf-8")
        _say(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
