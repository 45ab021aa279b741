"""The OTLP intake's throughput, and the share of its time spent grading (issue #15).

Runs (``benchmarks/_otlp_runs.py``): a few hundred support-agent runs with two to four tool
calls each and an answer citing their figures, half OpenInference spans as OTLP JSON, half
OTel GenAI spans as protobuf, a few runs per request.

Intake: the real command, ``tracegrade serve --project examples/project --store URL``
(the console script beside the interpreter), runs in a child process on 127.0.0.1 over a new
SQLite file in a temporary folder; httpx posts a warm-up request, then every request in turn
over one keep-alive connection. Every answer must be ``200`` with no rejected span, and
every run must be stored read and graded.

Grading share: after the server stops, another child reads the stored runs back and grades
each in-process with ``grade_received`` (what the intake's grading child runs), with the
compiled core and with ``TRACEGRADE_CORE=python`` in alternating passes, and a sample once
more with ``bounded_grade`` (what the intake calls: a warm grading child, with its time
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
from pathlib import Path
from typing import TYPE_CHECKING

import httpx  # noqa: TID251 - the benchmark is an HTTP client of the served app
import orjson
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from benchmarks._common import MB, REPO, Check, Section, print_section, size_text, table
from benchmarks._otlp_grading import ENGINE, ENGINES, GRADE_PASSES, Grading
from benchmarks._otlp_runs import JSON, make_runs, requests
from benchmarks.web_latency import _free_port, _wait_ready

if TYPE_CHECKING:
    from collections.abc import Callable

    from benchmarks._otlp_runs import Request

EXAMPLE = REPO / "examples" / "project"
RUNS = 200
PER_REQUEST = 4


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


def _environment() -> dict[str, str]:
    """This environment with the compiled core, and the repository ahead of a set PYTHONPATH."""
    path = os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH"))))
    return {**os.environ, ENGINE: "compiled", "PYTHONPATH": path}


def served_cli(url: str, work: Callable[[str], float]) -> float:
    """Run ``work(base_url)`` against ``tracegrade serve`` (the console script) over ``url``.

    The real command, not an app built here: the intake's grading children re-run the
    server's ``__main__``, which is the console script's for a user.
    """
    script = Path(sys.executable).with_name("tracegrade")
    program = [str(script)] if script.exists() else [sys.executable, "-m", "tracegrade"]
    port = _free_port()
    command = [*program, "serve", "--project", str(EXAMPLE), "--store", url, "--port", str(port)]
    child = subprocess.Popen(command, cwd=REPO, env=_environment(), stdout=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base_url, child, path="/api/traces")
        return work(base_url)
    finally:
        child.terminate()
        child.wait(timeout=30)


def _grading_child(url: str) -> Grading:
    """:func:`time_grading` in a child process: its own fork server, a clean engine choice."""
    command = [sys.executable, "-m", "benchmarks._otlp_grading", url]
    done = subprocess.run(command, cwd=REPO, env=_environment(), capture_output=True, check=False)
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
        seconds = served_cli(url, lambda base: post_all(base, bodies, warmup))
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
        " GenAI spans as protobuf (`benchmarks/_otlp_runs.py`). `tracegrade serve` (the"
        " console script, the example project's registry) runs on 127.0.0.1 in a child"
        " process over a new SQLite file; httpx posts one warm-up"
        " request, then the timed ones in turn over one connection (runs/s, MB/s and intake"
        " ms/run: wall time from the first timed request to the last answer). Every answer is"
        " `200` with no rejected span. Then another child reads the stored runs back and"
        " grades them in-process (`benchmarks/_otlp_grading.py`, timed there: the server has"
        " no hook): `grade_received`, what"
        " the intake's grading child computes, with each engine (passes alternating, best of"
        f" {GRADE_PASSES} over every stored run; CPU time in brackets), and `bounded_grade`,"
        " what the intake calls for each run (a warm grading child with its 20 s bound;"
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
    options = parser.parse_args()
    section = run_otlp_intake(options.runs)
    print_section(section)


if __name__ == "__main__":
    main()
