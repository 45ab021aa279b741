"""Item 3: the whole ``tracegrade grade SUITE --format tsv`` command vs interpreter start-up."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import Check, Section, table

CLI_TARGET_MS = 150.0
RUNS = 10
_START_UP = "python -c pass"
_COMMAND = "tracegrade grade SUITE --format tsv"
_COMPILING = "tracegrade grade SUITE --format tsv, compiling tracegrade's sources"

# The 8 cases of the post-5 suite (SPEC.md section 12.2); [suite] traces is filled in.
_SUITE = """\
[suite]
traces = {traces}

[[questions]]
id = "model-name"
facts = [{{id = "file", text = "agent/src/config.ts"}}, {{id = "value", text = "gpt-5-mini"}}]
truth_file = "agent/src/config.ts"
tell = "gpt-5-mini"

[[questions]]
id = "binary-extensions"
facts = [{{id = "file", text = "agent/src/tools/fs.ts"}}, {{id = "value", text = "avif"}}]
truth_file = "agent/src/tools/fs.ts"
tell = "avif"

[[questions]]
id = "file-count"
{cases}"""

_CASES = (
    ("01-not-an-agent/trace.json", "file-count", "ungraded", "ungradable", ""),
    ("02-hands/trace-a-precise.json", "model-name", "partial", "unevidenced", '"file"'),
    ("02-hands/trace-b-thin.json", "model-name", "failure", "unevidenced", ""),
    ("03-the-loop/trace.json", "model-name", "success", "undecidable", ""),
    ("03-the-loop/trace2-corpus-hit.json", "model-name", "success", "undecidable", ""),
    ("04-does-it-work/trace-a-model-name.json", "model-name", "success", "undecidable", ""),
    ("04-does-it-work/trace-b-binary.json", "binary-extensions", "success", "grounded", ""),
    (
        "05-moving-target/trace-retired-control.json",
        "binary-extensions",
        "success",
        "undecidable",
        "",
    ),
)


def suite_text(traces: Path) -> str:
    """The 8-case suite, its traces folder given as an absolute path."""
    cases = "".join(
        f'\n[[cases]]\ntrace = "{trace}"\nquestion = "{question}"\n'
        f'expect = {{answer = "{answer}", provenance = "{provenance}", unread = [{unread}]}}\n'
        for trace, question, answer, provenance, unread in _CASES
    )
    return _SUITE.format(traces=f'"{traces.resolve().as_posix()}"', cases=cases)


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, env=env)
    return time.perf_counter() - start, done


def _installed(cache: Path) -> dict[str, str]:
    """The environment of an installed tracegrade: every module read from its bytecode.

    pip compiles an installed package's bytecode; a checkout run with
    ``PYTHONDONTWRITEBYTECODE=1`` (as the project's shells are) compiles tracegrade's sources
    again on every start instead. The bytecode goes to ``cache`` (``PYTHONPYCACHEPREFIX``),
    not into the tree; the warm-up run writes it.
    """
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPYCACHEPREFIX": str(cache)}


def _compiling() -> dict[str, str]:
    """The environment as the checkout is run here: no bytecode written for tracegrade."""
    return dict(os.environ) | {"PYTHONDONTWRITEBYTECODE": "1"}


def _tracegrade() -> str:
    script = Path(sys.executable).parent / "tracegrade"
    return str(script) if script.is_file() else "tracegrade"


def import_times(
    argv: list[str], env: dict[str, str] | None = None, runs: int = 3
) -> list[tuple[str, int, int, int]]:
    """``python -X importtime ARGV``: per module, the fastest of ``runs`` runs.

    Returns:
        ``(module, nesting depth, self µs, cumulative µs)``, slowest cumulative first.
    """
    best: dict[str, tuple[int, int, int]] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", *argv],
            capture_output=True,
            check=False,
            text=True,
            env=env,
        )
        if done.returncode not in {0, 1}:  # 1: an expectation failed, the imports still ran
            message = f"-X importtime {argv}: exit {done.returncode}: {done.stderr[-300:]}"
            raise RuntimeError(message)
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "imported package" in line:
                continue
            own, cumulative, name = line.removeprefix("import time:").split("|")
            depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
            key = name.strip()
            row = (depth, int(own), int(cumulative))
            if key not in best or row[2] < best[key][2]:
                best[key] = row
    ranked = sorted(best.items(), key=lambda item: -item[1][2])
    return [(name, depth, own, cumulative) for name, (depth, own, cumulative) in ranked]


# Where a module's own import time goes, by the distribution that ships it.
_GROUPS = (
    ("tracegrade", ("tracegrade",)),
    ("pydantic", ("pydantic", "pydantic_core", "annotated_types", "typing_inspection")),
    ("click", ("click",)),
    ("orjson", ("orjson",)),
)


def _group(module: str) -> str:
    top = module.partition(".")[0]
    return next((name for name, tops in _GROUPS if top in tops), "standard library and other")


def _import_summary(argv: list[str], env: dict[str, str], label: str, top: int) -> list[str]:
    times = import_times(argv, env)
    rows = [
        [f"`{'  ' * depth}{name}`", depth, f"{own / 1000:.1f}", f"{cumulative / 1000:.1f}"]
        for name, depth, own, cumulative in times[:top]
    ]
    own_by_group: dict[str, list[int]] = {}
    for name, _, own, _ in times:
        own_by_group.setdefault(_group(name), []).append(own)
    total = sum(own for _, _, own, _ in times)
    groups = [
        [name, len(owns), f"{sum(owns) / 1000:.1f}", f"{sum(owns) / total:.0%}"]
        for name, owns in sorted(own_by_group.items(), key=lambda item: -sum(item[1]))
    ]
    return [
        (
            f"`python -X importtime {label}`: {len(times)} modules,"
            f" {total / 1000:.0f} ms of imports (fastest of 3 runs per module; -X importtime"
            f" itself slows imports). Top {top} by cumulative time:"
        ),
        "",
        *table(["module", "depth", "self ms", "cumulative ms"], rows),
        "",
        (
            "The same imports' self time by distribution (a module's self time includes the"
            " classes, pydantic models and patterns its body builds):"
        ),
        "",
        *table(["distribution", "modules", "self ms", "share"], groups),
    ]


def run_cli(traces: Path) -> Section:
    """Time the grade command, ``python -c pass`` and ``import tracegrade.cli``, interleaved.

    Each from bytecode, as installed; the grade command also compiling tracegrade's sources,
    as a checkout with ``PYTHONDONTWRITEBYTECODE=1`` runs it. Then what the command imports:
    ``python -X importtime`` over the command itself (its pipeline is imported inside the
    command, not by ``import tracegrade.cli``).
    """
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="tracegrade-bench-") as folder:
        suite = Path(folder) / "suite.toml"
        suite.write_text(suite_text(traces), encoding="utf-8")
        installed = _installed(Path(folder) / "bytecode")
        grade = [_tracegrade(), "grade", str(suite), "--format", "tsv"]
        commands = {
            _START_UP: ([python, "-c", "pass"], installed),
            'python -c "import tracegrade.cli"': (
                [python, "-c", "import tracegrade.cli"],
                installed,
            ),
            _COMMAND: (grade, installed),
            _COMPILING: (grade, _compiling()),
        }
        times: dict[str, list[float]] = {label: [] for label in commands}
        for argv, env in commands.values():  # warm the page cache, write the bytecode
            _run(argv, env)
        last: subprocess.CompletedProcess[bytes] | None = None
        for _ in range(RUNS):
            for label, (argv, env) in commands.items():
                seconds, last_run = _run(argv, env)
                times[label].append(seconds)
                if label == _COMMAND:
                    last = last_run
        imports = _import_summary(grade, installed, "tracegrade grade SUITE --format tsv", 15)
    if last is None:
        raise RuntimeError("the grade command never ran")
    rows_out = last.stdout.decode().count("\n") - 1
    medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
    start_up = medians[_START_UP]
    command = medians[_COMMAND]
    rows = [
        [
            f"`{label}`",
            f"{medians[label]:.0f}",
            f"{min(values) * 1000:.0f}",
            f"{medians[label] / start_up:.1f}x",
            f"{medians[label] - start_up:+.0f}",
        ]
        for label, values in times.items()
    ]
    body = [
        (
            f"Subprocesses, {RUNS} interleaved rounds after one warm-up; the suite is the"
            f" 8-case post-5 suite over the real traces (exit code {last.returncode},"
            f" {rows_out} TSV rows). Every module is read from bytecode, as from an installed"
            " package (a PYTHONPYCACHEPREFIX cache the warm-up writes), except in the last"
            " row, where tracegrade's own modules are compiled from source on each start, as"
            " a checkout run with PYTHONDONTWRITEBYTECODE=1 does."
        ),
        "",
        *table(["command", "median ms", "best ms", "vs start-up", "ms over start-up"], rows),
        "",
        (
            f"The command takes **{command:.0f} ms** (target ≤ {CLI_TARGET_MS:.0f} ms),"
            f" {command / start_up:.1f}x a bare interpreter start; the target is"
            f" {CLI_TARGET_MS / start_up:.1f}x it on this machine in this run."
        ),
        "",
        *imports,
    ]
    checks = (
        Check(
            "CLI: `tracegrade grade` 8-case suite, median ms",
            f"{command:.0f}",
            f"≤ {CLI_TARGET_MS:.0f}",
            command <= CLI_TARGET_MS and last.returncode == 0,
        ),
        Check("CLI: `python -c pass`, median ms", f"{start_up:.0f}"),
    )
    return Section("3. Command line", tuple(body), checks)
