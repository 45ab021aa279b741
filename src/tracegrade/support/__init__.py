"""Support: per claim, read / named-only / unsupported, with the evidence ids (pure)."""

from tracegrade.support._answer import AnswerClaimSupport, support_answer_claims
from tracegrade.support._support import ClaimSupport, Support, support, support_claim

__all__ = [
    "AnswerClaimSupport",
    "ClaimSupport",
    "Support",
    "support",
    "support_answer_claims",
    "support_claim",
]
