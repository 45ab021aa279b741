"""A run killed with ``kill -9`` leaves no process behind and loses only seconds of work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracegrade.evals._executor import _BATCH_SECONDS

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def _session(sid: int) -> list[int]:
    """The processes still in session ``sid`` (the killed run and whatever it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) == sid:
                found.append(int(entry.name))
        except (ProcessLookupError, PermissionError):
            continue
    return found


def test_kill_9_of_a_pool_run_leaves_no_process_and_keeps_finished_units(tmp_path: Path) -> None:
    stored = tmp_path / "stored.txt"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    driver = subprocess.Popen(
        [sys.executable, "-m", "tests.evals.slow_pool", str(stored)],
        env=env,
        cwd=REPO,
        start_new_session=True,  # its own session: every process it starts is found by sid
    )
    try:
        time.sleep(3 * _BATCH_SECONDS + 2)  # start-up, then three batch periods of work
        started = _session(driver.pid)
        assert len(started) >= 3, "expected the driver, the fork server and two workers"
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _session(driver.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = _session(driver.pid)
    finally:
        for pid in _session(driver.pid):
            os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes left after kill -9 of the run: {left}"
    # Batches of 125 units (6 s) stored at their end kept nothing by now; time-bounded
    # batches have stored at least two workers' worth of a batch period.
    units = stored.read_text().split()
    assert len(units) >= 2 * _BATCH_SECONDS / 0.05 * 0.8, len(units)
    assert len(units) == len(set(units))
