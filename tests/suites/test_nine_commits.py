"""Conformance with the reference grader on its real traces (SPEC.md §11-§12).

Reads the corpus in place from $TRACEGRADE_CORPUS; skipped with a reason when absent.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from tests.cli.runner import run_cli
from tests.suites.nine_commits import CASES, QUESTIONS_TOML, write_suite
from tracegrade.claims import Question
from tracegrade.suites import load_questions, load_suite, run_suite
from tracegrade.traces import ToolResultFrame, read_trace, validate_native_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.corpus

MODEL_NAME = Question(
    id="model-name",
    facts=({"id": "file", "text": "agent/src/config.ts"}, {"id": "value", "text": "gpt-5-mini"}),
    truth_file="agent/src/config.ts",
    tell="gpt-5-mini",
)


def test_the_eight_tabulated_cases_match_verdicts_and_counts(nine_commits: Path, tmp_path: Path):
    results = list(run_suite(load_suite(write_suite(tmp_path, nine_commits))))

    assert [r.run for r in results] == [row.trace for row in CASES]
    for row, result in zip(CASES, results, strict=True):
        got = result.grade
        assert result.mismatches == (), row.trace
        assert (got.answer, got.provenance, got.unread) == (row.answer, row.provenance, row.unread)
        assert got.recorded_outcome == row.recorded, row.trace
        assert (got.observations, len(got.truth), len(got.copies)) == (
            row.observations,
            row.truth,
            row.copies,
        ), row.trace


def test_sightings_are_the_lines_the_specification_names(nine_commits: Path, tmp_path: Path):
    results = {r.run: r.grade for r in run_suite(load_suite(write_suite(tmp_path, nine_commits)))}

    loop = results["03-the-loop/trace.json"]
    assert [(s.file, s.line, s.frame) for s in loop.truth] == [("agent/src/config.ts", 1, 4)]
    assert [(s.file, s.line) for s in loop.copies] == [("agent/src/cli.ts", 48)]

    binary = results["04-does-it-work/trace-b-binary.json"]
    assert [(s.file, s.line, s.frame) for s in binary.truth] == [("agent/src/tools/fs.ts", 42, 2)]

    retired = results["05-moving-target/trace-retired-control.json"]
    assert [(s.file, s.line, s.frame) for s in retired.truth] == [("agent/src/tools/fs.ts", 42, 10)]
    # One line seen in two frames is two sightings.
    assert [(s.file.endswith("04-does-it-work/trace-b-binary.json"), s.line, s.frame)
            for s in retired.copies] == [(True, 351, 2), (True, 351, 4)]  # fmt: skip

    precise = results["02-hands/trace-a-precise.json"]
    support = {c.id: (c.support, c.in_answer) for c in precise.claims}
    assert support == {"file": ("named-only", True), "value": ("unsupported", False)}


def test_published_verdicts_tsv_is_reproduced_column_for_column(
    nine_commits: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    published = [
        line
        for line in (nine_commits / "04-does-it-work" / "verdicts.tsv")
        .read_text(encoding="utf-8")
        .splitlines()
        if not line.startswith("#")
    ]
    assert len(published) == 8  # header and 7 rows
    suite = write_suite(tmp_path, nine_commits, CASES[:7])

    result = run_cli(capsys, "grade", str(suite), "--format", "tsv")

    assert (result.code, result.err) == (0, "")
    assert result.out.rstrip("\n").split("\n") == published


def _mutated(raw: dict[str, Any], keep: Any) -> dict[str, Any]:
    data = copy.deepcopy(raw)
    for frame in data["frames"]:
        result = frame.get("result")
        if frame["type"] == "tool_result" and isinstance(result, dict) and "matches" in result:
            result["matches"] = [m for m in frame["result"]["matches"] if keep(m)]
    return data


@pytest.mark.parametrize(
    ("variant", "keep", "provenance", "counts"),
    [
        ("untouched", lambda m: True, "undecidable", (40, 1, 16)),
        ("source-only", lambda m: m["file"] == "agent/src/config.ts", "grounded", (1, 1, 0)),
        ("copies-only", lambda m: m["file"] != "agent/src/config.ts", "from-copy", (39, 0, 16)),
        ("nothing", lambda m: False, "unevidenced", (0, 0, 0)),
    ],
)
def test_mutation_variants_move_provenance_but_never_the_answer(
    nine_commits: Path, variant: str, keep: Any, provenance: str, counts: tuple[int, int, int]
):
    raw = orjson.loads((nine_commits / "03-the-loop" / "trace2-corpus-hit.json").read_bytes())
    trace = validate_native_trace(_mutated(raw, keep), variant)

    result = grade(trace, MODEL_NAME)

    assert result.answer == "success"
    assert result.provenance == provenance
    assert (result.observations, len(result.truth), len(result.copies)) == counts
    if variant == "nothing":
        assert result.unread == ("file", "value")  # question order, not sorted
    # Other fields survive the filter (SPEC §11.5 keeps e.g. truncated: true).
    kept = [f.result for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert all("truncated" in r for r in kept)


def test_every_real_trace_grades_without_error(nine_commits: Path):
    files = sorted(nine_commits.glob("*/*.json"))
    assert len(files) == 18
    for path in files:
        result = grade(read_trace(path), MODEL_NAME)
        assert result.observations >= 0, path


def test_no_model_name_case_is_grounded(nine_commits: Path, tmp_path: Path):
    results = list(run_suite(load_suite(write_suite(tmp_path, nine_commits))))
    model_name = [r for r in results if r.grade.question_id == "model-name"]
    assert model_name
    assert all(r.grade.provenance != "grounded" for r in model_name)


def test_recomputed_answer_agrees_with_the_recorded_outcome(nine_commits: Path, tmp_path: Path):
    # Up to post 8 the reference suite asserted plain agreement on every graded case.
    results = list(run_suite(load_suite(write_suite(tmp_path, nine_commits))))
    graded = [r.grade for r in results if r.grade.answer != "ungraded"]
    assert graded
    assert [(g.answer, g.recorded_outcome) for g in graded if g.answer != g.recorded_outcome] == []


def test_a_wrong_prediction_turns_the_suite_red(nine_commits: Path, tmp_path: Path):
    wrong = (CASES[4].__class__(**{**CASES[4].__dict__, "provenance": "grounded"}),)
    results = list(run_suite(load_suite(write_suite(tmp_path, nine_commits, wrong))))
    assert results[0].mismatches == ("provenance: expected grounded, got undecidable",)


def test_questions_toml_is_loadable_on_its_own(tmp_path: Path):
    path = tmp_path / "q.toml"
    path.write_text(QUESTIONS_TOML, encoding="utf-8")
    assert [q.id for q in load_questions(path)] == ["model-name", "binary-extensions", "file-count"]
