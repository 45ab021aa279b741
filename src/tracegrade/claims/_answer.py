"""extract_answer_claims(): every checkable claim of an answer, with no question file.

The scanners (``_scan.py``) find the claims of each kind with their written forms; here they
are put in answer order, deduplicated, and marked ``given`` when the user's own messages
already said them. The rules, kind by kind, are in docs/claims.md.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from dataclasses import replace
from typing import TYPE_CHECKING

from tracegrade.claims._answer_claim import AnswerClaim, shown_in
from tracegrade.figures import FigureIndex, extract_figures

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.figures import Figure

__all__ = ["extract_answer_claims"]


def _figure_claim(figure: Figure) -> AnswerClaim:
    return AnswerClaim("figure", figure.raw, figure.value, figure.start, figure.end, (figure.raw,))


class _Taken:
    """The answer's characters already backing a claim: sorted, disjoint ``(start, end)``."""

    __slots__ = ("_spans",)

    def __init__(self) -> None:
        self._spans: list[tuple[int, int]] = []

    def overlaps(self, start: int, end: int) -> bool:
        spans = self._spans
        at = bisect_right(spans, (start, end))
        # Disjoint and sorted: only the neighbours on either side can overlap.
        return (at > 0 and spans[at - 1][1] > start) or (at < len(spans) and spans[at][0] < end)

    def add(self, start: int, end: int) -> None:
        if not self.overlaps(start, end):
            insort(self._spans, (start, end))


def extract_answer_claims(
    answer: str, *, asked: Sequence[str] = (), figures: Sequence[Figure] | None = None
) -> tuple[AnswerClaim, ...]:
    """Every checkable claim of ``answer``, in answer order, each claim once.

    Figures come first in precedence (the figure helper owns them), then the scanners'
    kinds; a claim overlapping one already taken is dropped, so each character of the answer
    backs one claim at most. A claim repeated later in the answer is kept at its first place.

    Args:
        answer: The final answer.
        asked: The user's own messages: a claim they already hold is marked ``given``.
        figures: ``extract_figures(answer)``, when the caller has it already.
    """
    # The scanners compile many patterns at import; grading against a question never runs them.
    from tracegrade.claims._scan import mark_hedged, scan_claims  # noqa: PLC0415 - see above

    if figures is None:
        figures = extract_figures(answer)
    # Figures guess too ("most likely 45 days"): one hedge rule for every kind.
    claims = mark_hedged(answer, [_figure_claim(figure) for figure in figures])
    taken = _Taken()
    for claim in claims:
        taken.add(claim.start, claim.end)  # a range's two ends share one span
    for claim in scan_claims(answer):
        if not taken.overlaps(claim.start, claim.end):
            claims.append(claim)
            taken.add(claim.start, claim.end)
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
    if figures:  # the index is only asked about the answer's figures
        for position, text in enumerate(asked):
            asked_figures.add(text, f"asked{position}")
    figures_of = {(f.start, f.end, f.value): f for f in figures}
    lowered = [text.lower() for text in asked]  # once, not once per form
    marked = []
    for claim in unique:
        if claim.kind == "figure":
            figure = figures_of.get((claim.start, claim.end, claim.text))
            given = figure is not None and asked_figures.evidence_for(figure) is not None
        else:
            given = any(shown_in(form, asked, lowered) for form in claim.forms)
        marked.append(replace(claim, given=True) if given else claim)
    return tuple(marked)
