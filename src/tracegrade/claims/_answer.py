"""extract_answer_claims(): every checkable claim of an answer, with no question file.

The scanners (``_scan.py``) find the claims of each kind with their written forms; here they
are put in answer order, deduplicated, and marked ``given`` when the user's own messages
already said them. The rules, kind by kind, are in docs/claims.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tracegrade.claims._answer_claim import AnswerClaim, shown_in
from tracegrade.claims._scan import scan_claims
from tracegrade.figures import FigureIndex, extract_figures

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["extract_answer_claims"]


def _figure_claims(answer: str) -> list[AnswerClaim]:
    return [
        AnswerClaim("figure", figure.raw, figure.value, figure.start, figure.end, (figure.raw,))
        for figure in extract_figures(answer)
    ]


def _overlaps(claim: AnswerClaim, taken: list[tuple[int, int]]) -> bool:
    return any(claim.start < end and start < claim.end for start, end in taken)


def extract_answer_claims(answer: str, *, asked: Sequence[str] = ()) -> tuple[AnswerClaim, ...]:
    """Every checkable claim of ``answer``, in answer order, each claim once.

    Figures come first in precedence (the figure helper owns them), then the scanners'
    kinds; a claim overlapping one already taken is dropped, so each character of the answer
    backs one claim at most. A claim repeated later in the answer is kept at its first place.

    Args:
        answer: The final answer.
        asked: The user's own messages: a claim they already hold is marked ``given``.
    """
    figures = _figure_claims(answer)
    taken = [(claim.start, claim.end) for claim in figures]
    claims = list(figures)
    for claim in scan_claims(answer):
        if not _overlaps(claim, taken):
            claims.append(claim)
            taken.append((claim.start, claim.end))
    claims.sort(key=lambda claim: (claim.start, claim.end))
    seen: set[tuple[str, str]] = set()
    unique: list[AnswerClaim] = []
    for claim in claims:
        key = (claim.kind, claim.text)
        if key not in seen:
            seen.add(key)
            unique.append(claim)
    if not asked:
        return tuple(unique)
    asked_figures = FigureIndex()
    for position, text in enumerate(asked):
        asked_figures.add(text, f"asked{position}")
    figures_of = {(f.start, f.end): f for f in extract_figures(answer)}
    marked = []
    for claim in unique:
        if claim.kind == "figure":
            figure = figures_of.get((claim.start, claim.end))
            given = figure is not None and asked_figures.evidence_for(figure) is not None
        else:
            given = any(shown_in(form, asked) for form in claim.forms)
        marked.append(replace(claim, given=True) if given else claim)
    return tuple(marked)
