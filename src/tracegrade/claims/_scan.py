"""scan_claims(): the claims of every kind but figures, found in one pass over the answer."""

from __future__ import annotations

from tracegrade.claims._answer_claim import AnswerClaim

__all__ = ["scan_claims"]


def scan_claims(answer: str) -> list[AnswerClaim]:
    """The claims of ``answer`` other than figures, in any order (placeholder: none yet)."""
    del answer
    return []
