"""support(): was each claim read, only named, or never shown by a tool?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.claims import Claim
    from tracegrade.observations import Observations

__all__ = ["ClaimSupport", "Support", "support", "support_claim"]

Support = Literal["read", "named-only", "unsupported"]


@dataclass(frozen=True, slots=True)
class ClaimSupport:
    """A claim with the strongest evidence for it.

    Attributes:
        claim: The claim.
        support: ``read``: a line a tool returned contains the text, or the line's own
            source name does (a line reads its own path); ``named-only``: only a name
            (a listed file, a result URL) contains it; ``unsupported``: no tool showed it.
        evidence: Ids of the observations behind ``support``; empty when unsupported.
            A document whose name contains the text is cited once, by its first line.
    """

    claim: Claim
    support: Support
    evidence: tuple[str, ...]

    @property
    def unread(self) -> bool:
        """In the answer, but no tool returned it as content."""
        return self.claim.in_answer and self.support != "read"


def support_claim(claim: Claim, observations: Observations) -> ClaimSupport:
    """Decide one claim's support over all observations, in the answer or not."""
    read = observations.find_ids(claim.text, "text")
    by_source = observations.find_ids(claim.text, "source")
    if read or by_source:
        return ClaimSupport(claim, "read", tuple(dict.fromkeys(read + by_source)))
    named = observations.find_ids(claim.text, "name")
    if named:
        return ClaimSupport(claim, "named-only", tuple(named))
    return ClaimSupport(claim, "unsupported", ())


def support(claims: Iterable[Claim], observations: Observations) -> tuple[ClaimSupport, ...]:
    """Decide every claim's support, in claim order."""
    return tuple(support_claim(claim, observations) for claim in claims)
