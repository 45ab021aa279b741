"""A run's grade as evaluations: which span they attach to, and what each says (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.export._runs import LLM_SPAN, TRACE_ID, write_runs
from tracegrade.claims import Question
from tracegrade.export import CLAIM, GROUNDING, PROVENANCE, SpanRef, answer_span, evaluations
from tracegrade.traces import read_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path


def test_a_run_read_from_spans_is_attached_to_the_span_that_wrote_its_answer(
    tmp_path: Path,
) -> None:
    spans, native = write_runs(tmp_path)
    assert answer_span(read_trace(spans)) == SpanRef(TRACE_ID, LLM_SPAN)
    assert answer_span(read_trace(native)) is None  # a native trace has no span


def test_the_run_and_each_claim_are_evaluated(tmp_path: Path) -> None:
    spans, _ = write_runs(tmp_path)
    trace = read_trace(spans)
    found = evaluations(trace, grade(trace))
    assert [(e.name, e.label, e.score) for e in found] == [
        (GROUNDING, "ungrounded", 0.5),
        (CLAIM, "unsupported", 0.0),
        (CLAIM, "read", 1.0),
    ]
    assert found[0].explanation == (
        "1 of 2 claims were read in a tool result; not read: figure '45 days'."
    )
    assert (
        found[1].explanation == "figure '45 days' at 14-21 of the answer: no tool result holds it."
    )
    assert found[2].explanation == "figure '$25' at 37-40 of the answer: read in f1."
    assert [e.key for e in found] == [GROUNDING, f"{CLAIM}:figure:14-21", f"{CLAIM}:figure:37-40"]
    assert {e.span for e in found} == {SpanRef(TRACE_ID, LLM_SPAN)}


def test_a_question_adds_the_provenance_verdict(tmp_path: Path) -> None:
    _, native = write_runs(tmp_path)
    trace = read_trace(native)
    question = Question(id="fee", truth_file="fees.md", tell="$25")
    found = evaluations(trace, grade(trace, question, auto=True))
    provenance = next(e for e in found if e.name == PROVENANCE)
    assert (provenance.label, provenance.score) == ("from-copy", 0.0)
    assert provenance.explanation == (
        "Against question 'fee': the tell was seen 0 time(s) in the true source and 1 time(s)"
        " elsewhere."
    )


def test_nothing_to_score_is_said_so_not_scored_zero(tmp_path: Path) -> None:
    _, native = write_runs(tmp_path)
    trace = read_trace(native)
    silent = trace.model_copy(
        update={
            "frames": (*trace.frames[:-1], trace.frames[-1].model_copy(update={"content": "Done."}))
        }
    )
    (only,) = evaluations(silent, grade(silent))
    assert (only.name, only.label, only.score) == (GROUNDING, "no-claims", None)
