"""``tracegrade guard replay``: the offline audit of recorded runs, its formats and exit codes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tests.cli.runner import run_cli

if TYPE_CHECKING:
    from pathlib import Path

POLICY = """
[sources]
calculators = ["run_calculation"]

[tools.create_spreadsheet]
scan = ["sheets[*].rows[*][*]"]
"""


def _trace(folder: Path, name: str, cells: list[Any], source: str) -> Path:
    frames: list[dict[str, Any]] = [
        {"type": "user", "content": "Put the loan into a sheet."},
        {"type": "tool_call", "id": "s1", "name": "search_documents", "args": {"q": "loan"}},
        {"type": "tool_result", "id": "s1", "ok": True, "result": source},
        {
            "type": "tool_call",
            "id": "w1",
            "name": "create_spreadsheet",
            "args": {"file": "loan-2023.xlsx", "sheets": [{"header": ["2023"], "rows": [cells]}]},
        },
        {"type": "tool_result", "id": "w1", "ok": True, "result": {"ok": True}},
        {"type": "assistant", "content": "Done."},
    ]
    data = {"id": name, "commit": "v1", "model": "m", "task": "t", "outcome": "success",
            "tokens": [0] * len(frames), "frames": frames}  # fmt: skip
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def policy(tmp_path: Path) -> Path:
    path = tmp_path / "guard.toml"
    path.write_text(POLICY, encoding="utf-8")
    return path


def test_a_run_with_an_invented_figure_is_listed_and_exits_1(
    tmp_path: Path, policy: Path, capsys: pytest.CaptureFixture[str]
):
    clean = _trace(tmp_path, "clean", ["Principal", "$1,500,000"], "Loan of $1.5 million.")
    bad = _trace(tmp_path, "bad", ["$1,500,000", "$2,750,000"], "Loan of $1.5 million.")

    result = run_cli(capsys, "guard", "replay", str(clean), str(bad), "--policy", str(policy))

    assert result.code == 1
    assert result.out == (
        f"{bad} (bad)\n"
        "  frame 3    create_spreadsheet  BLOCKED  unsourced: $2,750,000 at sheets[0].rows[0][1]\n"
    )
    assert result.err == "1 of 2 guarded call(s) would be blocked, in 1 of 2 run(s).\n"


def test_only_sourced_figures_exits_0(
    tmp_path: Path, policy: Path, capsys: pytest.CaptureFixture[str]
):
    clean = _trace(tmp_path, "clean", ["Principal", "$1,500,000"], "Loan of $1.5 million.")

    result = run_cli(capsys, "guard", "replay", str(clean), "--policy", str(policy), "--all")

    assert result.code == 0
    assert "allowed (1 figure(s) sourced)" in result.out


def test_json_report(tmp_path: Path, policy: Path, capsys: pytest.CaptureFixture[str]):
    bad = _trace(tmp_path, "bad", ["$2,750,000"], "Loan of $1.5 million.")

    result = run_cli(
        capsys, "guard", "replay", str(bad), "--policy", str(policy), "--format", "json"
    )

    report = json.loads(result.out)
    assert result.code == 1
    assert report["summary"] == {"runs": 1, "guarded_calls": 1, "blocked_calls": 1}
    (call,) = report["runs"][0]["calls"]
    assert call["action"] == "deny"
    assert call["tool"] == "create_spreadsheet"
    assert call["call_id"] == "w1"
    assert call["unsourced"] == [
        {"raw": "$2,750,000", "value": call["unsourced"][0]["value"], "kind": "money",
         "location": "sheets[0].rows[0][0]"}
    ]  # fmt: skip
    assert "create_spreadsheet" in call["message"]


@pytest.mark.parametrize(
    ("policy_text", "expected"),
    [("[tools.w]\nscan = ['rows[']\n", "tools.w.scan"), ("[tolls.w]\n", "tolls")],
)
def test_a_bad_policy_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], policy_text: str, expected: str
):
    trace = _trace(tmp_path, "clean", ["1"], "x")
    bad_policy = tmp_path / "bad.toml"
    bad_policy.write_text(policy_text, encoding="utf-8")

    result = run_cli(capsys, "guard", "replay", str(trace), "--policy", str(bad_policy))

    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().split("\n")
    assert len(lines) == 1
    assert str(bad_policy) in lines[0]
    assert expected in lines[0]


def test_a_bad_trace_exits_2(tmp_path: Path, policy: Path, capsys: pytest.CaptureFixture[str]):
    broken = tmp_path / "broken.json"
    broken.write_text('{"frames": [', encoding="utf-8")

    result = run_cli(capsys, "guard", "replay", str(broken), "--policy", str(policy))

    assert result.code == 2
    assert str(broken) in result.err


def test_the_policy_is_required(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    trace = _trace(tmp_path, "clean", ["1"], "x")
    result = run_cli(capsys, "guard", "replay", str(trace))
    assert result.code == 2
    assert "--policy" in result.err
