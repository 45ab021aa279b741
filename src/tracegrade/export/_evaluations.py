"""A run's verdicts as evaluation results: one for the run, one per claim (pure).

Every exporter (OpenTelemetry events, Phoenix annotations, Langfuse scores) sends the same
:class:`Evaluation` values, so the three say the same thing. A run read from spans
(OpenInference, OTel GenAI) names the span that wrote its final answer: evaluations are
attached to it. Any other run is named by its recorded id (``gen_ai.response.id``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.traces import AssistantFrame
from tracegrade.verdicts import NO_QUESTION

if TYPE_CHECKING:
    from tracegrade.traces import Trace
    from tracegrade.verdicts import Grade, GradedAnswerClaim

__all__ = [
    "CLAIM",
    "GROUNDING",
    "PROVENANCE",
    "Evaluation",
    "SpanRef",
    "answer_span",
    "evaluations",
]

GROUNDING = "tracegrade.grounding"
"""The run's evaluation: the share of its answer's claims that a tool returned."""
CLAIM = "tracegrade.claim"
"""One claim's evaluation: read, named-only, unsupported or given."""
PROVENANCE = "tracegrade.provenance"
"""The run's provenance verdict, when a question names the true source."""

_SPAN_ORIGIN = re.compile(r"span ([0-9a-f]{16})(?:,|$)")
_TRACE_ID = re.compile(r"[0-9a-f]{32}")
_CLAIM_SCORE = {"read": 1.0, "named-only": 0.0, "unsupported": 0.0}
_SHOWN = 5


@dataclass(frozen=True, slots=True)
class SpanRef:
    """The span an evaluation is about: W3C trace id (32 hex) and span id (16 hex)."""

    trace_id: str
    span_id: str


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One evaluation result, in the terms every exporter shares.

    Attributes:
        name: ``tracegrade.grounding``, ``tracegrade.claim`` or ``tracegrade.provenance``.
        score: A number in [0, 1]; ``None`` when there is nothing to score (never a stand-in).
        label: The verdict in a word (``grounded``, ``unsupported``, ``from-copy``, ...).
        explanation: One or two sentences a person reads.
        run: The run's recorded id (``gen_ai.response.id`` when there is no span).
        span: The span that wrote the answer, when the run was read from spans.
        claim: The claim this evaluation is about (``tracegrade.claim`` only).
    """

    name: str
    score: float | None
    label: str
    explanation: str
    run: str
    span: SpanRef | None
    claim: GradedAnswerClaim | None = None

    @property
    def key(self) -> str:
        """What tells this evaluation apart from the others of its run (stable across runs)."""
        if self.claim is None:
            return self.name
        return f"{self.name}:{self.claim.kind}:{self.claim.start}-{self.claim.end}"


def answer_span(trace: Trace) -> SpanRef | None:
    """The span whose output is the run's final answer, if the run was read from spans."""
    if not _TRACE_ID.fullmatch(trace.id):
        return None
    for frame in reversed(trace.frames):
        if isinstance(frame, AssistantFrame) and frame.content.strip():
            found = _SPAN_ORIGIN.match(frame.origin or "")
            return SpanRef(trace.id, found.group(1)) if found else None
    return None


def _claim_word(claim: GradedAnswerClaim) -> str:
    return f"{claim.kind} {claim.raw!r}"


def _grounding(grade: Grade, run: str, span: SpanRef | None) -> Evaluation:
    counted = [claim for claim in grade.extracted if claim.counted]
    failing = [claim for claim in counted if claim.support != "read"]
    share = grade.grounded_share
    if not counted:
        return Evaluation(GROUNDING, None, "no-claims", "The answer makes no checkable claim.",
                          run, span)  # fmt: skip
    named = ", ".join(_claim_word(c) for c in failing[:_SHOWN])
    more = f" and {len(failing) - _SHOWN} more" if len(failing) > _SHOWN else ""
    explanation = (
        f"{len(counted) - len(failing)} of {len(counted)} claims were read in a tool result"
    )
    if failing:
        explanation += f"; not read: {named}{more}"
    return Evaluation(
        GROUNDING, share, "ungrounded" if failing else "grounded", explanation + ".", run, span
    )


def _claim(claim: GradedAnswerClaim, run: str, span: SpanRef | None) -> Evaluation:
    where = f"{_claim_word(claim)} at {claim.start}-{claim.end} of the answer"
    if claim.given:
        return Evaluation(CLAIM, None, "given", f"{where}: the user said it.", run, span, claim)
    evidence = ", ".join(claim.evidence[:_SHOWN])
    said = {
        "read": f"{where}: read in {evidence}.",
        "named-only": f"{where}: only named in {evidence} (a name, never its content).",
        "unsupported": f"{where}: no tool result holds it.",
    }[claim.support]
    if claim.hedged:
        said += " The answer only guesses it."
    return Evaluation(CLAIM, _CLAIM_SCORE[claim.support], claim.support, said, run, span, claim)


def _provenance(grade: Grade, run: str, span: SpanRef | None) -> Evaluation:
    if grade.provenance == "ungradable":
        return Evaluation(PROVENANCE, None, "ungradable",
                          f"Question {grade.question_id!r} names no true source and tell.",
                          run, span)  # fmt: skip
    truth = len(grade.truth)
    copies = len(grade.copies)
    explanation = (
        f"Against question {grade.question_id!r}: the tell was seen {truth} time(s) in the true"
        f" source and {copies} time(s) elsewhere."
    )
    score = 1.0 if grade.provenance == "grounded" else 0.0
    return Evaluation(PROVENANCE, score, grade.provenance, explanation, run, span)


def evaluations(trace: Trace, grade: Grade) -> tuple[Evaluation, ...]:
    """The run's evaluation, its provenance when a question was given, then one per claim."""
    span = answer_span(trace)
    found = [_grounding(grade, trace.id, span)]
    if grade.question_id != NO_QUESTION.id:
        found.append(_provenance(grade, trace.id, span))
    found.extend(_claim(claim, trace.id, span) for claim in grade.extracted)
    return tuple(found)
