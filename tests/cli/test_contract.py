"""``tracegrade contract check``: its output formats and exit codes, over fixture traces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tests.cli.runner import run_cli

if TYPE_CHECKING:
    import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "contract"
CLEAN = str(FIXTURES / "clean.json")
BROKEN = str(FIXTURES / "broken.json")
TITLES = str(FIXTURES / "titles.json")


def test_a_run_that_keeps_the_contract_exits_0(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "contract", "check", CLEAN)

    assert result.code == 0
    assert result.out == ""
    assert result.err == "0 contract failure(s) in 0 of 1 run(s).\n"


def test_failures_are_listed_per_run_with_frame_rule_source_and_claim(
    capsys: pytest.CaptureFixture[str],
):
    result = run_cli(capsys, "contract", "check", CLEAN, BROKEN)

    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == f"{BROKEN} (broken-run)"
    assert lines[1].startswith(
        "  frame 4    incomplete-deep-read  loan-2023: deep read of 'loan-2023' served 0-100 and"
        " 150-200 of 236 chars: gaps 100-150, 200-236;"
    )
    assert lines[2].startswith("  frame 7    claim-not-served  loan-2023: figure 6% not in")
    assert lines[3] == "    claim: Interest is 6% per annum [loan-2023]."
    assert [line.split()[2] for line in lines[1:] if line.startswith("  frame")] == [
        "incomplete-deep-read",
        "claim-not-served",
        "search-without-ids",
        "whole-document-claim-unread",
        "cited-source-unbacked",
    ]
    assert CLEAN not in result.out
    assert result.err == "5 contract failure(s) in 1 of 2 run(s).\n"


def test_json_report(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "contract", "check", BROKEN, CLEAN, "--format", "json")

    assert result.code == 1
    report = json.loads(result.out)
    assert report["schema_version"] == 1
    assert [run["trace_id"] for run in report["runs"]] == ["broken-run", "clean-run"]
    assert report["runs"][1]["failures"] == []
    assert report["runs"][0]["failures"][0] == {
        "rule": "incomplete-deep-read",
        "frame": 4,
        "claim": None,
        "source": "loan-2023",
        "detail": report["runs"][0]["failures"][0]["detail"],
    }
    assert report["summary"] == {
        "runs": 2,
        "failed_runs": 1,
        "failures": 5,
        "by_rule": {
            "claim-not-served": 1,
            "cited-source-unbacked": 1,
            "incomplete-deep-read": 1,
            "search-without-ids": 1,
            "whole-document-claim-unread": 1,
        },
    }


def test_rules_file_sets_the_marker(capsys: pytest.CaptureFixture[str]):
    default = run_cli(capsys, "contract", "check", TITLES)
    wide = run_cli(capsys, "contract", "check", TITLES, "--rules", str(FIXTURES / "titles.toml"))

    # With the default marker, "[Loan Agreement]" holds a space: it is no citation at all.
    assert default.code == 0
    assert wide.code == 1
    assert "frame 5    ambiguous-title  Loan Agreement: 2 documents" in wide.out


def test_an_invalid_artifact_exits_2_with_one_line_naming_file_and_frame(
    capsys: pytest.CaptureFixture[str],
):
    bad = str(FIXTURES / "bad_artifact.json")

    result = run_cli(capsys, "contract", "check", CLEAN, bad)

    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert result.err.startswith(
        f"tracegrade: error: {bad} (trace bad-artifact-run): frame 4: tool 'read_document':"
        " artifact of call 'c1': "
    )
    assert "served range [0, 99999) is not inside [0, 236]" in result.err


def test_an_invalid_trace_exits_2_naming_the_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    data = json.loads((FIXTURES / "clean.json").read_text(encoding="utf-8"))
    data["frames"][2]["ok"] = "yes"
    path = tmp_path / "bad-frame.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    result = run_cli(capsys, "contract", "check", str(path))

    assert result.code == 2
    assert result.err.count("\n") == 1
    assert f"{path}: frame 2:" in result.err


def test_an_invalid_rules_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    rules = tmp_path / "rules.toml"
    rules.write_text('[contract]\nmarker = "no group"\n', encoding="utf-8")

    result = run_cli(capsys, "contract", "check", CLEAN, "--rules", str(rules))

    assert result.code == 2
    assert f"{rules}: contract.marker: needs a group" in result.err


def test_a_missing_trace_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "contract", "check", str(tmp_path / "nope.json"))

    assert result.code == 2
