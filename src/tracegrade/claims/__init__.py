"""Claims: what an answer asserts, from a question's facts or extracted with none (pure)."""

from tracegrade.claims._answer import extract_answer_claims
from tracegrade.claims._answer_claim import AnswerClaim, ClaimKind, form_pattern, shown_in
from tracegrade.claims._extract import Claim, ClaimOrigin, extract_claims
from tracegrade.claims._question import Fact, Question

__all__ = [
    "AnswerClaim",
    "Claim",
    "ClaimKind",
    "ClaimOrigin",
    "Fact",
    "Question",
    "extract_answer_claims",
    "extract_claims",
    "form_pattern",
    "shown_in",
]
