"""Langfuse scores as JSON lines: fields of Langfuse's create-score API, nothing else."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests.cli.runner import run_cli
from tests.export._runs import LLM_SPAN, TRACE_ID, write_runs

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

# CreateScoreRequest of Langfuse's public API (POST /api/public/scores).
SCORE_FIELDS = {
    "id", "traceId", "sessionId", "observationId", "datasetRunId", "name", "value", "comment",
    "metadata", "environment", "dataType", "configId",
}  # fmt: skip


def test_each_evaluation_is_one_score_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans, native = write_runs(tmp_path)
    outcome = run_cli(capsys, "export", "langfuse", str(spans), str(native))
    assert outcome.code == 0, outcome.err
    scores = [json.loads(line) for line in outcome.out.splitlines()]
    assert all(set(score) <= SCORE_FIELDS for score in scores)
    assert [
        (s["traceId"], s.get("observationId"), s["name"], s["value"], s["dataType"]) for s in scores
    ] == [
        (TRACE_ID, LLM_SPAN, "tracegrade.grounding", 0.5, "NUMERIC"),
        (TRACE_ID, LLM_SPAN, "tracegrade.claim", 0.0, "NUMERIC"),
        (TRACE_ID, LLM_SPAN, "tracegrade.claim", 1.0, "NUMERIC"),
        ("guess-run", None, "tracegrade.grounding", 1 / 3, "NUMERIC"),
        ("guess-run", None, "tracegrade.claim", 0.0, "NUMERIC"),
        ("guess-run", None, "tracegrade.claim", 1.0, "NUMERIC"),
        ("guess-run", None, "tracegrade.claim", 0.0, "NUMERIC"),
    ]
    assert (
        scores[1]["comment"] == "figure '45 days' at 14-21 of the answer: no tool result holds it."
    )
    assert scores[1]["metadata"] == {
        "label": "unsupported", "run": TRACE_ID, "kind": "figure", "text": "45 days",
        "start": 14, "end": 21, "evidence": [],
    }  # fmt: skip
    assert len({s["id"] for s in scores}) == len(scores)
    again = run_cli(capsys, "export", "langfuse", str(spans), str(native))
    assert again.out == outcome.out  # same ids: a re-export upserts


def test_the_scores_go_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spans, _ = write_runs(tmp_path)
    target = tmp_path / "scores.jsonl"
    outcome = run_cli(capsys, "export", "langfuse", str(spans), "-o", str(target))
    assert outcome.code == 0
    assert outcome.err == f"wrote 3 Langfuse score(s) for 1 run(s) to {target}\n"
    assert len(target.read_text(encoding="utf-8").splitlines()) == 3


def test_a_file_that_is_not_a_trace_is_one_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    outcome = run_cli(capsys, "export", "langfuse", str(bad))
    assert outcome.code == 2
    assert outcome.err.startswith(f"tracegrade: error: {bad}")
    assert len(outcome.err.splitlines()) == 1
