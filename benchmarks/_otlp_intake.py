"""The OTLP intake's throughput, and the share of its time spent grading (issue #15).

Runs (``benchmarks/_otlp_runs.py``): a few hundred support-agent runs with two to four tool
calls each and an answer citing their figures, half OpenInference spans as OTLP JSON, half
OTel GenAI spans as protobuf, a few runs per request.

Intake: the app (web_latency's ``bench_app``: the example project's registry) is served by
uvicorn in a child process on 127.0.0.1 over a new SQLite file in a temporary folder; httpx
posts a warm-up request, then every request in turn over one keep-alive connection. Every
answer must be ``200`` with no rejected span, and every run must be stored read and graded.

Grading share: after the server stops, another child reads the stored runs back and grades
each in-process with ``grade_received`` (what the intake's grading child runs), with the
compiled core and with ``TRACEGRADE_CORE=python`` in alternating passes, and a sample once
more with ``bounded_grade`` (what the intake calls: a forked child per run, with its time
bound). Each time per run over the intake's time per run is a share; the rest is HTTP, OTLP
parsing, redaction, reading the spans as a run and the SQLite writes.

Run it alone: ``.venv/bin/python -m benchmarks._otlp_intake [--runs N]``; its section is
:func:`run_otlp_intake`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx  # noqa: TID251 - the benchmark is an HTTP client of the served app
import orjson
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from benchmarks._common import MB, REPO, Check, Section, size_text, table
from benchmarks._otlp_runs import JSON, make_runs, requests
from benchmarks.web_latency import served
from tracegrade.store import open_store
from tracegrade.web._intake import received_trace
from tracegrade.web._intake_bound import GradeLimits, bounded_grade
from tracegrade.web._intake_grade import grade_received

if TYPE_CHECKING:
    from benchmarks._otlp_runs import Request
    from tracegrade.traces import Trace

RUNS = 120
PER_REQUEST = 4
GRADE_PASSES = 3
BOUNDED_SAMPLE = 30  # runs graded through bounded_grade (a forked child each)
ENGINE = "TRACEGRADE_CORE"
ENGINES = (("compiled core", "compiled"), ("Python reference", "python"))


def _say(text: str) -> None:
    print(f"[otlp_intake] {text}", file=sys.stderr, flush=True)


def _rejected(request: Request, response: httpx.Response) -> int:
    """Spans the answer says were rejected (0 when every span was read and stored)."""
    if request.content_type == JSON:
        partial = response.json().get("partialSuccess", {})
        return int(partial.get("rejectedSpans", 0))
    answer = ExportTraceServiceResponse()
    answer.ParseFromString(response.content)
    return int(answer.partial_success.rejected_spans)


def _post(client: httpx.Client, request: Request) -> None:
    response = client.post(
        "/v1/traces", content=request.body, headers={"content-type": request.content_type}
    )
    if response.status_code != 200 or _rejected(request, response):
        msg = f"/v1/traces answered {response.status_code}: {response.text[:300]}"
        raise RuntimeError(msg)


def post_all(base_url: str, bodies: list[Request], warmup: Request | None = None) -> float:
    """Post ``warmup`` (untimed), then every request in turn: seconds to the last answer."""
    with httpx.Client(base_url=base_url, timeout=120) as client:
        if warmup is not None:
            _post(client, warmup)
        started = time.perf_counter()
        for request in bodies:
            _post(client, request)
        return time.perf_counter() - started


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
    bounded_grade(chosen[0], None, limits)  # starts the fork server, as the intake's warm-up did
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


def _grading_child(url: str) -> Grading:
    """:func:`time_grading` in a child process: its own fork server, a clean engine choice."""
    path = os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH"))))
    env = {**os.environ, ENGINE: "compiled", "PYTHONPATH": path}
    command = [sys.executable, "-m", "benchmarks._otlp_intake", "--grade", url]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        msg = f"the grading child failed: {done.stderr.decode(errors='replace')[-500:]}"
        raise RuntimeError(msg)
    return Grading(**orjson.loads(done.stdout))


def measure(runs: int, per_request: int) -> tuple[list[Request], float, Grading]:
    """Build the requests, serve the intake (compiled core), then grade what it stored.

    The first request is a warm-up (it starts the server's grading fork server), not timed;
    its runs are stored and graded like the others. Returns the timed requests, their
    intake seconds and the grading.
    """
    warmup, *bodies = requests(make_runs(runs + per_request), per_request)
    with tempfile.TemporaryDirectory(prefix="tracegrade-otlp-bench-") as folder:
        url = f"sqlite:///{Path(folder) / 'intake.db'}"
        _say(f"{len(bodies)} requests of {runs} runs to a served app")
        seconds = served(url, lambda base: post_all(base, bodies, warmup), {ENGINE: "compiled"})
        _say("grading the stored runs in a child process")
        return bodies, seconds, _grading_child(url)


def run_otlp_intake(runs: int = RUNS, per_request: int = PER_REQUEST) -> Section:
    """Item 13: OTLP intake throughput, and grading's share of the intake's time."""
    bodies, seconds, grading = measure(runs, per_request)
    size = sum(len(request.body) for request in bodies)
    intake_ms = seconds * 1000 / runs
    compiled = ENGINES[0][0]
    # The reference's intake is the compiled one with the compiled grading swapped for it.
    rows = []
    for label, _ in ENGINES:
        ms = intake_ms - grading.grade_ms[compiled] + grading.grade_ms[label]
        bounded = grading.bounded_ms - grading.grade_ms[compiled] + grading.grade_ms[label]
        rows.append(
            [
                label if label == compiled else f"{label} (estimated)",
                f"{1000 / ms:,.1f}",
                f"{size / runs * 1000 / ms / MB:,.2f}",
                f"{ms:,.1f}",
                f"{grading.grade_ms[label]:,.2f} ({grading.grade_cpu_ms[label]:,.2f})",
                f"{grading.grade_ms[label] / ms:.1%}",
                f"{bounded:,.1f}",
                f"{bounded / ms:.0%}",
            ]
        )
    json_share = sum(request.content_type == JSON for request in bodies) / len(bodies)
    intro = (
        f"{runs} agent runs (two to four tool calls each, the answer citing their figures) in"
        f" {len(bodies)} `POST /v1/traces` requests of {per_request} runs, {size_text(size)} in"
        f" all: {json_share:.0%} of the requests OpenInference spans as OTLP JSON, the rest OTel"
        " GenAI spans as protobuf (`benchmarks/_otlp_runs.py`). The app is served by uvicorn"
        " on 127.0.0.1 in a child process over a new SQLite file; httpx posts one warm-up"
        " request, then the timed ones in turn over one connection (runs/s, MB/s and intake"
        " ms/run: wall time from the first timed request to the last answer). Every answer is"
        " `200` with no rejected span. Then another child reads the stored runs back and"
        " grades them in-process, timed there (no hook in the server): `grade_received`, what"
        " the intake's grading child computes, with each engine (passes alternating, best of"
        f" {GRADE_PASSES} over every stored run; CPU time in brackets), and `bounded_grade`,"
        " what the intake calls for each run (a child forked per run with its 20 s bound;"
        f" {grading.bounded_runs} runs sampled). A share is that time per run over the"
        " intake's time per run; the rest of the intake is HTTP, OTLP parsing, redaction,"
        " reading the spans as a run and the SQLite writes. All are wall times on a shared"
        " machine, the intake's and `bounded_grade`'s measured one after the other, so a"
        " share near 100% may read a little above it. The intake is served with the"
        " compiled core only (a second served intake would double the item's time); the"
        " Python reference's row is that intake with the compiled `grade_received` time"
        " replaced by the reference's."
    )
    body = (
        intro,
        "",
        *table(
            [
                "engine",
                "runs/s",
                "MB/s",
                "intake ms/run",
                "grade_received ms/run (CPU)",
                "grading share",
                "bounded_grade ms/run",
                "share with the child",
            ],
            rows,
        ),
    )
    sent = runs + per_request
    checks = (
        Check(
            "OTLP intake: runs stored read and graded",
            f"{grading.runs}/{sent}",
            f"{sent}/{sent}",
            grading.runs == sent,
        ),
        Check("OTLP intake throughput (compiled core)", f"{runs / seconds:,.1f} runs/s"),
        Check(
            "OTLP intake: grading's share (with the grading child)",
            f"{grading.grade_ms[compiled] / intake_ms:.1%} ({grading.bounded_ms / intake_ms:.0%})",
        ),
    )
    return Section("13. OTLP intake: throughput and the grading share", body, checks)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks._otlp_intake", description=__doc__)
    parser.add_argument("--runs", type=int, default=RUNS, help=f"default {RUNS}")
    parser.add_argument("--grade", metavar="URL", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.grade:
        sys.stdout.buffer.write(orjson.dumps(asdict(time_grading(options.grade))))
        return
    section = run_otlp_intake(options.runs)
    print(f"## {section.title}\n")
    print("\n".join(section.body))
    for check in section.checks:
        print(f"\n- {check.metric}: {check.value} (target {check.target}, {check.status})", end="")
    print()


if __name__ == "__main__":
    main()
