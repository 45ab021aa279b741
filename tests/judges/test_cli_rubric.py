"""``tracegrade rubric``: scores a tool touchpoint's description, stores it per version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.runner import run_cli
from tracegrade.evals import file_hashes, load_project
from tracegrade.proposals import content_version
from tracegrade.store import open_store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project"
SCORES = {"purpose": 3, "when_to_use": 1, "arguments": 0, "side_effects": 2, "failure_modes": 0}


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.db'}"


def _replies(tmp_path: Path, data: object) -> str:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return f"fake:{path}"


def test_rubric_scores_prints_and_stores_under_the_current_version(tmp_path, store_url, capsys):
    judge = _replies(tmp_path, {"scores": SCORES, "notes": "name the arguments"})
    result = run_cli(
        capsys, "rubric", "spreadsheet_figures", "--project", str(EXAMPLE),
        "--judge", judge, "--store", store_url,
    )  # fmt: skip
    assert result.code == 0, result.err
    project = load_project(EXAMPLE / "tracegrade.toml", registered=())
    contract = project.entry("spreadsheet_figures").touchpoint
    version = content_version(contract, file_hashes(contract, project.root))
    assert result.out.splitlines()[0] == (
        f"spreadsheet_figures  version {version}  rubric tool-description"
        f"  judge {judge}  total 6/15"
    )
    assert "  arguments      0" in result.out
    assert "notes: name the arguments" in result.out
    store = open_store(store_url)
    try:
        (stored,) = store.rubric_scores("spreadsheet_figures")
        (call,) = store.ai_calls(touchpoint="spreadsheet_figures")
    finally:
        store.close()
    assert (stored.version, stored.scores["scores"]) == (version, SCORES)
    assert (call.role, call.model, call.cost_usd) == ("judge", "fake-judge", None)


def test_rubric_json_names_an_explicit_version(tmp_path, store_url, capsys):
    description = tmp_path / "tool.md"
    description.write_text("Writes rows to a spreadsheet.", encoding="utf-8")
    result = run_cli(
        capsys, "rubric", "spreadsheet_figures", "--project", str(EXAMPLE),
        "--judge", _replies(tmp_path, [{"scores": SCORES, "notes": ""}]), "--store", store_url,
        "--version", "v7", "--description-file", str(description), "--format", "json",
    )  # fmt: skip
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert (data["version"], data["total"], data["maximum"]) == ("v7", 6, 15)


def test_a_malformed_judge_reply_exits_2_and_stores_nothing(tmp_path, store_url, capsys):
    judge = _replies(tmp_path, {"scores": {"purpose": 3}, "notes": ""})
    result = run_cli(
        capsys, "rubric", "spreadsheet_figures", "--project", str(EXAMPLE),
        "--judge", judge, "--store", store_url,
    )  # fmt: skip
    assert result.code == 2
    assert result.err.startswith("tracegrade: error: case spreadsheet_figures: judge 'fake:")
    assert "scores lack when_to_use, arguments, side_effects, failure_modes" in result.err
    store = open_store(store_url)
    try:
        assert store.rubric_scores("spreadsheet_figures") == []
    finally:
        store.close()


@pytest.mark.parametrize(
    ("touchpoint", "judge", "message"),
    [
        ("legacy_evals", "fake:x.json", "touchpoint legacy_evals is a prompt, not a tool"),
        ("spreadsheet_figures", "gemini:pro", "unknown judge 'gemini'"),
        ("spreadsheet_figures", "openai", "expected fake:FILE, openai:MODEL or anthropic:MODEL"),
        ("spreadsheet_figures", "fake:/nonexistent.json", "cannot read the scripted replies"),
    ],
)
def test_bad_usage_exits_2_with_one_line(store_url, capsys, touchpoint, judge, message):
    result = run_cli(
        capsys, "rubric", touchpoint, "--project", str(EXAMPLE), "--judge", judge,
        "--store", store_url,
    )  # fmt: skip
    assert result.code == 2
    assert message in result.err
