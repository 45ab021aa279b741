"""grade(): the answer grade, claim support, unread claims and provenance of one run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade._text import collapse, is_blank
from tracegrade.claims import Question, extract_answer_claims, extract_claims
from tracegrade.figures import FigureSources, anchor_pattern, extract_figures
from tracegrade.observations import observe
from tracegrade.support import support, support_answer_claims
from tracegrade.traces import UserFrame
from tracegrade.verdicts._model import (
    AnswerGrade,
    Expectation,
    Grade,
    Provenance,
    Sighting,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.claims import Claim
    from tracegrade.figures import Figure
    from tracegrade.observations import Decoder, LineObservation, Observations
    from tracegrade.traces import Trace

__all__ = [
    "NO_QUESTION",
    "asked_texts",
    "check",
    "fact_figure_evidence",
    "grade",
    "grade_answer",
    "grade_extracted",
    "grade_figures",
    "grade_observed",
    "grade_provenance",
    "grade_turns",
]


NO_QUESTION = Question(id="-")
"""What a run is graded against when no question file is given: no facts, no tell."""


def grade_answer(answer: str, claims: Sequence[Claim], *, any_tool_failed: bool) -> AnswerGrade:
    """The recorder's prose rule, recomputed from the expected facts.

    No facts: ``ungraded``. Blank answer or no fact in it: ``failure``. Some facts,
    or all with a failed tool call: ``partial``. Otherwise ``success``.
    """
    if not claims:
        return "ungraded"
    if is_blank(answer):
        return "failure"
    hits = sum(claim.in_answer for claim in claims)
    if hits == 0:
        return "failure"
    if hits < len(claims) or any_tool_failed:
        return "partial"
    return "success"


def _sighting(obs: LineObservation) -> dict[str, object]:
    return {"observation": obs.id, "frame": obs.frame, "file": obs.file, "line": obs.line,
            "text": obs.text}  # fmt: skip


def grade_provenance(
    observations: Observations, question: Question
) -> tuple[Provenance, tuple[Sighting, ...], tuple[Sighting, ...]]:
    """Did the run see the true source of the answer, a copy of it, both or neither?

    Returns:
        The verdict, the truth sightings and the copy sightings, one per observation.
    """
    verdict, truth, copies = _provenance(observations, question)
    return (
        verdict,
        tuple(map(Sighting.model_validate, truth)),
        tuple(map(Sighting.model_validate, copies)),
    )


def _provenance(
    observations: Observations, question: Question
) -> tuple[Provenance, list[dict[str, object]], list[dict[str, object]]]:
    if question.truth_file is None or question.tell is None:
        return "ungradable", [], []
    truth: list[dict[str, object]] = []
    copies: list[dict[str, object]] = []
    for obs in observations.lines_containing(question.tell):
        (truth if obs.file == question.truth_file else copies).append(_sighting(obs))
    verdict: Provenance
    if truth:
        verdict = "undecidable" if copies else "grounded"
    else:
        verdict = "from-copy" if copies else "unevidenced"
    return verdict, truth, copies


def grade_figures(
    trace: Trace, answer: str, *, found: Sequence[Figure] | None = None
) -> list[dict[str, object]]:
    """Every figure of the answer, read or unsupported, under the figures' evidence policy.

    ``found`` is ``extract_figures(answer)`` when the caller has it already.
    """
    figures = extract_figures(answer) if found is None else found
    if not figures:
        return []  # the common case: no sources to index
    # Only source lines that can hold one of these figures are read (figures/_anchors.py).
    anchors = anchor_pattern(figures)
    sources = FigureSources(lines_matching=anchors, bare_numbers=False).extend(trace.frames)
    graded: list[dict[str, object]] = []
    for figure in figures:
        seen = sources.index.evidence_for(figure)
        graded.append(
            {
                "raw": figure.raw,
                "value": figure.value,
                "kind": figure.kind,
                "start": figure.start,
                "end": figure.end,
                "support": "unsupported" if seen is None else "read",
                "evidence": () if seen is None else (seen,),
            }
        )
    return graded


def fact_figure_evidence(trace: Trace, claims: Sequence[Claim]) -> dict[str, tuple[str, ...]]:
    """For each fact that is a figure, the tool result that showed it, by the figure rules.

    Human messages are left out: a fact is read only when a tool returned it.
    """
    figures = {claim.id: claim.figure for claim in claims if claim.figure is not None}
    if not figures:
        return {}
    anchors = anchor_pattern(figures.values())
    sources = FigureSources(lines_matching=anchors, bare_numbers=False, humans=False)
    sources.extend(trace.frames)
    found: dict[str, tuple[str, ...]] = {}
    for claim_id, figure in figures.items():
        seen = sources.index.evidence_for(figure)
        if seen is not None:
            found[claim_id] = (seen,)
    return found


def asked_texts(trace: Trace) -> tuple[str, ...]:
    """What the user said in the run: the task and every human message."""
    said = [frame.content for frame in trace.frames if isinstance(frame, UserFrame)]
    return tuple(dict.fromkeys([trace.task, *said]))


def grade_extracted(
    trace: Trace,
    observations: Observations,
    figures: Sequence[dict[str, object]],
    *,
    found: Sequence[Figure] | None = None,
) -> list[dict[str, object]]:
    """Every claim extracted from the final answer, with its support, as plain values.

    ``figures`` are the answer's graded figures (:func:`grade_figures`); ``found`` the
    answer's figures as extracted, when the caller has them already.
    """
    claims = extract_answer_claims(trace.final_answer, asked=asked_texts(trace), figures=found)
    if not claims:
        return []
    evidence: dict[tuple[int, int, str], tuple[str, ...]] = {}
    for figure in figures:
        where = (int(str(figure["start"])), int(str(figure["end"])), str(figure["value"]))
        seen = figure["evidence"]
        evidence[where] = tuple(seen) if isinstance(seen, tuple) else ()
    return [
        {
            "kind": item.claim.kind,
            "raw": item.claim.raw,
            "text": item.claim.text,
            "start": item.claim.start,
            "end": item.claim.end,
            "given": item.claim.given,
            "hedged": item.claim.hedged,
            "support": item.support,
            "evidence": item.evidence,
        }
        for item in support_answer_claims(claims, observations, evidence)
    ]


def grade_observed(
    trace: Trace, question: Question, observations: Observations, *, auto: bool = False
) -> Grade:
    """Grade a run whose observations are already decoded.

    Args:
        trace: The run.
        question: What it was asked; :data:`NO_QUESTION` when there is no question file.
        observations: Its observations.
        auto: Also extract every checkable claim of the answer and grade each.
    """
    answer = trace.final_answer
    claims = extract_claims(answer, question)
    supported = support(claims, observations, fact_figure_evidence(trace, claims))
    provenance, truth, copies = _provenance(observations, question)
    found = extract_figures(answer)  # once, for the figures' grade and the extracted claims
    figures = grade_figures(trace, answer, found=found)
    extracted = grade_extracted(trace, observations, figures, found=found) if auto else []
    # One validation of the whole tree from plain values: cheaper than a model per claim
    # and per sighting, which on small traces cost more than the grading itself.
    return Grade.model_validate(
        {
            "trace_id": trace.id,
            "question_id": question.id,
            "tools": trace.tool_path,
            "observations": observations.count,
            "recorded_outcome": trace.outcome,
            "answer": grade_answer(answer, claims, any_tool_failed=trace.any_tool_failed),
            "claims": [
                {
                    "id": item.claim.id,
                    "text": item.claim.text,
                    "in_answer": item.claim.in_answer,
                    "support": item.support,
                    "evidence": item.evidence,
                }
                for item in supported
            ],
            "unread": [item.claim.id for item in supported if item.unread],
            "provenance": provenance,
            "truth": truth,
            "copies": copies,
            "final_answer": collapse(answer),
            "figures": figures,
            "as_text": [{"frame": frame, "tool": tool} for frame, tool in observations.as_text],
            "extracted": extracted,
            "reply": trace.reply_status,
        }
    )


def grade(
    trace: Trace,
    question: Question | None = None,
    *,
    auto: bool = False,
    strict: bool | None = None,
    decoders: Sequence[Decoder] = (),
) -> Grade:
    """Grade one run against one question, or with no question at all.

    Args:
        trace: The run.
        question: What it was asked, and how to check the answer; ``None``: graded by the
            claims extracted from its answer alone (``auto`` is then implied).
        auto: Also extract every checkable claim of the answer and grade each.
        strict: See :func:`~tracegrade.observations.observe` (default: strict for native
            traces, lenient for other formats).
        decoders: Extra decoders for this run's tools (a suite's ``[decoders.TOOL]``).

    Raises:
        UnreadableResultError: A tool result could not be decoded (see ``observe``).
    """
    observations = observe(trace, strict=strict, decoders=decoders)
    if question is None:
        return grade_observed(trace, NO_QUESTION, observations, auto=True)
    return grade_observed(trace, question, observations, auto=auto)


def grade_turns(
    trace: Trace,
    question: Question | None = None,
    *,
    auto: bool = False,
    strict: bool | None = None,
    decoders: Sequence[Decoder] = (),
) -> tuple[Grade, ...]:
    """Grade every user turn of a run, each against the evidence up to the end of that turn.

    Turn ``n`` is graded as the run cut where turn ``n + 1`` opens (:attr:`Trace.turns`): its
    answer is that turn's last reply, its evidence every tool result before the cut, and
    what the user gave is what they said up to then. Arguments are those of :func:`grade`.

    Returns:
        One grade per turn, in order, each with ``turn`` set (1 is the first); a run with
        no user message is one turn.

    Raises:
        UnreadableResultError: As :func:`grade`.
    """
    grades: list[Grade] = []
    for number, (_, end) in enumerate(trace.turns, start=1):
        cut = trace if end == len(trace.frames) else _cut(trace, end)
        graded = grade(cut, question, auto=auto, strict=strict, decoders=decoders)
        grades.append(graded.model_copy(update={"turn": number}))
    return tuple(grades)


def _cut(trace: Trace, end: int) -> Trace:
    """The run as it stood before frame ``end``: same id, fewer frames."""
    return trace.model_copy(update={"frames": trace.frames[:end], "tokens": trace.tokens[:end]})


def check(result: Grade, expectation: Expectation) -> tuple[str, ...]:
    """The ways a grade differs from its expectation, in a fixed order; empty when it holds.

    Answer, then provenance, then unread claims, then unsourced figures, then unsupported
    extracted claims; the last three compared as sets (sorted, comma-joined).
    """
    mismatches: list[str] = []
    if expectation.answer is not None and result.answer != expectation.answer:
        mismatches.append(f"answer: expected {expectation.answer}, got {result.answer}")
    if expectation.provenance is not None and result.provenance != expectation.provenance:
        mismatches.append(f"provenance: expected {expectation.provenance}, got {result.provenance}")
    if expectation.unread is not None:
        expected = ",".join(sorted(expectation.unread))
        got = ",".join(sorted(result.unread))
        if expected != got:
            mismatches.append(f"unread: expected [{expected}], got [{got}]")
    if expectation.unsourced is not None:
        expected = ",".join(sorted(expectation.unsourced))
        got = ",".join(sorted(figure.raw for figure in result.unsourced_figures))
        if expected != got:
            mismatches.append(f"unsourced: expected [{expected}], got [{got}]")
    if expectation.unsupported is not None:
        expected = ",".join(sorted(set(expectation.unsupported)))
        got = ",".join(sorted({claim.raw for claim in result.unsupported_claims}))
        if expected != got:
            mismatches.append(f"unsupported: expected [{expected}], got [{got}]")
    return tuple(mismatches)
