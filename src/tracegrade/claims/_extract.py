"""extract_claims(): what an answer asserts, as claims to check against the evidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade._text import contains_each

if TYPE_CHECKING:
    from tracegrade.claims._question import Question

__all__ = ["Claim", "ClaimOrigin", "extract_claims"]

ClaimOrigin = Literal["fact"]


@dataclass(frozen=True, slots=True)
class Claim:
    """Something a right answer asserts.

    Attributes:
        id: The fact's id.
        text: The text to look for, in the answer and in the evidence.
        in_answer: Whether the final answer contains the text (case-insensitive).
        origin: Where the claim came from: an expected fact of the question.
    """

    id: str
    text: str
    in_answer: bool
    origin: ClaimOrigin = "fact"


def extract_claims(answer: str, question: Question) -> tuple[Claim, ...]:
    """One claim per expected fact of the question, in question order.

    A claim is made for every fact, in the answer or not: support is decided over
    the evidence either way, and only claims in the answer can be unread.
    """
    found = contains_each(answer, [fact.text for fact in question.facts])
    return tuple(
        Claim(fact.id, fact.text, in_answer)
        for fact, in_answer in zip(question.facts, found, strict=True)
    )
