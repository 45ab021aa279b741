"""The figure: one money amount, percentage, period, section reference or large number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Figure", "FigureKind", "Hedge"]

FigureKind = Literal["money", "percent", "period", "section", "number"]
Hedge = Literal["about", "over", "under"]


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure found in a text, with its normalised value and where it was written.

    Attributes:
        kind: ``money``, ``percent``, ``period``, ``section`` or ``number``.
        raw: The text as written, ``text[start:end]`` (e.g. ``"$1.5 million"``). A range
            such as ``"$5-10 million"`` yields one figure per end, both with the whole range
            as ``raw``.
        value: The normalised value: a plain decimal for money and numbers (``"1500000"``;
            the currency is not kept), ``"12.5%"``, ``"30 days"``, ``"§8.22"``, ``"§4(b)"``.
        start: Where ``raw`` starts in the text.
        end: Where ``raw`` ends in the text (exclusive).
        hedge: For money and numbers, the approximation the text puts before the figure:
            ``"about"`` (about, around, approximately, ~), ``"over"`` (over, more than, at
            least) or ``"under"`` (nearly, almost, under, less than); ``None`` when the
            figure is stated as exact. A hedged figure is also sourced by a source figure
            that rounds (``about``, ``under``) or truncates (``over``) to it; see
            :class:`FigureIndex`.
        bare: A number that is a value as a whole (a spreadsheet cell, an ``amount`` field;
            see :func:`number_figure`), not one found in prose. It is sourced by the same
            number anywhere in a source, whatever its size: ``"amount": 250`` in a tool
            result sources a bare ``250``, though ``250`` in prose is not a figure.
    """

    kind: FigureKind
    raw: str
    value: str
    start: int
    end: int
    hedge: Hedge | None = None
    bare: bool = False

    @property
    def key(self) -> str:
        """What "the same figure" means: equal keys if and only if the same figure.

        Money and plain numbers compare by numeric value, whatever the currency
        (``$1,500,000``, ``1,500,000``, ``1500000`` and ``$1.5M`` share the key ``"1500000"``);
        the other kinds carry their unit in the value (``"12.5%"``, ``"30 days"``, ``"§8.22"``),
        so a key never collides across kinds that differ in meaning.
        """
        return self.value
