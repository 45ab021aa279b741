"""``tracegrade run`` and ``tracegrade baseline``: reports, exit codes, kill -9 and --resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.cli.runner import run_cli
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.store import Store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project"

SUITE = """
import time
from pathlib import Path

from tracegrade.evals import CaseOutcome

PASSED = {passed}


def suite(repeat):
    with Path(__file__).with_name("calls.log").open("a") as log:
        log.write(f"{{repeat}}\\n")
    for n in range({cases}):
        time.sleep({pause})
        yield CaseOutcome(case=f"case-{{n:03}}", outcome="passed" if n < PASSED else "failed")
"""

TOUCHPOINT = """
[[touchpoints]]
id = "{id}"
kind = "prompt"
owner = "tests"
suite_kind = "callable"
call = "{module}:suite"
severity_on_fail = "{severity}"
repeats = {repeats}
variance_band = 0.02
baseline = {{min = 0.5, max_drop = 0.05}}
"""


def _project(
    folder: Path,
    *,
    passed: int = 10,
    cases: int = 10,
    repeats: int = 1,
    severity: str = "block",
    pause: float = 0.0,
) -> Path:
    folder.mkdir(exist_ok=True)
    module = f"suite_{folder.name.replace('-', '_')}"
    (folder / f"{module}.py").write_text(
        SUITE.format(passed=passed, cases=cases, pause=pause), encoding="utf-8"
    )
    sys.modules.pop(module, None)  # the same module name is imported again with new content
    (folder / "tracegrade.toml").write_text(
        TOUCHPOINT.format(id="tp", module=module, severity=severity, repeats=repeats),
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.db'}"


def test_the_example_project_runs_and_prints_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    url = f"sqlite:///{tmp_path / 'example.db'}"
    result = run_cli(capsys, "run", str(EXAMPLE), "--store", url)

    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].startswith("run ")
    assert "10 units" in lines[0]
    assert [line.split()[:3] for line in lines[1:6]] == [
        ["refund_window_grader", "block", "held"],
        ["spreadsheet_figures", "warn", "failed-min"],
        ["legal_assistant_gate", "block", "held"],
        ["legacy_evals", "info", "held"],
        ["refund_answer_panel", "info", "held"],
    ]
    # Agent and judge cost apart, and the unpriced judge model counted, never priced at $0.
    assert lines[6].startswith(
        "cost: agent $0.0060 (38 calls), judge $0.0005 (16 calls, 8 unpriced)"
    )
    assert "warning: spreadsheet_figures failed: 0.5 (1/2" in result.err
    assert "every blocking touchpoint held (exit 0)" in result.err

    as_json = run_cli(capsys, "run", str(EXAMPLE), "--store", url, "--format", "json")
    report = json.loads(as_json.out)
    assert (as_json.code, report["schema_version"], report["exit_code"]) == (0, 1, 0)
    assert [t["verdict"]["status"] for t in report["touchpoints"]][1] == "failed-min"


@pytest.mark.parametrize(
    ("severity", "code", "label"), [("block", 1, "FAILED"), ("warn", 0, "warning")]
)
def test_a_regression_fails_a_block_touchpoint_and_warns_on_a_warn_one(
    tmp_path: Path,
    store_url: str,
    capsys: pytest.CaptureFixture[str],
    *,
    severity: str,
    code: int,
    label: str,
):
    project = _project(tmp_path / f"p-{severity}", passed=100, cases=100, severity=severity)
    first = run_cli(capsys, "run", str(project), "--store", store_url, "--format", "json")
    run_id = json.loads(first.out)["run_id"]
    promoted = run_cli(capsys, "baseline", "promote", run_id, "--store", store_url)
    assert promoted.out == f"tp: baseline 1 from run {run_id} (100 cases)\n"

    _project(project, passed=92, cases=100, severity=severity)  # a drop of 0.08 > 0.05 + 0.02
    result = run_cli(capsys, "run", str(project), "--store", store_url)

    assert result.code == code
    assert f"{label}: tp regressed: 0.92 (92/100 share of passing cases) dropped 0.08" in result.err


def test_a_provider_outage_exits_3(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "outage"
    folder.mkdir()
    (folder / "evals.py").write_text(
        "import sys\nprint('provider unavailable', file=sys.stderr)\nsys.exit(3)\n",
        encoding="utf-8",
    )
    (folder / "tracegrade.toml").write_text(
        '[[touchpoints]]\nid = "legacy"\nkind = "prompt"\nowner = "t"\n'
        f'command = [{json.dumps(sys.executable)}, "evals.py"]\noutput_format = "junit"\n'
        'severity_on_fail = "block"\n',
        encoding="utf-8",
    )
    sleeps: list[float] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(time, "sleep", sleeps.append)
        result = run_cli(capsys, "run", str(folder), "--store", store_url)

    assert result.code == 3
    assert sleeps == [1.0, 2.0]  # retried with backoff before it counted as infra
    assert "infra: legacy: not measured, all 1 cases hit infrastructure failures" in result.err
    run_id = result.err.rsplit("run id ", 1)[1].strip()
    with _opened(store_url) as store:
        (stored,) = store.case_results(run_id)
    assert stored.outcome == "infra"
    assert "exited 3 without a readable report (provider unavailable)" in str(
        stored.payload["detail"]
    )


def test_bad_input_exits_2_and_writes_nothing(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
):
    result = run_cli(capsys, "run", str(tmp_path / "missing.toml"), "--store", store_url)
    assert result.code == 2
    assert result.err.startswith("tracegrade: error: ")

    project = _project(tmp_path / "p")
    unknown = run_cli(capsys, "run", str(project), "--store", store_url, "--touchpoint", "nope")
    assert unknown.code == 2
    assert "no touchpoint 'nope'" in unknown.err
    with _opened(store_url) as store:
        assert store.list_runs() == []


@contextmanager
def _opened(url: str) -> Iterator[Store]:
    store = open_store(url)
    try:
        yield store
    finally:
        store.close()


def _results(url: str, run_id: str) -> int:
    with _opened(url) as store:
        return len(store.case_results(run_id))


def _new_runs(url: str, before: set[str]) -> list[str]:
    with _opened(url) as store:
        return [run.run_id for run in store.list_runs() if run.run_id not in before]


def _postgres_url() -> Iterator[str]:
    url = os.environ.get("TRACEGRADE_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("set TRACEGRADE_TEST_POSTGRES_URL to run the resume test on PostgreSQL")
    yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def kill_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kill.db'}"
    else:
        yield from _postgres_url()


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_stores_exactly_2000_results(
    tmp_path: Path, kill_store: str, capsys: pytest.CaptureFixture[str]
):
    project = _project(tmp_path / "big", passed=40, cases=40, repeats=50, pause=0.002)
    before = set(_new_runs(kill_store, set()))
    child = subprocess.Popen(
        [sys.executable, "-m", "tracegrade", "run", str(project), "--store", kill_store],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    run_id = ""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not run_id:
        runs = _new_runs(kill_store, before)
        if runs and _results(kill_store, runs[0]) >= 300:
            run_id = runs[0]
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    if child.stderr:
        child.stderr.close()
    assert run_id
    with _opened(kill_store) as store:
        stored = store.case_results(run_id)
        assert store.get_run(run_id).status == "running"  # type: ignore[union-attr]
    assert 300 <= len(stored) < 2000
    finished = {r.repeat for r in stored if "unit_cases" in r.payload}
    calls_before = (project / "calls.log").read_text().split()

    result = run_cli(capsys, "run", str(project), "--store", kill_store, "--resume", run_id)

    assert result.code == 0, result.err
    with _opened(kill_store) as store:
        results = store.case_results(run_id)
        assert store.get_run(run_id).status == "finished"  # type: ignore[union-attr]
    assert len(results) == 2000
    assert len({(r.touchpoint, r.case_id, r.repeat) for r in results}) == 2000
    rerun = [
        int(repeat) for repeat in (project / "calls.log").read_text().split()[len(calls_before) :]
    ]
    assert len(rerun) == len(set(rerun))  # each unfinished repeat ran once more
    assert finished
    assert finished.isdisjoint(rerun)  # finished repeats were not run again
    assert finished | set(rerun) == set(range(50))
    assert f"{len(finished)} done before resuming" in result.out.splitlines()[0]


def test_baseline_history_and_compare(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
):
    project = _project(tmp_path / "p", passed=8, cases=10)
    first = json.loads(
        run_cli(capsys, "run", str(project), "--store", store_url, "--format", "json").out
    )
    run_cli(capsys, "baseline", "promote", first["run_id"], "--store", store_url)
    _project(project, passed=9, cases=12)
    second = json.loads(
        run_cli(capsys, "run", str(project), "--store", store_url, "--format", "json").out
    )
    run_cli(
        capsys, "baseline", "promote", second["run_id"], "--touchpoint", "tp", "--store", store_url
    )

    history = run_cli(capsys, "baseline", "history", "tp", "--store", store_url)
    lines = history.out.splitlines()
    assert len(lines) == 2
    assert f"run {second['run_id']}  metric 0.75  12 cases  (current)" in lines[0]
    assert f"run {first['run_id']}  metric 0.8  10 cases" in lines[1]

    compare = run_cli(
        capsys, "baseline", "compare", first["run_id"], second["run_id"], "--store", store_url
    )
    assert compare.code == 0
    assert compare.out.splitlines() == [
        f"{first['run_id']} -> {second['run_id']}",
        "tp  regressed  0.8 -> 0.75",
        "  improved    case-008  0 -> 1",
        "  new         case-010  - -> 0",
        "  new         case-011  - -> 0",
        "cases: 1 improved, 0 regressed, 9 unchanged, 2 new, 0 gone, 0 unmeasured",
    ]
    as_json = json.loads(
        run_cli(
            capsys,
            "baseline",
            "compare",
            first["run_id"],
            second["run_id"],
            "--store",
            store_url,
            "--format",
            "json",
        ).out
    )
    assert as_json["touchpoints"][0]["shift"] == "regressed"

    missing = run_cli(capsys, "baseline", "compare", "nope", second["run_id"], "--store", store_url)
    assert (missing.code, "no run 'nope'" in missing.err) == (2, True)
    unfinished = run_cli(capsys, "baseline", "history", "other", "--store", store_url)
    assert unfinished.err == "other: no baseline promoted yet\n"
