"""Number words and decimal normalisation shared by the extractor and the index."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "NUMBER_WORDS",
    "ORDINAL",
    "ORDINAL_WORDS",
    "SCALES",
    "SPELLED",
    "WORD_VALUES",
    "canonical",
    "number_value",
    "ordinal_value",
    "spelled_value",
    "word_trie",
]

_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = [
    "ten", "eleven", "twelve", "thirteen", "fourteen",
    "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]  # fmt: skip
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

WORD_VALUES: dict[str, int] = {"zero": 0}
WORD_VALUES.update({word: index + 1 for index, word in enumerate(_UNITS)})
WORD_VALUES.update({word: index + 10 for index, word in enumerate(_TEENS)})
WORD_VALUES.update({word: (index + 2) * 10 for index, word in enumerate(_TENS)})

# Spelled-out whole numbers from zero to ninety-nine ("twenty-five", "twenty five"); longer
# words first so "seventeen" is not read as "seven". Used only before a unit or a scale.
SPELLED = (
    "(?:(?:" + "|".join(_TENS) + ")(?:[- ](?:" + "|".join(_UNITS) + r")\b)?"
    "|" + "|".join(reversed(_TEENS)) + "|zero|" + "|".join(_UNITS) + ")"
)

_ORDINALS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth",
]  # fmt: skip
# Ordinals in words ("seventh") or digits ("7th"), for streaks: "the seventh consecutive year".
ORDINAL = r"(?:\d+(?:st|nd|rd|th)|" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + ")"
ORDINAL_WORDS = tuple(_ORDINALS)

# Every word SPELLED can start with.
NUMBER_WORDS = ("zero", *_UNITS, *_TEENS, *_TENS)

SCALES: dict[str, int] = {
    "thousand": 10**3,
    "k": 10**3,
    "million": 10**6,
    "mn": 10**6,
    "mln": 10**6,
    "m": 10**6,
    "billion": 10**9,
    "bn": 10**9,
    "bln": 10**9,
    "b": 10**9,
    "trillion": 10**12,
    "tn": 10**12,
}


def spelled_value(words: str) -> int:
    """The value of a spelled-out number matched by :data:`SPELLED` (any case)."""
    parts = words.lower().replace("-", " ").split()
    return sum(WORD_VALUES[part] for part in parts)


def ordinal_value(ordinal: str) -> int:
    """The value of an ordinal matched by :data:`ORDINAL`: ``"seventh"`` and ``"7th"`` give 7."""
    lowered = ordinal.lower()
    if lowered[0].isdigit():
        return int(lowered[:-2])
    return _ORDINALS.index(lowered) + 1


def number_value(digits: str) -> Decimal:
    """The value of a written number: digits with optional thousands commas and decimals."""
    return Decimal(digits.replace(",", ""))


def canonical(value: Decimal) -> str:
    """A decimal as plain text: no exponent, no thousands separators, no trailing zeros.

    ``Decimal("1500000.00")`` and ``Decimal("1.5E+6")`` both give ``"1500000"``.
    """
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def word_trie(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, factored by common prefix.

    The regex engine tries alternatives one by one; factored, a position that starts no word
    is rejected after one or two character tests instead of one test per word.
    """
    root: dict[str, dict[str, Any]] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_pattern(root)


def _trie_pattern(node: dict[str, dict[str, Any]]) -> str:
    branches = [
        re.escape(char) + _trie_pattern(child) for char, child in sorted(node.items()) if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body
