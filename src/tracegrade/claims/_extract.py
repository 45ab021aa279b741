"""extract_claims(): what an answer asserts, as claims to check against the evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from tracegrade._text import contains_each
from tracegrade.figures import extract_figures, figure_of

if TYPE_CHECKING:
    from tracegrade.claims._question import Question
    from tracegrade.figures import Figure

__all__ = ["Claim", "ClaimOrigin", "extract_claims"]

ClaimOrigin = Literal["fact"]


@dataclass(frozen=True, slots=True)
class Claim:
    """Something a right answer asserts.

    Attributes:
        id: The fact's id.
        text: The text to look for, in the answer and in the evidence.
        in_answer: Whether the final answer contains the text (case-insensitive), or, for
            a fact that is a figure, holds the same figure in any written form.
        origin: Where the claim came from: an expected fact of the question.
        figure: The figure the fact's text is as a whole (``$1,072``), compared by the
            figure rules (docs/figures.md); ``None`` for any other fact. Derived from
            ``text``, so not part of equality.
    """

    id: str
    text: str
    in_answer: bool
    origin: ClaimOrigin = "fact"
    figure: Figure | None = field(default=None, compare=False)  # derived from the text


def extract_claims(answer: str, question: Question) -> tuple[Claim, ...]:
    """One claim per expected fact of the question, in question order.

    A claim is made for every fact, in the answer or not: support is decided over
    the evidence either way, and only claims in the answer can be unread. A fact whose text
    is one figure is also in the answer when the answer writes that figure in another form
    (``$1,072`` and ``1072 dollars``).
    """
    found = contains_each(answer, [fact.text for fact in question.facts])
    figures = [figure_of(fact.text) for fact in question.facts]
    written = {f.key for f in extract_figures(answer)} if any(figures) else set()
    return tuple(
        Claim(fact.id, fact.text, in_answer or (figure is not None and figure.key in written),
              figure=figure)
        for fact, in_answer, figure in zip(question.facts, found, figures, strict=True)
    )  # fmt: skip
