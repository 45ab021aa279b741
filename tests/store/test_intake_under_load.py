"""A large OTLP intake and a ``tracegrade run`` writing the same store at once both finish.

The receiver reads and grades outside the store's transactions, so a run that takes
seconds to grade never holds SQLite's write lock while a ``tracegrade run`` waits for it
(that wait ran out at 30 s: "database is locked", exit 3).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.helpers.server import Server
from tests.web._otlp_bodies import JSON, json_body, json_export, openinference_spans
from tracegrade.store import open_store
from tracegrade.web import create_app

from .conftest import REPO

TRACE = "7a" * 16


def _slow_to_grade_export() -> bytes:
    """One run whose grading takes over 30 s: ~10 MiB of tool output, ~300 figures."""
    line = "order 88231 ships in 3 days, costs $1,250.00 from src/billing/config.py line\n"
    result = line * (10 * 1024 * 1024 // len(line))
    answer = "Totals: " + ", ".join(
        f"${n},{n % 1000:03d}.00 in 20{n % 100:02d}" for n in range(1, 200)
    )
    return json_body(json_export(openinference_spans(trace_id=TRACE, result=result, answer=answer)))


@pytest.mark.slow
def test_a_large_intake_and_a_run_on_one_store_both_complete(store_url: str) -> None:
    store = open_store(store_url)
    body = _slow_to_grade_export()
    posted: dict[str, object] = {}

    def post(url: str) -> None:
        with httpx.Client(base_url=url, timeout=600) as client:
            posted["response"] = client.post("/v1/traces", content=body, headers=JSON)
        posted["done"] = time.monotonic()

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    command = [sys.executable, "-m", "tracegrade", "run", "examples/project", "--store", store_url]
    with Server(create_app(store)) as server:
        sender = threading.Thread(target=post, args=(server.url,))
        sender.start()
        time.sleep(1.0)  # the request is in: its trace is being read and graded
        run = subprocess.run(
            command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        run_done = time.monotonic()
        sender.join(timeout=600)
    record = store.get_received_trace(TRACE)
    store.close()

    assert "database is locked" not in run.stderr + run.stdout
    assert run.returncode == 0, run.stderr
    assert "every blocking touchpoint held" in run.stderr
    response = posted["response"]
    assert isinstance(response, httpx.Response)
    assert response.status_code == 200
    assert response.json() == {}  # nothing rejected
    assert isinstance(posted["done"], float)
    # The run wrote while the trace was being graded: it did not wait for the intake.
    assert run_done < posted["done"], "the run ended after the intake: it waited for it"
    assert record is not None  # kept: graded, or ungraded with the reason
    assert record.grade is not None or "not graded" in str(record.trace["problem"])
