"""The grade of one run against one question, as stored and served."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracegrade.support import Support
from tracegrade.traces import Outcome

__all__ = ["AnswerGrade", "Expectation", "Grade", "GradedClaim", "Provenance", "Sighting"]

AnswerGrade = Literal["success", "partial", "failure", "ungraded"]
Provenance = Literal["grounded", "undecidable", "from-copy", "unevidenced", "ungradable"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Sighting(BaseModel):
    """A line observation that carries the question's tell.

    Attributes:
        observation: The observation's id.
        frame: The tool-result frame it came from.
        file: Its source (a path, a URL, ``$ command``).
        line: Its line number in that source.
        text: The line's text.
    """

    model_config = _FROZEN
    observation: str
    frame: int
    file: str
    line: int | float
    text: str


class GradedClaim(BaseModel):
    """A claim with its support and the observations behind it."""

    model_config = _FROZEN
    id: str
    text: str
    in_answer: bool
    support: Support
    evidence: tuple[str, ...]


class Grade(BaseModel):
    """Everything the grader concluded about one run.

    Attributes:
        schema_version: Version of this model.
        trace_id: The run's recorded id.
        question_id: The question it was graded against.
        tools: Every tool the run called, in order (denied calls included).
        observations: How many observations its tool results produced.
        recorded_outcome: What the recorder wrote at record time (``None``: not recorded).
        answer: The answer grade, recomputed from the expected facts.
        claims: Each expected fact: in the answer or not, and its support.
        unread: Ids of claims in the answer that no tool returned as content, in order.
        provenance: Whether the run saw the one true source, a copy, both or neither.
        truth: Sightings of the tell in the true source.
        copies: Sightings of the tell anywhere else.
        final_answer: The final answer with whitespace collapsed.
    """

    model_config = _FROZEN
    schema_version: Literal[1] = 1
    trace_id: str
    question_id: str
    tools: tuple[str, ...]
    observations: int
    recorded_outcome: Outcome | None
    answer: AnswerGrade
    claims: tuple[GradedClaim, ...]
    unread: tuple[str, ...]
    provenance: Provenance
    truth: tuple[Sighting, ...]
    copies: tuple[Sighting, ...]
    final_answer: str


class Expectation(BaseModel):
    """A prediction written before grading; a field left out is not checked.

    Attributes:
        answer: The expected answer grade.
        provenance: The expected provenance verdict.
        unread: The expected unread claim ids, compared as a set.
    """

    model_config = _FROZEN
    answer: AnswerGrade | None = None
    provenance: Provenance | None = None
    unread: tuple[str, ...] | None = None
