"""reference_figures(): the figures of a text, found in one regex scan (the reference).

This is the executable specification the compiled core ports (rust/src/figures runs these
very patterns: :func:`compiled_rules`); :mod:`tracegrade.figures._find` picks the engine.
One pattern with an alternative per shape is run once over the text; only matches (figures,
plus the few identifier shapes that must be skipped whole) reach Python, so small numbers
without a unit cost nothing beyond the scan. The rules, with examples, are in docs/figures.md.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING

from tracegrade._lazy_pattern import LazyPattern
from tracegrade.figures._model import Figure, FigureKind, Hedge
from tracegrade.figures._numbers import (
    NUMBER_WORDS,
    ORDINAL,
    ORDINAL_WORDS,
    SCALES,
    SPELLED,
    WORD_VALUES,
    canonical,
    number_value,
    ordinal_value,
    spelled_value,
    word_trie,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ANY_NUMBER", "compiled_rules", "reference_figures", "reference_numbers"]

# --- Pieces -----------------------------------------------------------------------------------
# The pattern runs over the lower-cased text (ten times faster than a case-insensitive
# pattern); every literal below is therefore lower case. Spans are the same in both texts
# (see _scan), and raw text is always taken from the original.

# A written number: thousands groups of exactly three digits, or a plain run of digits, then an
# optional decimal part. Atomic and possessive, so "12345" is never read as "1234" and "1.2.3"
# (a version) is not read as "1.2"; the number must not run on into digits or ".digit".
_NUM = r"(?>\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?+(?!\d|\.\d)"
# A number in digits or spelled out; a spelled-out number may repeat in digits: "thirty (30)".
_VALUE = rf"(?:{_NUM}|{SPELLED}\b(?:\s*\(\s*{_NUM}\s*\))?)"
_CURRENCY_SYMBOL = r"(?:(?:us|a|c|hk|nz|r|s)?\$|[€£¥₹₩₽])"
_CURRENCY_CODE = r"(?:usd|eur|gbp|jpy|cny|rmb|chf|cad|aud|inr)"  # as _CURRENCY_CODES
_CURRENCY_WORD = r"(?:dollars?|euros?|pounds?(?:\s+sterling)?|yen|yuan|rupees?|francs?)"
_RANGE_DASH = r"(?:[-\u2013\u2014]|\s+to\s+)"  # hyphen, en dash, em dash
# Two numbers sharing a unit, "5-10", "five to ten", "$5-$10": each end is a figure.
_VALUES = rf"{_VALUE}(?:{_RANGE_DASH}{_CURRENCY_SYMBOL}?\s?{_VALUE})?"
_DIGITS = rf"{_NUM}(?:{_RANGE_DASH}{_CURRENCY_SYMBOL}?\s?{_NUM})?"
_SCALE_WORD = r"thousand|million|billion|trillion|mln|bln|mn|bn|tn"
# Not inside a word or a dotted chain ("v1.2.3", "10.0.1234").
_START = r"(?<![\w.])"

_PERCENT = r"\s*(?P<percent>%|(?:percent|per\s?cent|percentage\s+points?|pct)\b)"
_PERIOD = (
    r"(?:\s*-\s*|\s+)(?:(?P<period_qualifier>calendar|business|working|"
    r"consecutive|straight|successive)[\s-]+)?"
    r"(?P<period>day|week|month|year)s?\b(?!(?:\s*-\s*|\s+)old\b)"
)
# A streak is a period: "the seventh consecutive year" is "7 consecutive years".
_STREAK = (
    rf"(?P<streak>{ORDINAL})\s+(?:consecutive|straight|successive)\s+"
    r"(?P<streak_unit>day|week|month|year)s?\b"
)
_MONEY_AFTER = (
    rf"(?:\s*(?P<money_after_scale>{_SCALE_WORD})\b)?"
    rf"\s*(?P<money_after>{_CURRENCY_WORD}|{_CURRENCY_CODE})\b"
)
_SCALED = rf"\s*(?P<scaled>{_SCALE_WORD})\b"
# The unit after a number: what makes a small number a figure.
_TAIL = f"(?:{_PERCENT}|{_PERIOD}|{_MONEY_AFTER}|{_SCALED})"
_MONEY_BEFORE = (
    rf"\s?(?P<money_before_values>{_DIGITS})"
    rf"(?P<money_before_scale>\s*(?:{_SCALE_WORD})\b|[kmb]\b)?"
    rf"(?:\s*(?:{_CURRENCY_WORD}|{_CURRENCY_CODE})\b)?"
)

# The shapes and the hedge are LazyPatterns: the compiled core is built from their text
# (compiled_rules) and runs them itself, so only the reference (TRACEGRADE_CORE=python, or a
# text the core leaves to it) compiles them here (5 ms at start-up otherwise).

# Shapes that start with a digit or a symbol. The guard lets the engine reject every other
# position with one test; the number is parsed once and the unit after it decides the kind.
_SYMBOL_LED = LazyPattern(
    r"(?=[\d$€£¥₹₩₽§])(?:"
    # Section references: "§ 8.22", "§4(b)".
    r"(?P<section>§§?\s*(?P<section_id>\d++(?:\.\d+)*+(?:\([a-z0-9]{1,4}\))*+)(?!\w))"
    # Money with the currency first: "$1.5 million", "$ 181,674,817", "£3m", "US$5".
    rf"|(?P<money_before>{_CURRENCY_SYMBOL}){_MONEY_BEFORE}"
    rf"|{_START}(?:"
    # Dates: only the year is a figure ("2024-01-15", "15/01/2024").
    r"(?P<iso_year>(?:1[6-9]|20)\d\d)-\d\d-\d\d(?!\d)"
    r"|\d{1,2}[./]\d{1,2}[./](?P<dmy_year>(?:1[6-9]|20)\d\d)(?!\d)"
    rf"|{_STREAK}"
    # Identifiers of three or more digit groups (phone numbers): not figures.
    r"|(?P<identifier>\d++(?:[-.]\d++){2,}+(?![\w.]))"
    # A number (or a range) with a unit: "12.5 %", "30-day", "1,500 USD", "1.5bn".
    rf"|(?P<values>{_DIGITS}){_TAIL}"
    # Numbers of four or more digits: "2024", "1,500,000", "1990s", "2016-17".
    r"|(?P<number>(?>\d{1,3}(?:,\d{3})+|\d{4,})(?:\.\d+)?+)"
    r"(?:'?s)?(?!\w|\.\d)(?:(?:[-\u2013/]|\s*(?:--|[\u2013\u2014])\s*)"
    r"(?P<year_end>\d\d)(?!\w|[-\u2013/.]\d))?"
    "))"
)

# Shapes that start with a word: section words, currency codes, spelled-out numbers.
_CURRENCY_CODES = ("usd", "eur", "gbp", "jpy", "cny", "rmb", "chf", "cad", "aud", "inr")
_CURRENCY_PREFIXES = ("us$", "a$", "c$", "hk$", "nz$", "r$", "s$")
# Every word a word-led shape can start with, factored: most word starts fail in one test.
_WORD_LEAD = word_trie(
    (
        "section",
        "sec",
        "sect",
        *_CURRENCY_CODES,
        *_CURRENCY_PREFIXES,
        *NUMBER_WORDS,
        *ORDINAL_WORDS,
    )
)
_WORD_LED = LazyPattern(
    rf"\b(?={_WORD_LEAD})(?:"
    # "Section 8.10", "Sec. 4(b)".
    r"(?P<section>(?:sections?|sect?)\b\.?\s*"
    r"(?P<section_id>\d++(?:\.\d+)*+(?:\([a-z0-9]{1,4}\))*+)(?!\w))"
    # "USD 1,500", "us$5".
    rf"|(?P<money_before>{_CURRENCY_CODE}\b|{_CURRENCY_SYMBOL}){_MONEY_BEFORE}"
    # "thirty (30) days", "ten percent", "two million euros", "one million".
    rf"|(?P<values>{_VALUES}){_TAIL}"
    rf"|{_STREAK}"
    ")"
)
_PATTERNS = (_SYMBOL_LED, _WORD_LED)
# For the rare text whose lower-case form has another length (e.g. "İ"): slower, same matches.
_PATTERNS_ANY_CASE = tuple(LazyPattern(p.pattern, re.IGNORECASE) for p in _PATTERNS)

# The numbers inside a matched range of values ("5-10", "thirty (30)", "$5-$10").
_VALUE_PART = LazyPattern(
    rf"(?P<digits>{_NUM})|(?P<words>{SPELLED})\b(?:\s*\(\s*(?P<repeat>{_NUM})\s*\))?",
    re.IGNORECASE,
)
# Words that make the figure after them approximate, by the direction they allow.
_HEDGES: dict[str, Hedge] = {
    "about": "about", "around": "about", "approximately": "about", "approx.": "about",
    "roughly": "about", "some": "about", "an estimated": "about", "estimated": "about",
    "circa": "about", "~": "about", "≈": "about",
    "over": "over", "more than": "over", "above": "over", "at least": "over",
    "in excess of": "over", "upwards of": "over", "exceeding": "over",
    "nearly": "under", "almost": "under", "under": "under", "less than": "under",
    "below": "under", "up to": "under", "close to": "under",
}  # fmt: skip
_HEDGE = LazyPattern(
    r"(?:(?<!\w)(?P<word>"
    + "|".join(re.escape(word) for word in sorted(_HEDGES, key=len, reverse=True))
    + r"))\s*(?:just\s+)?\Z",
    re.IGNORECASE,
)
_HEDGE_WINDOW = 16
_RE_CASE_EXTRAS = str.maketrans({"\u017f": "s", "\u0131": "i"})
# A hedge is separated from its figure by one of these (or is one: "~$5").
_HEDGE_AFTER = " ~≈\u00a0"
# An identifier's prefix: "HAT-1234", "ISO-9001" (but "mid-2015" is a year).
_IDENTIFIER_PREFIX = re.compile(r"[A-Z]-\Z")


def _values(text: str) -> list[Decimal]:
    values: list[Decimal] = []
    for part in _VALUE_PART.finditer(text):
        digits = part["digits"] or part["repeat"]
        values.append(number_value(digits) if digits else Decimal(spelled_value(part["words"])))
    return values


_QUALIFIERS = {"straight": "consecutive", "successive": "consecutive"}


def _period_value(value: Decimal, unit: str, qualifier: str | None) -> str:
    number = canonical(value)
    plural = "" if number == "1" else "s"
    qualifier = _QUALIFIERS.get(qualifier, qualifier) if qualifier else None
    prefix = f"{qualifier.lower()} " if qualifier else ""
    return f"{number} {prefix}{unit.lower()}{plural}"


def _figures(match: re.Match[str], text: str) -> Iterator[Figure]:
    """The figures one match (over the lower-cased text) stands for; none for an identifier."""
    group = match.re.groupindex  # the word-led pattern has no number, date or identifier
    if "number" in group:
        if match["number"] is not None:
            yield from _number(match, text)
            return
        if match["identifier"] is not None:
            return
    start, end = match.span()
    raw = text[start:end]
    if match["section_id"] is not None:
        yield Figure("section", raw, "§" + match["section_id"].lower(), start, end)
        return
    streak = match["streak"]
    if streak is not None:
        days = _period_value(Decimal(ordinal_value(streak)), match["streak_unit"], "consecutive")
        yield Figure("period", raw, days, start, end)
        return
    for name in ("iso_year", "dmy_year"):
        if name in group and match[name] is not None:
            year_start, year_end = match.span(name)
            year = text[year_start:year_end]
            yield Figure("number", year, year, year_start, year_end)
            return
    yield from _quantities(match, raw, start, end)


def _number(match: re.Match[str], text: str) -> Iterator[Figure]:
    """A number of four or more digits; "2016-17" also stands for 2017."""
    number_start, number_end = match.span("number")
    digits = text[number_start:number_end]
    plain = digits.isdigit()
    value = (digits.lstrip("0") or "0") if plain else canonical(number_value(digits))
    yield Figure("number", digits, value, number_start, number_end)
    year_end = match["year_end"]
    if year_end is not None and plain and len(digits) == 4:
        first = int(digits)
        last = first // 100 * 100 + int(year_end)
        if last <= first:
            last += 100
        start, end = match.span()
        yield Figure("number", text[start:end], str(last), start, end)


def _quantities(match: re.Match[str], raw: str, start: int, end: int) -> Iterator[Figure]:
    """Money, percentages, periods and scaled numbers: one figure per end of a range."""
    period = match["period"]
    kind: FigureKind
    if match["money_before"] is not None:
        kind, scale, values = "money", match["money_before_scale"], match["money_before_values"]
    else:
        values = match["values"]
        if match["percent"] is not None:
            kind, scale = "percent", None
        elif period is not None:
            kind, scale = "period", None
        elif match["money_after"] is not None:
            kind, scale = "money", match["money_after_scale"]
        else:
            kind, scale = "number", match["scaled"]
    factor = SCALES[scale.strip().lower()] if scale else 1  # any case: see _matches
    for value in _values(values):
        if kind == "percent":
            normalised = canonical(value) + "%"
        elif period is not None:
            normalised = _period_value(value, period, match["period_qualifier"])
        else:
            normalised = canonical(value * factor)
        yield Figure(kind, raw, normalised, start, end)


def _matches(text: str) -> Iterator[re.Match[str]]:
    """The matches of both patterns in order of start, skipping any inside an earlier one."""
    lowered = text.lower()
    if len(lowered) == len(text):  # every character lower-cased to one: same positions
        symbol_led, word_led = (pattern.compiled for pattern in _PATTERNS)
    else:
        symbol_led, word_led = (pattern.compiled for pattern in _PATTERNS_ANY_CASE)
        lowered = text
    words = list(word_led.finditer(lowered))
    if not words:  # the common case: no section word, currency code or number word
        return symbol_led.finditer(lowered)
    return _merge(symbol_led.finditer(lowered), words)


def _merge(
    symbol_led: Iterator[re.Match[str]], words: list[re.Match[str]]
) -> Iterator[re.Match[str]]:
    end = 0
    pending = iter(words)
    word = next(pending, None)
    for match in symbol_led:
        while word is not None and word.start() <= match.start():
            if word.start() >= end:
                end = word.end()
                yield word
            word = next(pending, None)
        if match.start() >= end:
            end = match.end()
            yield match
    while word is not None:
        if word.start() >= end:
            end = word.end()
            yield word
        word = next(pending, None)


def reference_figures(text: str) -> Iterator[Figure]:
    """Every figure of ``text`` in order of appearance, repeats included (the reference)."""
    for match in _matches(text):
        start = match.start()
        if start >= 2 and _IDENTIFIER_PREFIX.match(text, start - 2, start):
            continue
        figures = list(_figures(match, text))
        if figures and figures[0].kind in ("money", "number") and start:
            hedge = _hedge(match.string, start)
            if hedge is not None:
                figures = [_hedged(figure, hedge) for figure in figures]
        yield from figures


def _hedge(scanned: str, start: int) -> Hedge | None:
    """The hedge written just before ``start`` ("about $3 million"), if any."""
    if scanned[start - 1] not in _HEDGE_AFTER:
        return None
    found = _HEDGE.search(scanned, max(0, start - _HEDGE_WINDOW), start)
    # IGNORECASE also matches the long s and the dotless i, which lower-casing keeps.
    return None if found is None else _HEDGES[found["word"].translate(_RE_CASE_EXTRAS)]


def _hedged(figure: Figure, hedge: Hedge) -> Figure:
    if figure.kind not in ("money", "number"):
        return figure
    return Figure(figure.kind, figure.raw, figure.value, figure.start, figure.end, hedge)


# Every number a source writes, of any size, outside identifiers (``HAT123``, ``card_4421``):
# what a bare number (a cell, an amount field) may be sourced by.
ANY_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w])")


def reference_numbers(text: str) -> list[str]:
    """The canonical value of every number ``text`` writes (:data:`ANY_NUMBER`), in order."""
    return [canonical(number_value(token)) for token in ANY_NUMBER.findall(text)]


CompiledRules = tuple[
    list[tuple[str, bool]],
    list[tuple[str, str]],
    int,
    str,
    list[tuple[str, int]],
    list[tuple[str, int]],
    list[str],
    list[tuple[str, str]],
]


def compiled_rules() -> CompiledRules:
    """What the compiled core's ``FigureExtractor`` is built from: these rules, not a copy.

    The patterns (with their IGNORECASE flag), the hedge words, the hedge window and the
    characters before a hedged figure, the scales, the number words, the ordinals and the
    period qualifiers.
    """
    patterns = (_SYMBOL_LED, _WORD_LED, _VALUE_PART, _HEDGE, ANY_NUMBER)
    return (
        [(pattern.pattern, bool(pattern.flags & re.IGNORECASE)) for pattern in patterns],
        list(_HEDGES.items()),
        _HEDGE_WINDOW,
        _HEDGE_AFTER,
        list(SCALES.items()),
        list(WORD_VALUES.items()),
        list(ORDINAL_WORDS),
        list(_QUALIFIERS.items()),
    )
