"""No command calls another machine, in any process it starts (DESIGN.md section 4).

tests/test_egress.py guards the test process; this runs the CLI as subprocesses with
tests/egress_guard on PYTHONPATH, whose sitecustomize installs an audit hook in every Python
process: the CLI, process-pool workers, and Ray's dashboard, agents and workers (they
inherit the environment). Ray's own C++ processes are outside an audit hook; the strace
run in docs/fuzzing.md ("No egress") covers them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GUARD = REPO / "tests" / "egress_guard"


def _env(log: Path) -> dict[str, str]:
    path = os.pathsep.join([str(GUARD), str(REPO / "src"), str(REPO)])
    return {**os.environ, "PYTHONPATH": path, "TRACEGRADE_EGRESS_LOG": str(log)}


def _tracegrade(log: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracegrade", *args],
        env=_env(log),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _attempts(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_the_guard_sees_an_outbound_connect_in_a_child_process(tmp_path: Path) -> None:
    log = tmp_path / "egress.log"
    code = "import socket; socket.create_connection(('192.0.2.1', 80), timeout=1)"
    subprocess.run([sys.executable, "-c", code], env=_env(log), capture_output=True, check=False)
    assert any("'192.0.2.1'" in line for line in _attempts(log)), _attempts(log)


@pytest.mark.parametrize(
    "args",
    [
        ("grade", "examples/traces"),
        ("grade", "examples/traces", "--workers", "2"),
        ("grade", "examples/traces", "--executor", "ray", "--workers", "2"),
    ],
    ids=["grade-local", "grade-process-pool", "grade-ray"],
)
def test_grade_opens_no_outbound_socket(tmp_path: Path, args: tuple[str, ...]) -> None:
    if "ray" in args:
        pytest.importorskip("ray", reason="the ray extra is not installed")
    log = tmp_path / "egress.log"
    done = _tracegrade(log, *args)
    assert done.returncode in (0, 1), done.stderr
    assert _attempts(log) == []


@pytest.mark.parametrize(
    "executor", [(), ("--workers", "2"), ("--executor", "ray", "--workers", "2")],
    ids=["run-local", "run-process-pool", "run-ray"],
)  # fmt: skip
def test_run_opens_no_outbound_socket(tmp_path: Path, executor: tuple[str, ...]) -> None:
    if "ray" in executor:
        pytest.importorskip("ray", reason="the ray extra is not installed")
    log = tmp_path / "egress.log"
    store = f"sqlite:///{tmp_path / 'runs.db'}"
    done = _tracegrade(log, "run", "examples/project", "--store", store, *executor)
    assert done.returncode == 0, done.stderr
    assert _attempts(log) == []


def test_serve_opens_no_outbound_socket(tmp_path: Path) -> None:
    log = tmp_path / "egress.log"
    store = f"sqlite:///{tmp_path / 'runs.db'}"
    port_file = tmp_path / "out.txt"
    with port_file.open("w") as out:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tracegrade",
                "serve",
                "--project",
                "examples/project",
                "--store",
                store,
                "--port",
                "0",
            ],
            env=_env(log),
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        url = _served_url(port_file, server)
        assert _status_when_up(url) == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert _attempts(log) == []


def _status_when_up(url: str) -> int:
    """The page's status; serve prints its address just before uvicorn binds it."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as page:  # noqa: S310 - loopback
                return int(page.status)
        except urllib.error.URLError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _served_url(output: Path, server: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for word in output.read_text().split():
            if word.startswith("http://127.0.0.1:"):
                return word.rstrip(".,")
        if server.poll() is not None:
            pytest.fail(f"serve exited: {output.read_text()}")
        time.sleep(0.2)
    pytest.fail(f"serve printed no URL: {output.read_text()}")
