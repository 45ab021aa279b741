"""`python -m benchmarks.instructions`: callgrind's count of a workload's instructions per pass."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from benchmarks._common import REPO, corpus_traces


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "benchmarks.instructions", *args]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)


def test_an_unknown_workload_is_a_usage_error_naming_the_workloads() -> None:
    done = _run("reall")
    assert done.returncode == 2
    assert "unknown workload 'reall': choose from real, generated, bulk, files" in done.stderr


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_real_traces_are_counted_whole_core_and_orjson() -> None:
    if not corpus_traces().is_dir():
        pytest.skip(f"no real corpus at {corpus_traces()} (set TRACEGRADE_CORPUS)")
    done = _run("real", "--passes", "1")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("| real |"))
    whole, core, loads, whole_share, core_share = (
        float(cell.replace(",", "")) for cell in row.strip("|").split("|")[1:]
    )
    # The whole call holds the core's call (and builds the Grade besides).
    assert whole > core > 0
    assert loads > 0
    assert whole_share == pytest.approx(whole / loads, abs=0.01)
    assert core_share == pytest.approx(core / loads, abs=0.01)
