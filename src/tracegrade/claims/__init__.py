"""Claims: what an answer asserts, taken from a question's expected facts (pure)."""

from tracegrade.claims._extract import Claim, ClaimOrigin, extract_claims
from tracegrade.claims._question import Fact, Question

__all__ = ["Claim", "ClaimOrigin", "Fact", "Question", "extract_claims"]
