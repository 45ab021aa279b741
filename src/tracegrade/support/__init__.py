"""Support: per claim, read / named-only / unsupported, with the evidence ids (pure)."""

from tracegrade.support._support import ClaimSupport, Support, support, support_claim

__all__ = ["ClaimSupport", "Support", "support", "support_claim"]
