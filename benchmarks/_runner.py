"""Item 9: the eval runner: its overhead against a plain loop, and parallel executors.

(a) 10,000 cases of a ``callable`` touchpoint (10 repeats of 1,000 cases; each case grades one
generated trace against the model-name question) through :func:`run_evals` into SQLite (a
temporary file) and into PostgreSQL, against the same grading in a plain Python loop, in the
same run. PostgreSQL is ``$TRACEGRADE_TEST_POSTGRES_URL``, else one started with
``scripts/postgres``; the row is skipped, with the reason, when neither works.

(b) CPU-bound grading (32 units of 250 cases) through Ray on this machine with 2 workers
against 1 worker, and through the process pool with 2 workers against 1, into a SQLite file
and into ``InMemoryStore`` (the same SQL on SQLite in memory: the executors without a file's
cost of storing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks._common import QUESTION, REPO, Check, Section, table
from benchmarks._generate import SEED, _pools, generate_trace
from tracegrade.evals import (
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    Touchpoint,
    TouchpointEntry,
    load_project,
)
from tracegrade.evals import run_evals as run_evals_
from tracegrade.evals._outcomes import CaseOutcome
from tracegrade.store import InMemoryStore, Store, open_store
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.evals import Executor, Project

OVERHEAD_TARGET = 1.5
SPEEDUP_TARGET = 1.6
TRACES = 200
CASES = 10_000
REPEATS = 10
PARALLEL_UNITS = 32
PARALLEL_CASES = 250
PARALLEL_TRIES = 3
RAY_ROUNDS = 2  # local Ray instances started per worker count, alternating


@dataclass(frozen=True)
class GradeTraces:
    """A suite function: each case grades one trace (module level, so workers can load it)."""

    blobs: tuple[bytes, ...]
    cases: int

    def __call__(self, repeat: int) -> Iterator[CaseOutcome]:
        for number in range(self.cases):
            data = self.blobs[(repeat * self.cases + number) % len(self.blobs)]
            verdict = grade(parse_native_trace(data), QUESTION)
            outcome = "passed" if verdict.answer != "failure" else "failed"
            yield CaseOutcome(case=f"case{number:05d}", outcome=outcome)


def _blobs() -> tuple[bytes, ...]:
    pools = _pools(SEED)
    return tuple(generate_trace(index, pools)[1] for index in range(TRACES))


def _project(folder: Path, suite: GradeTraces, repeats: int) -> Project:
    contract = Touchpoint.model_validate(
        {
            "id": "grade_traces",
            "kind": "agent_recipe",
            "owner": "benchmarks",
            "suite_kind": "callable",
            "call": "benchmarks._runner:GradeTraces",
            "severity_on_fail": "info",
            "repeats": repeats,
        }
    )
    path = folder / "tracegrade.toml"
    path.write_text("", encoding="utf-8")
    entry = TouchpointEntry(contract, "python benchmarks._runner:GradeTraces", suite)
    return load_project(path, registered=(entry,))


def _through_runner(project: Project, url: str | None, executor: Executor | None = None) -> float:
    store: Store = InMemoryStore() if url is None else open_store(url)
    try:
        start = time.perf_counter()
        report = run_evals_(project, store, executor=executor)
        seconds = time.perf_counter() - start
        stored = len(store.case_results(report.run_id))
    finally:
        store.close()
    expected = sum(t.results for t in report.touchpoints)
    if stored != expected or stored == 0:
        msg = f"the run stored {stored} results, expected {expected}"
        raise RuntimeError(msg)
    return seconds


def _plain(suite: GradeTraces, repeats: int) -> float:
    start = time.perf_counter()
    for repeat in range(repeats):
        for _ in suite(repeat):
            pass
    return time.perf_counter() - start


def _postgres() -> tuple[str | None, str, Path | None]:
    """A PostgreSQL URL, how it was found, and the folder of a server started here."""
    url = os.environ.get("TRACEGRADE_TEST_POSTGRES_URL")
    if url:
        return url, "$TRACEGRADE_TEST_POSTGRES_URL", None
    folder = Path(tempfile.mkdtemp(prefix="tracegrade-bench-pg."))
    try:
        done = subprocess.run(
            [str(REPO / "scripts" / "postgres"), "start", str(folder)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"scripts/postgres could not run ({exc})", None
    if done.returncode != 0:
        _stop_postgres(folder)
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"scripts/postgres start failed ({last})", None
    return done.stdout.strip(), "started with scripts/postgres", folder


def _stop_postgres(folder: Path) -> None:
    subprocess.run(
        [str(REPO / "scripts" / "postgres"), "stop", str(folder)],
        capture_output=True,
        timeout=60,
        check=False,
    )


def _overhead(blobs: tuple[bytes, ...], folder: Path) -> tuple[list[str], list[Check]]:
    suite = GradeTraces(blobs, CASES // REPEATS)
    project = _project(folder, suite, REPEATS)
    rows: list[list[object]] = []
    checks: list[Check] = []
    notes: list[str] = []
    url, how, server = _postgres()
    targets = [("SQLite (temporary file)", f"sqlite:///{folder}/runner.db")]
    if url is not None:
        targets.append((f"PostgreSQL ({how})", url))
    else:
        notes.append(f"PostgreSQL row skipped: {how}.")
    try:
        for label, target in targets:
            ratios: list[float] = []
            plain_times: list[float] = []
            runner_times: list[float] = []
            for _ in range(2 if target.startswith("sqlite") else 1):  # alternating pairs
                plain_times.append(_plain(suite, REPEATS))
                runner_times.append(_through_runner(project, target))
                ratios.append(runner_times[-1] / plain_times[-1])
            ratio = min(ratios)
            rows.append(
                [
                    label,
                    f"{min(plain_times):.2f}",
                    f"{min(runner_times):.2f}",
                    f"{min(runner_times) / CASES * 1e6:,.0f}",
                    f"{(min(runner_times) - min(plain_times)) / CASES * 1e6:,.0f}",
                    f"{ratio:.2f}x (worst {max(ratios):.2f}x)",
                ]
            )
            checks.append(
                Check(
                    f"runner overhead, {label.split(' ')[0]} (10,000 cases)",
                    f"{ratio:.2f}x",
                    f"<= {OVERHEAD_TARGET}x",
                    ratio <= OVERHEAD_TARGET,
                )
            )
    finally:
        if server is not None:
            _stop_postgres(server)
    body = [
        (
            f"{CASES:,} cases ({REPEATS} repeats of {CASES // REPEATS:,}) of a `callable`"
            f" touchpoint; each case grades one of {TRACES} generated traces"
            f" ({sum(map(len, blobs)) / len(blobs) / 1000:.1f} KB on average) against the"
            " model-name question. The plain loop grades the same cases and keeps nothing; the"
            " runner stores each unit's results in one transaction, then judges the run. Two"
            " alternating pairs for SQLite, one for PostgreSQL; the best pair's times and ratio."
        ),
        "",
        *table(
            [
                "store",
                "plain loop s",
                "runner s",
                "runner µs/case",
                "added µs/case",
                "runner / plain",
            ],
            rows,
        ),
    ]
    if notes:
        body += ["", *notes]
    return body, checks


def _parallel(blobs: tuple[bytes, ...], folder: Path) -> tuple[list[str], list[Check]]:
    suite = GradeTraces(blobs, PARALLEL_CASES)
    project = _project(folder, suite, PARALLEL_UNITS)
    count = [0]

    def timed(executor: Executor, *, memory: bool) -> float:
        count[0] += 1
        url = None if memory else f"sqlite:///{folder}/parallel{count[0]}.db"
        return _through_runner(project, url, executor)

    rows: list[list[object]] = []
    checks: list[Check] = []
    stores = {False: "SQLite", True: "in memory"}
    times: dict[tuple[str, int, bool], float] = {}

    # Every configuration runs once per round, round after round, and keeps its best time:
    # a shared machine's load drifts, and running one configuration's tries back to back
    # would hand that drift to the ratio.
    timed(ProcessExecutor(2), memory=True)  # warm: start the pool's fork server
    for _ in range(PARALLEL_TRIES):
        for memory in stores:
            _keep(times, ("sequential", 1, memory), timed(LocalExecutor(), memory=memory))
            for workers in (1, 2):
                seconds = timed(ProcessExecutor(workers), memory=memory)
                _keep(times, ("pool", workers, memory), seconds)
    skipped = _ray_times(timed, times)
    notes = [] if skipped is None else [f"Ray rows skipped: {skipped}."]
    labels = {
        "sequential": "in this process, one unit after another",
        "pool": "process pool (fork server)",
        "ray": "Ray, local instance (a CPU per worker)",
    }
    for memory, store in stores.items():
        sequential = times["sequential", 1, memory]
        for (kind, workers, in_memory), seconds in times.items():
            if in_memory != memory:
                continue
            speedup = ""
            if workers == 2:
                ratio = times[kind, 1, memory] / seconds
                speedup = f"{ratio:.2f}x"
                name = "Ray local" if kind == "ray" else "process pool"
                checks.append(
                    Check(
                        f"{name}, 2 workers vs 1, CPU-bound grading into {store}",
                        speedup,
                        f">= {SPEEDUP_TARGET}x",
                        ratio >= SPEEDUP_TARGET,
                    )
                )
            rows.append(
                [
                    store,
                    labels[kind],
                    str(workers),
                    f"{seconds:.2f}",
                    f"{sequential / seconds:.2f}x",
                    speedup,
                ]
            )
    body = [
        (
            f"{PARALLEL_UNITS} units of {PARALLEL_CASES} cases ({PARALLEL_UNITS * PARALLEL_CASES:,}"
            " gradings) through `run_evals`; this process stores every result. The process"
            " pool's times include forking its workers from the fork server (started, and"
            " tracegrade imported in it, by one warm-up run; a first run in a process pays"
            " about 0.6 s more); Ray's exclude `ray.init` (a local instance with as many CPUs"
            " as workers, as `tracegrade run --executor ray --workers N` starts it, warmed by"
            f" one run). Each time is the best of {PARALLEL_TRIES} runs (Ray: {RAY_ROUNDS}"
            f" instances of each size, started in turn, {PARALLEL_TRIES - 1} runs each),"
            " every configuration running once per round so that the machine's drifting load"
            " falls on all of them."
        ),
        "",
        *table(
            ["store", "executor", "workers", "seconds", "vs one at a time", "2 vs 1 worker"], rows
        ),
    ]
    if notes:
        body += ["", *notes]
    return body, checks


def _keep(
    times: dict[tuple[str, int, bool], float], key: tuple[str, int, bool], seconds: float
) -> None:
    times[key] = min(times.get(key, float("inf")), seconds)


def _ray_times(
    timed: Callable[..., float], times: dict[tuple[str, int, bool], float]
) -> str | None:
    """Ray's best times, each worker count on its own instances, in turn; or why not."""
    for _ in range(RAY_ROUNDS):
        for workers in (1, 2):
            # As `tracegrade run --executor ray --workers N` starts it: a local instance of N
            # CPUs, started again each round (the time excludes starting it).
            ray_started = ray_start(workers)
            if isinstance(ray_started, str):
                return ray_started
            try:
                executor = RayExecutor(workers=workers)
                timed(executor, memory=True)  # warm: start the workers
                for _ in range(PARALLEL_TRIES - 1):
                    for memory in (False, True):
                        _keep(times, ("ray", workers, memory), timed(executor, memory=memory))
            finally:
                ray_started.shutdown()
    return None


def ray_start(cpus: int) -> Any | str:  # noqa: ANN401 - ray has no stubs
    """The ray module with a local instance of ``cpus`` CPUs started, or why not."""
    try:
        import ray  # noqa: PLC0415 - optional, and slow to import
    except ImportError:
        return "Ray is not installed (the ray extra)"
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # else Ray 2.60 writes ~/.ray/auth_token
    try:
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # noqa: BLE001 - any failure to start means "skip", with why
        return f"a local Ray instance cannot start ({type(exc).__name__}: {exc})"
    return ray


def run_runner() -> Section:
    """Item 9: runner overhead into SQLite and PostgreSQL; parallel executors' speed-up."""
    blobs = _blobs()
    with tempfile.TemporaryDirectory(prefix="tracegrade-bench-runner.") as name:
        folder = Path(name)
        (folder / "overhead").mkdir()
        (folder / "parallel").mkdir()
        overhead, first = _overhead(blobs, folder / "overhead")
        parallel, second = _parallel(blobs, folder / "parallel")
    body = ["### Runner overhead", "", *overhead, "", "### Parallel executors", "", *parallel]
    return Section("9. Eval runner", tuple(body), (*first, *second))
