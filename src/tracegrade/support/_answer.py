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

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from tracegrade.claims import AnswerClaim
    from tracegrade.observations import Observations, SearchField
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


def _ids_by_form(
    observations: Observations, forms: list[str], fields: tuple[SearchField, ...]
) -> dict[str, list[str]]:
    """Per form, the ids of the observations showing it in any of ``fields``, field by field."""
    found: dict[str, list[str]] = {form: [] for form in forms}
    for where in fields if forms else ():  # no form: no index to build
        for form, ids in zip(forms, observations.find_word_ids(forms, where), strict=True):
            found[form].extend(ids)
    return found


def _shown(claim: AnswerClaim, ids: dict[str, list[str]]) -> tuple[str, ...]:
    """The ids showing any form of the claim, each once, in form order."""
    if len(claim.forms) == 1:
        return tuple(dict.fromkeys(ids[claim.forms[0]]))
    return tuple(dict.fromkeys(oid for form in claim.forms for oid in ids[form]))


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
    worded = [claim for claim in claims if claim.kind != "figure"]
    # Every form in one search per field; names only for the claims no line shows.
    read_ids = _ids_by_form(observations, _forms(worded), ("text", "source"))
    read = [_shown(claim, read_ids) for claim in worded]
    unread = [claim for claim, shown in zip(worded, read, strict=True) if not shown]
    named_ids = _ids_by_form(observations, _forms(unread), ("name",))
    read_of = iter(read)  # in the order of `worded`
    supported: list[AnswerClaimSupport] = []
    for claim in claims:
        if claim.kind == "figure":
            seen = figure_evidence.get((claim.start, claim.end, claim.text), ())
            supported.append(AnswerClaimSupport(claim, "read" if seen else "unsupported", seen))
        elif evidence := next(read_of):
            supported.append(AnswerClaimSupport(claim, "read", evidence))
        elif evidence := _shown(claim, named_ids):
            supported.append(AnswerClaimSupport(claim, "named-only", evidence))
        else:
            supported.append(AnswerClaimSupport(claim, "unsupported", ()))
    return tuple(supported)


def _forms(claims: list[AnswerClaim]) -> list[str]:
    return list(dict.fromkeys(form for claim in claims for form in claim.forms))
