"""number_figure(): a bare number (a cell, an ``amount`` field) as one figure."""

from __future__ import annotations

import math
import re
from decimal import Decimal

from tracegrade.figures._model import Figure
from tracegrade.figures._numbers import canonical, number_value

__all__ = ["number_figure"]

_BARE_NUMBER = re.compile(r"\s*[-+\u2212]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*")


def number_figure(value: object) -> Figure | None:
    """A bare number as one figure, whatever its size: for values that are a number as a whole.

    Structured arguments (a spreadsheet cell, an ``amount`` field) hold numbers without a
    unit; there a ``50`` is a figure even though ``50`` in prose is not. Accepted: ``int``
    (not ``bool``), finite ``float`` and ``Decimal``, and strings that are only a number
    (``"1,500"``, ``" 42 "``, ``"-3.50"``). The sign is dropped, as in :func:`extract_figures`.

    Returns:
        A ``number`` figure whose ``raw`` is the value as text (span ``0``-``len(raw)``), or
        ``None`` when the value is not a bare number (then extract figures from its text).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Decimal):
        if isinstance(value, Decimal) and not value.is_finite():
            return None
        raw = str(value)
        number = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            return None
        raw = repr(value)
        number = Decimal(raw)
    elif isinstance(value, str):
        match = _BARE_NUMBER.fullmatch(value)
        if match is None:
            return None
        raw, number = value, number_value(match[1])
    else:
        return None
    return Figure("number", raw, canonical(abs(number)), 0, len(raw), bare=True)
