"""Figure extraction, by the engine ``TRACEGRADE_CORE`` selects (the compiled core by default).

The rules are :mod:`tracegrade.figures._extract` (the reference); the core runs the same
patterns (rust/src/figures) and gives the same figures, or ``None`` for a text it leaves to
the reference (a lone surrogate, a lower case of another length, a number nested too deep).
tests/figures/test_extract_engines.py holds the two equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade._engine import compiled_core
from tracegrade.figures._extract import compiled_rules, reference_figures, reference_numbers
from tracegrade.figures._model import Figure

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade._core import FigureExtractor

__all__ = ["extract_figures", "figure_of", "iter_figures", "number_values"]

_COMPILED: dict[str, FigureExtractor] = {}


def compiled_extractor() -> FigureExtractor | None:
    """The core's extractor (built once from the reference's patterns and tables), or ``None``.

    ``None`` when ``TRACEGRADE_CORE=python`` selects the reference.
    """
    core = compiled_core()
    if core is None:
        return None
    extractor = _COMPILED.get("extractor")
    if extractor is None:
        extractor = core.FigureExtractor(*compiled_rules())
        _COMPILED["extractor"] = extractor
    return extractor


def iter_figures(text: str) -> Iterator[Figure]:
    """Every figure of ``text`` in order of appearance, repeats included."""
    extractor = compiled_extractor()
    if extractor is not None:
        found = extractor.figures(text)
        if found is not None:
            return iter([Figure(*figure) for figure in found])
    return reference_figures(text)


def number_values(text: str) -> list[str]:
    """The canonical value of every number ``text`` writes, of any size, outside identifiers.

    ``"card_4421 costs 1,500.00"`` gives ``["1500"]``: what a bare figure may be sourced by.
    """
    extractor = compiled_extractor()
    if extractor is not None:
        found = extractor.numbers(text)
        if found is not None:
            return found
    return reference_numbers(text)


def extract_figures(text: str) -> tuple[Figure, ...]:
    """The figures of a text, deduplicated by :attr:`Figure.key`, in order of first appearance.

    Figures are money amounts (``$1.5 million``, ``£3m``, ``1,500 USD``), percentages
    (``12.5 %``), day/week/month/year periods (``30 days``, ``thirty (30) days``, ``2-year``),
    section references (``Section 8.10``, ``§ 8.22``, ``Sec. 4(b)``) and numbers of four or
    more digits (``2024``, ``1,500,000``, ``1.5 billion``). Small integers without a unit,
    status codes (``HTTP 404``), versions (``v1.2.3``), ages (``21-year-old``) and
    identifiers (``HAT123``, ``555-123-4567``) are not figures.

    Args:
        text: Any text: an answer, a tool result, a tool call's argument.

    Returns:
        One :class:`Figure` per distinct key; its span is that of the first occurrence.
    """
    extractor = compiled_extractor()
    if extractor is not None:
        distinct = extractor.figures(text, distinct=True)  # repeats never reach Python
        if distinct is not None:
            return tuple(Figure(*figure) for figure in distinct)
    seen: set[str] = set()
    found: list[Figure] = []
    for figure in reference_figures(text):
        if figure.value not in seen:
            seen.add(figure.value)
            found.append(figure)
    return tuple(found)


def figure_of(text: str) -> Figure | None:
    """The figure a text is as a whole (``"$1,072"``, ``"30 days"``, ``"2024"``), else ``None``.

    ``None`` for a text with no figure, with more than one (a range), or with other words
    around its figure (``"about $3 million"``, ``"the total is $1,072"``).
    """
    stripped = text.strip()
    figures = list(iter_figures(stripped))
    if len(figures) != 1 or figures[0].raw != stripped:
        return None
    return figures[0]
