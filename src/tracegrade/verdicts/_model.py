"""The grade of one run against one question, as stored and served."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracegrade.claims import ClaimKind
from tracegrade.figures import FigureKind
from tracegrade.support import Support
from tracegrade.traces import Outcome, ReplyStatus

__all__ = [
    "AnswerGrade",
    "Expectation",
    "FigureSupport",
    "Grade",
    "GradedAnswerClaim",
    "GradedClaim",
    "GradedFigure",
    "Provenance",
    "Sighting",
    "TextResult",
]

AnswerGrade = Literal["success", "partial", "failure", "ungraded"]
FigureSupport = Literal["read", "unsupported"]
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


class GradedFigure(BaseModel):
    """A figure of the final answer, and whether a source showed it.

    Attributes:
        raw: As written in the answer.
        value: Normalised (``1500000``, ``12.5%``, ``30 days``, ``§8.22``).
        kind: ``money``, ``percent``, ``period``, ``section`` or ``number``.
        start: Where it starts in the final answer.
        end: Where it ends (exclusive).
        support: ``read`` when a human message or a successful tool result holds the same
            figure in any written form; ``unsupported`` when none does.
        evidence: The frame that first showed it (``f4``); empty when unsupported.
    """

    model_config = _FROZEN
    raw: str
    value: str
    kind: FigureKind
    start: int
    end: int
    support: FigureSupport
    evidence: tuple[str, ...]


class GradedAnswerClaim(BaseModel):
    """A claim extracted from the answer with no question file, and its support.

    Attributes:
        kind: ``figure``, ``path``, ``url``, ``email``, ``identifier``, ``quote``, ``id``,
            ``date``, ``name`` or ``quantity`` (docs/claims.md).
        raw: As written in the final answer.
        text: Normalised.
        start: Where it starts in the (uncollapsed) final answer.
        end: Where it ends (exclusive).
        given: The user's own messages said it; never counted as unsupported.
        hedged: The answer only guesses it; graded, reported apart.
        support: ``read``, ``named-only`` or ``unsupported``.
        evidence: Observation ids behind ``support`` (a frame, ``f4``, for figures).
    """

    model_config = _FROZEN
    kind: ClaimKind
    raw: str
    text: str
    start: int
    end: int
    given: bool = False
    hedged: bool = False
    support: Support
    evidence: tuple[str, ...]

    @property
    def counted(self) -> bool:
        """Whether it counts in the grounded share: every claim the user did not give."""
        return not self.given


class TextResult(BaseModel):
    """A tool result no decoder recognised, read as plain text (lenient mode).

    Attributes:
        frame: The result's frame index.
        tool: The tool that returned it; its text observations are named after it.
    """

    model_config = _FROZEN
    frame: int
    tool: str


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
        figures: Every figure of the (uncollapsed) final answer, read or unsupported.
        as_text: Results no decoder recognised, read as plain text: said, never silent.
        extracted: Every checkable claim of the answer found with no question file, in answer
            order (empty unless extraction was asked for: no question, or a case's ``auto``).
        reply: How the last turn ended: ``answered``, ``empty`` (only blank replies) or
            ``interrupted`` (no reply); the final answer is then ``""``, never an earlier
            turn's reply.
        turn: Which user turn this grades (1 is the first), when graded turn by turn
            (:func:`~tracegrade.verdicts.grade_turns`); ``None``: the whole run.
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
    figures: tuple[GradedFigure, ...] = ()
    as_text: tuple[TextResult, ...] = ()
    extracted: tuple[GradedAnswerClaim, ...] = ()
    reply: ReplyStatus = "answered"
    turn: int | None = None

    @property
    def unsupported_claims(self) -> tuple[GradedAnswerClaim, ...]:
        """Extracted claims no tool showed and the user did not give, in answer order."""
        return tuple(c for c in self.extracted if c.support == "unsupported" and not c.given)

    @property
    def grounded_share(self) -> float | None:
        """Read claims over every extracted claim the user did not give; ``None`` if none."""
        counted = [claim for claim in self.extracted if claim.counted]
        if not counted:
            return None
        return sum(claim.support == "read" for claim in counted) / len(counted)

    @property
    def unsourced_figures(self) -> tuple[GradedFigure, ...]:
        """The figures of the answer that no source showed."""
        return tuple(figure for figure in self.figures if figure.support == "unsupported")


class Expectation(BaseModel):
    """A prediction written before grading; a field left out is not checked.

    Attributes:
        answer: The expected answer grade.
        provenance: The expected provenance verdict.
        unread: The expected unread claim ids, compared as a set.
        unsourced: The figures of the answer no source showed, as written in the answer,
            compared as a set.
        unsupported: The extracted claims no tool showed (and the user did not give), as
            written in the answer, compared as a set.
    """

    model_config = _FROZEN
    answer: AnswerGrade | None = None
    provenance: Provenance | None = None
    unread: tuple[str, ...] | None = None
    unsourced: tuple[str, ...] | None = None
    unsupported: tuple[str, ...] | None = None
