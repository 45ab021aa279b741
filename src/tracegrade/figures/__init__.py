"""Figures: money, percentages, periods, section references and large numbers (pure).

:func:`extract_figures` finds the figures of a text and normalises them, so that
``$1,500,000``, ``1,500,000`` and ``$1.5M`` are one :class:`Figure` key.
:class:`FigureIndex` holds the figures of the sources seen so far (the haystack), and
:func:`unsourced_figures` answers which figures of a text none of the sources holds;
:func:`amount_values` says which numbers of a JSON tool result source money. The
offline assertion and the runtime guard share these rules (docs/figures.md).
"""

from tracegrade.figures._anchors import anchor_pattern
from tracegrade.figures._bare import number_figure
from tracegrade.figures._find import extract_figures, figure_of
from tracegrade.figures._index import FigureIndex, unsourced_figures
from tracegrade.figures._model import Figure, FigureKind, Hedge
from tracegrade.figures._sources import FigureSources, result_text
from tracegrade.figures._structured import amount_values

__all__ = [
    "Figure",
    "FigureIndex",
    "FigureKind",
    "FigureSources",
    "Hedge",
    "amount_values",
    "anchor_pattern",
    "extract_figures",
    "figure_of",
    "number_figure",
    "result_text",
    "unsourced_figures",
]
