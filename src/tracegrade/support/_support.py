"""support(): was each claim read, only named, or never shown by a tool?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

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
            source name does (a line reads its own path), or, for a fact that is a figure,
            a tool result holds the figure in any written form; ``named-only``: only a name
            (a listed file, a result URL) contains it; ``unsupported``: no tool showed it.
        evidence: Ids of the observations behind ``support``; empty when unsupported.
            A document whose name contains the text is cited once, by its first line. A
            figure read only by the figure rules cites the frame that showed it (``f4``).
    """

    claim: Claim
    support: Support
    evidence: tuple[str, ...]

    @property
    def unread(self) -> bool:
        """In the answer, but no tool returned it as content."""
        return self.claim.in_answer and self.support != "read"


def support_claim(
    claim: Claim, observations: Observations, figure_evidence: tuple[str, ...] = ()
) -> ClaimSupport:
    """Decide one claim's support over all observations, in the answer or not.

    Args:
        claim: The claim.
        observations: The run's observations.
        figure_evidence: For a fact that is a figure, the tool results the figures' index
            found it in (:attr:`Claim.figure`); it reads the fact when no line contains the
            text as written.
    """
    read = observations.find_ids(claim.text, "text")
    by_source = observations.find_ids(claim.text, "source")
    if read or by_source:
        return ClaimSupport(claim, "read", tuple(dict.fromkeys(read + by_source)))
    if figure_evidence:
        return ClaimSupport(claim, "read", figure_evidence)
    named = observations.find_ids(claim.text, "name")
    if named:
        return ClaimSupport(claim, "named-only", tuple(named))
    return ClaimSupport(claim, "unsupported", ())


def support(
    claims: Iterable[Claim],
    observations: Observations,
    figure_evidence: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[ClaimSupport, ...]:
    """Decide every claim's support, in claim order.

    Args:
        claims: The claims.
        observations: The run's observations.
        figure_evidence: By claim id, for facts that are figures, where the figures' index
            found each (see :func:`support_claim`).
    """
    found = figure_evidence or {}
    return tuple(support_claim(claim, observations, found.get(claim.id, ())) for claim in claims)
