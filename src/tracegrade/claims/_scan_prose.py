"""Claims of the kinds prose writes: dates and counted quantities (names: ``_scan_names.py``).

Each builder turns one match of the scan (``_scan.py``) into a claim, or ``None``. A year is
a figure (the figures helper owns it), so a date claim is its day and month: ``August 8,
1966`` is the date ``August 8`` beside the figure ``1966``, and each is checked on its own.
"""

from __future__ import annotations

import re

from tracegrade.claims._answer_claim import AnswerClaim
from tracegrade.claims._scan_words import MONTH_ABBREVIATIONS, MONTHS
from tracegrade.figures._numbers import NUMBER_WORDS, ORDINAL_WORDS, ordinal_value, spelled_value

__all__ = [
    "iso_date_claim",
    "month_claim",
    "month_day_claim",
    "ordinal_claim",
    "quantity_claim",
    "score_claim",
    "time_claim",
    "weekday_claim",
]

_MONTH_NUMBER = {month.lower(): index + 1 for index, month in enumerate(MONTHS)}
for _month, _short in MONTH_ABBREVIATIONS.items():
    for _word in _short:
        _MONTH_NUMBER[_word.lower()] = _MONTH_NUMBER[_month.lower()]
_SUFFIX = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}


def _month_name(word: str) -> str:
    return MONTHS[_MONTH_NUMBER[word.lower().rstrip(".")] - 1]


def _day_forms(month: str, day: int) -> tuple[str, ...]:
    """How a source writes day ``day`` of ``month``, with or without the year after it."""
    ordinal = f"{day}{_SUFFIX.get(day, 'th')}"
    number = MONTHS.index(month) + 1
    short = MONTH_ABBREVIATIONS[month]
    forms = [f"-{number:02d}-{day:02d}"]  # inside an ISO date, 1966-08-08
    # "8 Aug." is shown wherever "8 Aug" is (a dot ends no word), so only "Aug. 8" needs one.
    for name in (month, *short, *(f"{s}." for s in short)):
        forms += [f"{name} {day}", f"{name} {ordinal}"]
    for name in (month, *short):
        forms += [f"{day} {name}", f"{ordinal} {name}"]
    forms.append(f"{ordinal} of {month}")
    return tuple(forms)


def month_day_claim(raw: str, start: int, month: str, day: str) -> AnswerClaim | None:
    """``August 8``, ``8th of August``, ``Aug. 8``: normalised to ``08-08`` (month-day)."""
    value = int(day)
    if not 1 <= value <= 31:
        return None
    name = _month_name(month)
    number = MONTHS.index(name) + 1
    text = f"{number:02d}-{value:02d}"
    return AnswerClaim("date", raw, text, start, start + len(raw), _day_forms(name, value))


def iso_date_claim(raw: str, start: int) -> AnswerClaim | None:
    """The month and day of an ISO date, ``2024-03-03`` (the year is the figure's)."""
    month, day = int(raw[5:7]), int(raw[8:10])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    text = f"{month:02d}-{day:02d}"
    forms = _day_forms(MONTHS[month - 1], day)
    return AnswerClaim("date", raw[5:], text, start + 5, start + len(raw), forms)


def month_claim(raw: str, start: int) -> AnswerClaim:
    """A month named alone or with its year, ``in March``, ``March 2024``."""
    return AnswerClaim("date", raw, raw.lower(), start, start + len(raw), (raw,))


def weekday_claim(raw: str, start: int) -> AnswerClaim:
    """A weekday, ``on Friday``."""
    return AnswerClaim("date", raw, raw.lower(), start, start + len(raw), (raw,))


_WORDS_BY_VALUE: dict[int, str] = {}
for _word in NUMBER_WORDS:
    _WORDS_BY_VALUE.setdefault(spelled_value(_word), _word)


def _spelled(value: int) -> list[str]:
    """A number under 100 in words: ``twenty-five`` and ``twenty five``."""
    if value in _WORDS_BY_VALUE:
        return [_WORDS_BY_VALUE[value]]
    if value >= 100:
        return []
    tens, units = _WORDS_BY_VALUE[value // 10 * 10], _WORDS_BY_VALUE[value % 10]
    return [f"{tens}-{units}", f"{tens} {units}"]


def quantity_claim(raw: str, start: int, number: str, noun: str) -> AnswerClaim | None:
    """A small number with its noun, ``16 countries``, ``three goals``, ``17-year-old``.

    Normalised to digits and the lower-cased noun (``16 countries``). Shown by the number
    written anywhere, in digits or in words: sources elide or reword the noun ("Sheffield on
    27" for "27 points"), so the number is what can be checked; a number no source writes is
    the answer's own count or invention.
    """
    lowered = number.lower()
    value = int(lowered) if lowered.isdigit() else spelled_value(lowered)
    forms = (str(value), *_spelled(value))
    text = f"{value} {noun.lower()}"
    return AnswerClaim("quantity", raw, text, start, start + len(raw), forms)


def score_claim(raw: str, start: int) -> AnswerClaim:
    """A score or tally, ``38-30``: shown with a hyphen, an en dash or spaced."""
    first, second = re.split(r"\s*[-\u2013]\s*", raw)
    forms = (f"{first}-{second}", f"{first}\u2013{second}", f"{first} - {second}")
    return AnswerClaim("quantity", raw, f"{first}-{second}", start, start + len(raw), forms)


def time_claim(
    raw: str, start: int, hour: str, minute: str | None, meridiem: str | None
) -> AnswerClaim | None:
    """A time of day, ``2 pm``, ``14:00``, ``7:30 a.m.``: a date claim normalised to ``HH:MM``.

    Shown in the 24-hour and the 12-hour forms a source may write: ``14:00`` is also
    ``2 pm``, ``2pm``, ``2:00 pm``, ``2 p.m.``; a time without am/pm is read as written.
    """
    value, minutes = int(hour), int(minute or "0")
    if meridiem is not None:
        if not 1 <= value <= 12:
            return None
        evening = meridiem.lower().startswith("p")
        value = value % 12 + (12 if evening else 0)
    twelve = value % 12 or 12
    half = "pm" if value >= 12 else "am"
    clock = f"{value:02d}:{minutes:02d}"
    forms = [clock, f"{value}:{minutes:02d}", f"{value:02d}.{minutes:02d}"]
    dotted = f"{half[0]}.m."
    forms += [f"{twelve}:{minutes:02d} {half}", f"{twelve}:{minutes:02d}{half}",
              f"{twelve}:{minutes:02d} {dotted}"]  # fmt: skip
    if not minutes:
        forms += [f"{twelve} {half}", f"{twelve}{half}", f"{twelve} {dotted}"]
    end = start + len(raw)
    return AnswerClaim("date", raw, clock, start, end, tuple(dict.fromkeys(forms)))


def ordinal_claim(raw: str, start: int) -> AnswerClaim:
    """An ordinal from the fourth up, ``fifth``, ``7th``: shown in words or in digits."""
    value = ordinal_value(raw)
    teens = 11 <= value % 100 <= 13  # "11th", "12th", "13th"
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    digits = f"{value}{suffix}"
    forms = [digits]
    if value <= len(ORDINAL_WORDS):
        forms.append(ORDINAL_WORDS[value - 1])
    return AnswerClaim("quantity", raw, digits, start, start + len(raw), tuple(forms))
