"""support_answer_claims(): was each claim extracted from the answer read, named, or never shown?

One evidence policy with the figures: only what tools returned is evidence (assistant prose
and call arguments never are); what the user said makes a claim ``given``, decided at
extraction. A claim is shown by any of its written forms found as a whole word
(case-insensitive): in a line a tool returned, or in that line's source name, it is ``read``;
only in a name (a listed file, a result URL), ``named-only``. Figures are looked up by value
through the figures' own index (docs/figures.md), passed in as graded figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.claims import form_pattern

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tracegrade.claims import AnswerClaim
    from tracegrade.observations import Observations
    from tracegrade.support._support import Support

__all__ = ["AnswerClaimSupport", "support_answer_claims"]


@dataclass(frozen=True, slots=True)
class AnswerClaimSupport:
    """An extracted claim with the strongest evidence for it.

    Attributes:
        claim: The claim.
        support: ``read``, ``named-only`` or ``unsupported`` (see :data:`Support`).
        evidence: Observation ids (``f4.2``) or, for figures, the frame that showed it
            (``f4``); empty when unsupported.
    """

    claim: AnswerClaim
    support: Support
    evidence: tuple[str, ...]


def _read_ids(form: str, observations: Observations) -> list[str]:
    pattern = None
    found: list[str] = []
    lowered = form.lower()
    for line in observations.lines_containing(form):
        pattern = pattern or form_pattern(form)
        if pattern.search(line.text):
            found.append(line.id)
    for line in observations.lines_from(form):
        if lowered in line.file.lower():
            pattern = pattern or form_pattern(form)
            if pattern.search(line.file):
                found.append(line.id)
    return found


def _named_ids(form: str, observations: Observations) -> list[str]:
    pattern = form_pattern(form)
    return [obs.id for obs in observations.names_containing(form) if pattern.search(obs.file)]


def _support_one(claim: AnswerClaim, observations: Observations) -> AnswerClaimSupport:
    read: list[str] = []
    for form in claim.forms:
        read.extend(_read_ids(form, observations))
    if read:
        return AnswerClaimSupport(claim, "read", tuple(dict.fromkeys(read)))
    named: list[str] = []
    for form in claim.forms:
        named.extend(_named_ids(form, observations))
    if named:
        return AnswerClaimSupport(claim, "named-only", tuple(dict.fromkeys(named)))
    return AnswerClaimSupport(claim, "unsupported", ())


def support_answer_claims(
    claims: Sequence[AnswerClaim],
    observations: Observations,
    figure_evidence: Mapping[tuple[int, int], tuple[str, ...]],
) -> tuple[AnswerClaimSupport, ...]:
    """Decide every extracted claim's support, in claim order.

    Args:
        claims: From :func:`~tracegrade.claims.extract_answer_claims`.
        observations: The run's observations.
        figure_evidence: For each figure of the answer, by ``(start, end)``, the evidence
            the figures' index found for it (empty: unsourced).
    """
    supported: list[AnswerClaimSupport] = []
    for claim in claims:
        if claim.kind == "figure":
            seen = figure_evidence.get((claim.start, claim.end), ())
            supported.append(AnswerClaimSupport(claim, "read" if seen else "unsupported", seen))
        else:
            supported.append(_support_one(claim, observations))
    return tuple(supported)
