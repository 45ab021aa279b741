"""Anchors: the text any written form of a figure must contain, to search sources cheaply.

Checking a few figures of an answer against megabytes of tool results need not extract every
figure of every result: a source can only hold a figure where it holds the figure's
significant digits (possibly with one ``,`` or ``.`` between two of them: ``1,500,000``,
``1.5 million`` and ``1500000`` all hold ``1``, ``5``) or the figure's number in words
(``thirty (30) days``, ``two million``, ``the seventh consecutive year``).
:func:`anchor_pattern` builds one regex for a set of figures;
:class:`~tracegrade.figures.FigureSources` then extracts figures around its matches only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tracegrade.figures._numbers import NUMBER_WORDS, ORDINAL_WORDS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.figures._model import Figure

__all__ = ["anchor_pattern"]

_DIGITS = re.compile(r"\d[\d.]*")
_UNITS = NUMBER_WORDS[1:10]  # one .. nine
_TEENS = NUMBER_WORDS[10:20]  # ten .. nineteen
_TENS = NUMBER_WORDS[20:28]  # twenty .. ninety
_SCALES = (10**3, 10**6, 10**9, 10**12)


def _words(number: int) -> list[str]:
    """How ``number`` (0-99) is spelled: cardinal, and ordinal up to twentieth."""
    if number < 10:
        spelled = NUMBER_WORDS[0] if number == 0 else _UNITS[number - 1]
    elif number < 20:
        spelled = _TEENS[number - 10]
    else:
        tens, unit = divmod(number, 10)
        spelled = _TENS[tens - 2] + (f"[- ]{_UNITS[unit - 1]}" if unit else "")
    forms = [spelled]
    if 1 <= number <= len(ORDINAL_WORDS):
        forms.append(ORDINAL_WORDS[number - 1])
    return forms


def _spelled_numbers(kind: str, number: str) -> list[int]:
    """The whole numbers 0-99 that, spelled out, may write this figure's number."""
    if "." in number:
        return []
    value = int(number)
    if kind in ("money", "number"):  # "two million": only a scale multiplies a spelled number
        return [value // scale for scale in _SCALES if value % scale == 0 and value // scale < 100]
    return [value] if value < 100 and kind in ("period", "percent") else []


def anchor_pattern(figures: Iterable[Figure]) -> re.Pattern[str] | None:
    """A regex that matches wherever a source writes one of these figures.

    Returns:
        The pattern, or ``None`` when no cheap anchor exists (a hedged figure such as
        ``about $3 million`` is sourced by numbers that only round to it): then read all.
    """
    parts: set[str] = set()
    for figure in figures:
        if figure.hedge is not None:
            return None
        match = _DIGITS.search(figure.value)
        if match is None:
            return None
        number = match[0].rstrip(".")
        digits = number.replace(".", "").lstrip("0") or "0"
        if figure.kind in ("money", "number") and "." not in number:
            digits = digits.rstrip("0") or "0"  # 1500000 may be written 1.5 million
        parts.add(r"[,.]?".join(digits))
        whole = number.split(".", 1)[0]
        if len(whole) == 4 and whole[:2] in ("19", "20"):  # a year ends a range: 2016-17
            parts.add(r"[-\u2013\u2014]\s*" + whole[2:])
        for value in _spelled_numbers(figure.kind, number):
            parts.update(rf"\b{word}\b" for word in _words(value))
    if not parts:
        return None
    return re.compile("|".join(sorted(parts, key=len, reverse=True)), re.IGNORECASE)
