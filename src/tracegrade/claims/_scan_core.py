"""The compiled claim scanners (rust/src/claims/), built once with the reference's word lists.

The core holds no word list of its own: every list below is handed over from the Python
modules that define it, so both engines always read the same words.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tracegrade._engine import compiled_core
from tracegrade.claims._scan_names import COMPASS, NOT_NAMES, PLAIN_ABBREVIATIONS, SUFFIXES
from tracegrade.claims._scan_words import (
    COMMON_WORDS,
    CONNECTORS,
    EXTENSIONS,
    HEDGE_WORDS,
    MONTH_ABBREVIATIONS,
    MONTHS,
    PLACE_GROUPS,
    QUANTITY_STOP_NOUNS,
    TITLES,
    TLDS,
    WEEKDAYS,
)
from tracegrade.figures._numbers import NUMBER_WORDS, ORDINAL_WORDS, spelled_value

if TYPE_CHECKING:
    from types import ModuleType

    from tracegrade._core import ClaimScanner

__all__ = ["compiled_scanner"]


def compiled_scanner() -> ClaimScanner | None:
    """The core's scanner, or ``None`` when ``TRACEGRADE_CORE=python`` selects the reference."""
    core = compiled_core()
    return None if core is None else _scanner(core)


@functools.cache
def _scanner(core: ModuleType) -> ClaimScanner:
    words = {
        "months": list(MONTHS),
        "weekdays": list(WEEKDAYS),
        "titles": sorted(TITLES),
        "connectors": list(CONNECTORS),
        "common_words": sorted(COMMON_WORDS),
        "hedges": list(HEDGE_WORDS),
        "stop_nouns": sorted(QUANTITY_STOP_NOUNS),
        "ordinals": list(ORDINAL_WORDS),
        "extensions": list(EXTENSIONS),
        "tlds": list(TLDS),
        "plain_abbreviations": sorted(PLAIN_ABBREVIATIONS),
        "suffixes": sorted(SUFFIXES),
        "not_names": sorted(NOT_NAMES),
        "compass": sorted(COMPASS),
    }
    places = [list(group) for group in PLACE_GROUPS]
    abbreviations = [list(MONTH_ABBREVIATIONS[month]) for month in MONTHS]
    numbers = [(word, spelled_value(word)) for word in NUMBER_WORDS]
    scanner: ClaimScanner = core.ClaimScanner(words, places, abbreviations, numbers)
    return scanner
