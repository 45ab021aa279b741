"""The results UI and API: page and route latency with 100,000 stored case results in SQLite.

Fill (``benchmarks/_web_fill.py``): 100,000 case results made from the example project's
own results, over 20 touchpoints and 1,000 runs, and 1,000 traces received over OTLP. The
filled file is kept in ``benchmarks/.data/`` (git-ignored) and reused while ``FILL_VERSION``
and the store's schema are unchanged.

Measure: the app (``create_app`` over that file and the example project) is served by
uvicorn in a child process on 127.0.0.1; httpx requests every route in turn, round after
round, so the routes share the machine's load. A trivial route added to the same app
(``/__bench/ping``, plain text) is the baseline: each route's median is also given as a
multiple of the baseline's median measured in the same rounds. ``POST /v1/traces`` sends a
new run each round, so each run of the benchmark adds a few dozen received traces to the
kept file.

Run it alone: ``.venv/bin/python -m benchmarks.web_latency [--rounds N] [--refill]``; its
section is :func:`run_web_latency`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx  # noqa: TID251 - the benchmark is an HTTP client of the served app
import orjson

from benchmarks._common import DATA, REPO, Check, Section, print_section, table
from benchmarks._web_fill import (
    EXAMPLE,
    RECEIVED,
    RESULTS,
    TOUCHPOINTS,
    example_templates,
    fill,
    fill_received,
    otlp_export,
    touchpoint_ids,
)
from tracegrade.evals import load_project
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from fastapi import FastAPI

FILL_VERSION = 2
TARGET_MS = 300.0
ROUNDS = 30
MIN_ROUNDS = 5
BUDGET_S = 300.0  # after this many seconds of requests, rounds stop (never before MIN_ROUNDS)
WARMUP_ROUNDS = 2
PING = "/__bench/ping"


def _say(text: str) -> None:
    print(f"[web_latency] {text}", file=sys.stderr, flush=True)


def _schema_key() -> str:
    """A hash of the store's schema: a filled file from another schema is filled again."""
    schema = REPO / "src" / "tracegrade" / "store" / "_schema.py"
    return hashlib.sha256(schema.read_bytes()).hexdigest()[:8]


def filled_store(*, refill: bool = False) -> tuple[Path, str, float | None]:
    """The filled SQLite file (made now, or kept from an earlier run), and fill seconds."""
    path = DATA / f"web-latency-v{FILL_VERSION}-{_schema_key()}.db"
    marker = path.with_suffix(".done")
    if marker.exists() and path.exists() and not refill:
        return path, f"sqlite:///{path}", None
    DATA.mkdir(parents=True, exist_ok=True)
    for stale in (
        path,
        marker,
        path.with_name(path.name + "-wal"),
        path.with_name(path.name + "-shm"),
    ):
        stale.unlink(missing_ok=True)
    url = f"sqlite:///{path}"
    _say("running the example project for templates")
    templates = example_templates()
    _say(f"filling {path} with {RESULTS:,} case results")
    started = time.perf_counter()
    store = open_store(url)
    try:
        runs = fill(store, templates)
        fill_received(store, [clone for clone, _ in touchpoint_ids(templates)])
    finally:
        store.close()
    seconds = time.perf_counter() - started
    marker.write_text(f"{len(runs)} runs\n", encoding="utf-8")
    return path, url, seconds


def bench_app(url: str) -> FastAPI:
    """The app over the filled store and the example project, with the baseline route."""
    from fastapi.responses import PlainTextResponse  # noqa: PLC0415 - the child's imports

    from tracegrade.web import create_app  # noqa: PLC0415

    app = create_app(open_store(url), project=load_project(EXAMPLE, registered=()))

    @app.get(PING, response_class=PlainTextResponse, include_in_schema=False)
    def ping() -> str:
        return "ok"

    return app


def _serve(url: str, port: int) -> None:
    import uvicorn  # noqa: PLC0415 - the child's imports

    uvicorn.run(bench_app(url), host="127.0.0.1", port=port, log_level="warning", access_log=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True, slots=True)
class Timing:
    """One route's request times in seconds."""

    label: str
    path: str
    seconds: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    @property
    def p95_ms(self) -> float:
        return statistics.quantiles(self.seconds, n=20, method="inclusive")[18] * 1000


OTLP = "/v1/traces"


def _targets(client: httpx.Client) -> list[tuple[str, str]]:
    """The routes measured, with ids of the newest run and of a case of a real touchpoint."""
    runs = client.get("/api/runs").raise_for_status().json()
    run_id = runs[0]["run"]["run_id"]
    view = client.get(f"/api/runs/{run_id}", params={"touchpoint": "refund_window_grader"})
    case_id = view.raise_for_status().json()["cases"][0]["id"]
    trace_id = client.get("/api/traces").raise_for_status().json()[0]["trace_id"]
    return [
        ("baseline: trivial route", PING),
        ("registry page", "/"),
        ("touchpoint page", "/touchpoints/refund_window_grader"),
        ("run page", f"/runs/{run_id}"),
        ("case page", f"/cases/{case_id}"),
        ("GET /api/touchpoints", "/api/touchpoints"),
        ("GET /api/runs", "/api/runs"),
        ("GET /api/runs/{id}", f"/api/runs/{run_id}"),
        ("GET /api/cases/{id}", f"/api/cases/{case_id}"),
        ("received traces page", "/traces"),
        ("GET /api/traces/{id}", f"/api/traces/{trace_id}"),
        ("POST /v1/traces (a new 2-span run, JSON)", OTLP),
    ]


def _request(client: httpx.Client, path: str, number: int) -> httpx.Response:
    """GET the route; the receiver gets a new run each time (a trace id never sent before)."""
    if path != OTLP:
        return client.get(path)
    trace_id = f"{os.getpid():08x}{time.time_ns():024x}"[-32:]
    body = orjson.dumps(otlp_export(trace_id, number, "refund_window_grader"))
    return client.post(path, content=body, headers={"content-type": "application/json"})


def measure(base_url: str, rounds: int = ROUNDS, budget: float = BUDGET_S) -> list[Timing]:
    """Request every route once a round, in a rotating order; warm-up rounds are dropped.

    Rounds stop early when ``budget`` seconds have passed and ``MIN_ROUNDS`` are measured.
    """
    started = time.perf_counter()
    with httpx.Client(base_url=base_url, timeout=120) as client:
        targets = _targets(client)
        times: dict[str, list[float]] = {path: [] for _, path in targets}
        for number in range(WARMUP_ROUNDS + rounds):
            measured = number - WARMUP_ROUNDS
            if measured >= MIN_ROUNDS and time.perf_counter() - started > budget:
                _say(f"stopping after {measured} rounds: the {budget:.0f} s budget is spent")
                break
            _say(f"round {measured + 1} of {rounds}" if measured >= 0 else "warm-up round")
            shift = number % len(targets)
            for _, path in targets[shift:] + targets[:shift]:
                start = time.perf_counter()
                response = _request(client, path, number)
                elapsed = time.perf_counter() - start
                if response.status_code != 200:
                    msg = f"{path} answered {response.status_code}: {response.text[:200]}"
                    raise RuntimeError(msg)
                if number >= WARMUP_ROUNDS:
                    times[path].append(elapsed)
    return [Timing(label, path, tuple(times[path])) for label, path in targets]


def _wait_ready(
    base_url: str, child: subprocess.Popen[bytes], seconds: float = 60, path: str = PING
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if child.poll() is not None:
            msg = f"the server exited with {child.returncode}"
            raise RuntimeError(msg)
        try:
            if httpx.get(base_url + path, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    msg = "the server did not answer within a minute"
    raise RuntimeError(msg)


def served(url: str, work: Callable[[str], list[Timing]]) -> list[Timing]:
    """Run ``work(base_url)`` against the app served by uvicorn in a child process."""
    port = _free_port()
    command = [sys.executable, "-m", "benchmarks.web_latency", "--serve", url, "--port", str(port)]
    child = subprocess.Popen(command, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base_url, child)
        return work(base_url)
    finally:
        child.terminate()
        child.wait(timeout=30)


def run_web_latency(rounds: int = ROUNDS, *, refill: bool = False) -> Section:
    """Item 10: page and API latency at 100,000 stored case results, against a trivial route."""
    path, url, fill_seconds = filled_store(refill=refill)
    timings = served(url, lambda base: measure(base, rounds))
    baseline = timings[0]
    done = len(baseline.seconds)
    rows = [
        [
            f"{t.label} (`{t.path}`)" if t is baseline else t.label,
            f"{t.median_ms:,.1f}",
            f"{t.p95_ms:,.1f}",
            f"{t.median_ms / baseline.median_ms:,.1f}x",
        ]
        for t in timings
    ]
    checks = tuple(
        Check(
            f"{t.label} p95 at {RESULTS:,} results",
            f"{t.p95_ms:,.0f} ms",
            f"< {TARGET_MS:.0f} ms",
            t.p95_ms < TARGET_MS,
        )
        for t in timings
        if t.label in ("registry page", "run page")
    )
    filled = (
        f"filled in {fill_seconds:,.0f} s"
        if fill_seconds is not None
        else "kept from an earlier run (`--refill` rebuilds it)"
    )
    size = path.stat().st_size / 1_000_000
    intro = (
        f"{RESULTS:,} case results ({TOUCHPOINTS} touchpoints: the example project's and"
        f" clones of them; one run stores every touchpoint's cases, with the example's payloads"
        f" and run report) and {RECEIVED:,} traces received over OTLP in a {size:,.0f} MB SQLite"
        f" file ({filled}). Served by uvicorn on"
        f" 127.0.0.1 in a child process, requested with httpx over one keep-alive connection;"
        f" {done} rounds after {WARMUP_ROUNDS} warm-up rounds, the routes in rotating order"
        f" ({rounds} asked; rounds stop after {BUDGET_S:.0f} s once {MIN_ROUNDS} are done)."
    )
    body = (
        intro,
        "",
        *table(["route", "median ms", "p95 ms", "median vs baseline"], rows),
    )
    return Section("10. Results UI and API latency", body, checks)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_latency", description=__doc__)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"default {ROUNDS}")
    parser.add_argument("--refill", action="store_true", help="rebuild the filled store")
    parser.add_argument("--serve", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        _serve(options.serve, options.port)
        return
    section = run_web_latency(options.rounds, refill=options.refill)
    print_section(section)


if __name__ == "__main__":
    main()
