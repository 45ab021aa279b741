"""The compiled core grades native traces itself, in one call, and as the reference does.

tests/engines/test_generated.py holds ``grade_native`` to the reference whatever path it
takes; here the core must take its own path (not fall back to the reference) on the real
traces and on the benchmarks' generated traces, which is what makes grading fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from benchmarks._generate import SEED, _pools, generate_trace
from tests.helpers.engines import engine
from tracegrade import _core
from tracegrade.claims import Question
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import NO_QUESTION, Grade, grade, grade_native
from tracegrade.verdicts._native import native_grader, prepared_question

if TYPE_CHECKING:
    from pathlib import Path

QUESTION = Question.model_validate(
    {
        "id": "model-name",
        "facts": [
            {"id": "file", "text": "agent/src/config.ts"},
            {"id": "value", "text": "gpt-5-mini"},
            {"id": "figure", "text": "$1,072"},
        ],
        "truth_file": "agent/src/config.ts",
        "tell": "gpt-5-mini",
    }
)


def _by_core(data: bytes, question: Question, *, auto: bool) -> Grade | None:
    grader = native_grader(_core)
    answer = grader.grade(data, prepared_question(grader, question), auto)
    return None if answer is None else answer[0]


def _traces(folder: Path) -> list[tuple[str, bytes]]:
    return [(path.name, path.read_bytes()) for path in sorted(folder.rglob("*.json"))]


@pytest.mark.parametrize("asked", [QUESTION, None], ids=["question", "no-question"])
def test_the_core_grades_every_real_trace_itself(nine_commits: Path, asked: Question | None):
    traces = _traces(nine_commits)
    assert len(traces) == 18
    for name, data in traces:
        question = NO_QUESTION if asked is None else asked
        assert _by_core(data, question, auto=asked is None) is not None, name


@pytest.mark.parametrize("asked", [QUESTION, None], ids=["question", "no-question"])
def test_the_cores_grade_of_each_real_trace_is_the_references(
    nine_commits: Path, asked: Question | None
):
    for name, data in _traces(nine_commits):
        with engine("python"):
            expected = grade(parse_native_trace(data, name), asked)
        assert grade_native(data, asked, name=name) == expected, name


def test_the_core_grades_the_generated_benchmark_traces_itself():
    pools = _pools(SEED)
    generated = [generate_trace(index, pools) for index in range(300)]
    declined = [name for name, data in generated if _by_core(data, QUESTION, auto=False) is None]
    assert not declined, f"{len(declined)} of 300 left to the reference: {declined[:5]}"
    for name, data in generated[:60]:
        with engine("python"):
            expected = grade(parse_native_trace(data, name), QUESTION)
        assert grade_native(data, QUESTION, name=name) == expected, name


def test_a_trace_the_core_does_not_cover_is_graded_by_the_reference():
    # schema_version 2 (tracegrade convert's full model) is left to the reference; the
    # grade is the same and the core answers None for it.
    data = (
        b'{"schema_version": 2, "id": "r1", "task": "t", "frames": [{"type": "user",'
        b' "content": "hi"}, {"type": "assistant", "content": "Total: $1,072."}]}'
    )
    assert _by_core(data, QUESTION, auto=False) is None
    with engine("python"):
        expected = grade(parse_native_trace(data, "v2.json"), QUESTION)
    assert grade_native(data, QUESTION, name="v2.json") == expected


def test_each_question_asked_in_turn_grades_against_itself():
    # The core's tuple of the last question is kept: the next one must not be graded by it.
    other = QUESTION.model_copy(
        update={"id": "other", "facts": QUESTION.facts[:1], "tell": "config.ts"}
    )
    _, data = generate_trace(7, _pools(SEED))
    for asked in (QUESTION, QUESTION, other, None, other, QUESTION):
        with engine("python"):
            expected = grade(parse_native_trace(data, "t.json"), asked)
        graded = grade_native(data, asked, name="t.json")
        assert graded == expected
        assert graded.question_id == (NO_QUESTION if asked is None else asked).id
