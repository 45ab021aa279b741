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
    from collections.abc import Callable, Mapping, Sequence

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


def _whole_word(form: str) -> Callable[[str], object]:
    if not (form[:1].isalnum() or form[-1:].isalnum()):
        return bool  # no word edge to check: the substring hit is the answer
    return form_pattern(form).search


def _support_one(claim: AnswerClaim, observations: Observations) -> AnswerClaimSupport:
    read: list[str] = []
    words = [(form, _whole_word(form)) for form in claim.forms]
    for form, word in words:
        read.extend(observations.find_word_ids(form, "text", word))
        read.extend(observations.find_word_ids(form, "source", word))
    if read:
        return AnswerClaimSupport(claim, "read", tuple(dict.fromkeys(read)))
    named: list[str] = []
    for form, word in words:
        named.extend(observations.find_word_ids(form, "name", word))
    if named:
        return AnswerClaimSupport(claim, "named-only", tuple(dict.fromkeys(named)))
    return AnswerClaimSupport(claim, "unsupported", ())


def support_answer_claims(
    claims: Sequence[AnswerClaim],
    observations: Observations,
    figure_evidence: Mapping[tuple[int, int, str], tuple[str, ...]],
) -> tuple[AnswerClaimSupport, ...]:
    """Decide every extracted claim's support, in claim order.

    Args:
        claims: From :func:`~tracegrade.claims.extract_answer_claims`.
        observations: The run's observations.
        figure_evidence: For each figure of the answer, by ``(start, end, value)`` (a
            range's two ends share a span), the evidence the figures' index found for it
            (empty: unsourced).
    """
    supported: list[AnswerClaimSupport] = []
    for claim in claims:
        if claim.kind == "figure":
            seen = figure_evidence.get((claim.start, claim.end, claim.text), ())
            supported.append(AnswerClaimSupport(claim, "read" if seen else "unsupported", seen))
        else:
            supported.append(_support_one(claim, observations))
    return tuple(supported)
