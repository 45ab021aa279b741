"""scan_claims(): the claims of every kind but figures, found in one pass over the answer.

One compiled pattern with an alternative per shape runs once over the answer, in the manner
of the figures' scan; each match goes to its kind's builder (``_scan_code.py`` for what a
program writes, ``_scan_prose.py`` for dates and quantities, ``_scan_names.py`` for names;
word lists in ``_scan_words.py``). Alternatives are tried
in precedence order at each position, so ``MODEL_NAME`` is an identifier before it could be
a name and ``Su-24`` an id. Quotes and backticked code only look ahead for their closing
mark, so the scan still reads inside them; the quote wins over what it holds when claims
overlap. The rules, kind by kind, are in docs/claims.md.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING

from tracegrade.claims._answer_claim import AnswerClaim
from tracegrade.claims._scan_code import (
    domain_claim,
    email_claim,
    extension_claim,
    id_claim,
    identifier_claim,
    path_claim,
    quote_claim,
    url_claim,
)
from tracegrade.claims._scan_core import compiled_scanner
from tracegrade.claims._scan_names import clean_word, name_claim, split_name
from tracegrade.claims._scan_prose import (
    iso_date_claim,
    month_claim,
    month_day_claim,
    ordinal_claim,
    quantity_claim,
    score_claim,
    time_claim,
    weekday_claim,
)
from tracegrade.claims._scan_words import (
    CONNECTORS,
    EXTENSIONS,
    HEDGE_WORDS,
    MONTH_ABBREVIATIONS,
    MONTHS,
    QUANTITY_STOP_NOUNS,
    TITLES,
    TLDS,
    WEEKDAYS,
)
from tracegrade.figures._numbers import (
    NUMBER_WORDS,
    ORDINAL_WORDS,
    spelled_value,
    word_trie,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["mark_hedged", "reference_scan_claims", "scan_claims"]


# --- Pieces -----------------------------------------------------------------------------------


def _words(words: list[str]) -> str:
    """Any of ``words``, as a trie: a position that starts none fails in one or two tests."""
    return word_trie(words)


_TENS = [word for word in NUMBER_WORDS if spelled_value(word) >= 20]
_UNITS = [word for word in NUMBER_WORDS if 1 <= spelled_value(word) <= 9]
# A spelled-out number under 100, as figures' SPELLED matches it ("twenty-five", "seven").
_SPELLED = rf"(?:(?:{_words(_TENS)})(?:[- ](?:{_words(_UNITS)})\b)?|{_words(list(NUMBER_WORDS))})"
# The same, opening a sentence too ("Twenty-five"); spelled out, as a case-insensitive
# group is several times slower.
_SPELLED_ANY_CASE = (
    rf"(?:(?:{_words(_TENS + [w.capitalize() for w in _TENS])})(?:[- ](?:{_words(_UNITS)})\b)?"
    rf"|{_words([*NUMBER_WORDS, *(w.capitalize() for w in NUMBER_WORDS)])})"
)


_MONTH_WORD = _words(
    [*MONTHS, *(short for shorts in MONTH_ABBREVIATIONS.values() for short in shorts)]
)
_CAPITAL = "A-Z\u00c0-\u00d6\u00d8-\u00de"
# A capitalised word: "Omura's", "al-Assad", "O'Brien", "Franco-Ottoman", "Bolton-born".
# Latin, Greek and Cyrillic letters and combining accents ("Café" written decomposed).
_LETTER = (
    r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0300-\u036f\u0370-\u03ff"
    r"\u0400-\u04ff\u1e00-\u1eff]"
)
# Letters only, and not the head of a file name, a domain, a path or an id ("README.md",
# "Example.org", "Docs/a", "Su-24", "MODEL_NAME"): those shapes take it.
_CAPITAL_WORD = (
    rf"(?:(?:al|el|d)['\u2019-])?[{_CAPITAL}]{_LETTER}*(?:['\u2019-]{_LETTER}+)*(?![.@/]\w|-?\d|\w)"
)
_CONNECTOR = _words(list(CONNECTORS))
# Ordinals in words from the fourth up ("first", "second", "third" are mostly prose).
_ORDINAL_WORD = _words([*ORDINAL_WORDS[3:], *(word.capitalize() for word in ORDINAL_WORDS[3:])])
# Spelled-out counts below four are the writer counting what it lists ("two films", "one of"),
# far more often than a count a source wrote; they are no claims (docs/claims.md).
_SPELLED_FLOOR = 4
# A number or an id starts here, not inside another token or a time ("09:00").
_NOT_AFTER = r"(?<![\w.,:$€£¥@/\\-])"
# A number with a unit ("5kg", "10am", "3rd", "1990s", "17-year-old"): a quantity, not an id.
_NUMBER_WITH_UNIT = r"\d+(?:-?[a-z]+)+(?![\w-]|\.\d)"

# Capitalised words and the connectors between them, not after a hyphen (a command flag).
_NAME_RUN = rf"(?<![-\w]){_CAPITAL_WORD}(?:[ \t]+(?:(?:{_CONNECTOR})[ \t]+)?{_CAPITAL_WORD})*"
# One alternative per shape, in precedence order at a position (each a named group).
_SHAPES = (
    r"(?P<fence>```[\s\S]*?(?:```|\Z))",
    r"(?P<tick>`)(?=(?P<tick_body>[^`\n]+)`)",
    r'(?P<quote>["\u201c])(?=(?P<quote_body>[^"\u201c\u201d\n]{1,300})["\u201d])',
    (
        r"(?<!\w)(?P<single>['\u2018])"
        r"(?=(?P<single_body>[^'\u2018\u2019\n]{1,100})['\u2019](?!\w))"
    ),
    r"(?P<url>\b(?:[a-z][a-z0-9+.-]{0,15}://|www\.)[^\s<>\"'`]+)",  # a bounded scheme: linear
    r"(?P<email>(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
    r"(?P<iso>(?<![\w.-])\d{4}-\d\d-\d\d(?!\d))",
    # Not inside a run of its own characters: each run is scanned once, so the scan is linear.
    r"(?P<path>(?<![\w/.:@+-])(?:~|\.{1,2})?/?(?:[\w@+-][\w.@+-]*/)+[\w.@+-]*)",
    (
        rf"(?P<file>(?<![\w/.-])\.?[\w-]+(?:\.[\w-]+)*\.(?:{_words(list(EXTENSIONS))})"
        r"(?![\w-]|\.\w))"
    ),
    r"(?P<extension>(?<![\w.])\.[a-z][a-z0-9]{1,5}(?![\w.-]))",
    (
        rf"(?P<domain>(?<![\w.@-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:{_words(list(TLDS))})"
        r"(?![\w-]|\.\w))"
    ),
    r"(?P<snake>(?<![\w.])[A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++(?!\w|\.\w))",
    r"(?P<dotted>(?<![\w.])[A-Za-z_]\w++(?:\.[a-z_]\w++)++(?:\(\))?(?!\w|\.\w))",
    (
        r"(?P<camel>(?<![\w.])(?:[a-z]++\d*+(?:[A-Z][a-z0-9]*+)++|[A-Z][a-z]++(?:[A-Z][a-z0-9]*+)++)"
        r"(?:\(\))?(?![\w-]|\.\w))"
    ),
    (
        rf"(?P<id>{_NOT_AFTER}(?!{_NUMBER_WITH_UNIT})(?=[A-Za-z-]*+\d)(?=[\d-]*+[A-Za-z])"
        r"[A-Za-z0-9]++(?:-[A-Za-z0-9]++)*+(?![\w-]|\.\d))"
    ),
    (
        rf"(?P<month_day>\b(?P<md_month>{_MONTH_WORD})\.?[ \t]+(?P<md_day>\d{{1,2}})"
        r"(?:st|nd|rd|th)?(?![\w]|[:.]\d))"
    ),
    (
        rf"(?P<day_month>{_NOT_AFTER}(?P<dm_day>\d{{1,2}})(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?"
        rf"(?P<dm_month>{_MONTH_WORD})\b\.?)"
    ),
    (
        rf"(?P<time>{_NOT_AFTER}(?P<hour>[01]?\d|2[0-3])(?::(?P<minute>[0-5]\d))?"
        r"(?:[ \t]?(?P<meridiem>[apAP]\.[mM]\.|[apAP][mM](?!\w))|(?(minute)(?![\d:])|(?!)))"
        r")"
    ),
    rf"(?P<month>\b(?:{_words(list(MONTHS))})\b)",
    rf"(?P<weekday>\b(?:{_words(list(WEEKDAYS))})\b)",
    rf"(?P<ordinal>(?:{_NOT_AFTER}\d{{1,2}}(?:st|nd|rd|th)|\b{_ORDINAL_WORD})\b)",
    rf"(?P<score>{_NOT_AFTER}\d{{1,3}}[ \t]?[-\u2013][ \t]?\d{{1,3}}(?![\w,.\u2013-]))",
    (
        rf"(?P<quantity>(?:{_NOT_AFTER}(?P<qty_digits>\d{{1,3}})(?![\d]|[.,]\d)"
        rf"|\b(?P<qty_words>{_SPELLED_ANY_CASE}))"
        r"(?:[ \t]+|-)(?P<qty_noun>[a-z]{2,}(?:-[a-z]+)*)\b)"
    ),
    rf"(?P<name>{_NAME_RUN})",
)
# Every shape starts with a word character, a quote mark, a dot, a slash or a tilde, where no
# letter or digit is just before; and a plain lower-case word (most of prose) starts none
# unless it is a number word: three tests reject most positions before any alternative.
# A plain capitalised word ("The", "Morton") that is no month, weekday or number word can
# only open a name: it goes straight to the name alternative, past the others.
_PLAIN_CAPITAL = (
    rf"(?!(?:{_MONTH_WORD}|{_words(list(WEEKDAYS))}|{_SPELLED_ANY_CASE}|{_ORDINAL_WORD})\b)"
    r"[A-Z][a-z]+(?=[\s,;:!?)\]\"\u201d]|\.(?:\s|\Z)|\Z)"
)
_PATTERN = re.compile(
    r"(?<![\w\u0300-\u036f])(?=[\w`\"'\u2018\u201c./~])"
    rf"(?!(?!(?:{_SPELLED}|{_ORDINAL_WORD})\b)[a-z]+(?:[\s,;!?)\]\"\u201d]|\.(?:\s|\Z)|\Z))"
    rf"(?:(?={_PLAIN_CAPITAL})(?P<plain>{_NAME_RUN})|" + "|".join(_SHAPES) + ")"
)
_NAME_WORD = re.compile(rf"{_CAPITAL_WORD}|\S+")
# Run over the lower-cased answer; "may" only as written in lower case ("May" is a month).
_HEDGE = re.compile(r"\b(?:" + word_trie(w for w in HEDGE_WORDS if w != "may") + r")\b")
_MAY = re.compile(r"\bmay\b")
_LAST_WORD = re.compile(r"(\w+)\Z")
_LABEL = re.compile(r":\*\*|\*\*:")
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
# Before a sentence's first word: spaces, opening marks and list bullets.
_OPENERS = " \t\"'\u201c\u2018(*#>-•"


def _opens_sentence(answer: str, position: int) -> bool:
    """Whether the word at ``position`` opens a sentence, a line or a list item."""
    index = position - 1
    while index >= 0 and answer[index] in _OPENERS:
        index -= 1
    if index < 0:
        return True
    mark = answer[index]
    if mark in "!?:;\n":
        return True
    if mark != ".":
        return False
    word = _LAST_WORD.search(answer, max(0, index - 12), index)
    if word is None:
        return True
    before = word[1]
    # "Dr. Smith", "J. K. Rowling": a title or an initial does not end a sentence.
    return not (before.lower() in TITLES or (len(before) == 1 and before.isupper()))


def _hedged_spans(answer: str) -> list[tuple[int, int]]:
    """The sentences that hold a hedge word, as ``(start, end)`` spans."""
    spans: list[tuple[int, int]] = []
    lowered = answer.lower()
    if len(lowered) != len(answer):  # a rare character whose lower case is longer
        lowered = answer
    hedges = sorted([*_HEDGE.finditer(lowered), *_MAY.finditer(answer)], key=lambda m: m.start())
    for hedge in hedges:
        if spans and hedge.start() < spans[-1][1]:
            continue
        before = answer[: hedge.start()]
        start = max(before.rfind(". "), before.rfind("! "), before.rfind("? "))
        start = max(start + 2 if start >= 0 else 0, before.rfind("\n") + 1)
        after = _SENTENCE_END.search(answer, hedge.end())
        spans.append((start, after.end() if after else len(answer)))
    return spans


# --- The scan ---------------------------------------------------------------------------------

_DOMAIN_HEAD = re.compile(rf"(?:[\w-]+\.)+(?:{_words(list(TLDS))})/", re.IGNORECASE)


def _path_or_url(match: re.Match[str]) -> AnswerClaim | None:
    raw, start = match["path"], match.start()
    if _DOMAIN_HEAD.match(raw):  # "en.wikipedia.org/wiki/IPv6": a URL without its scheme
        return url_claim(raw, start)
    return path_claim(raw, start)


def _quantity(match: re.Match[str]) -> AnswerClaim | None:
    noun = match["qty_noun"]
    if noun.split("-", 1)[0] in QUANTITY_STOP_NOUNS:
        return None
    number = match["qty_digits"] or match["qty_words"]
    if not number[0].isdigit() and spelled_value(number) < _SPELLED_FLOOR:
        return None  # "two films", "one of": the writer counting what it lists
    return quantity_claim(match["quantity"], match.start(), number, noun)


def _simple(
    build: Callable[[str, int], AnswerClaim | None], group: str
) -> Callable[[re.Match[str]], AnswerClaim | None]:
    return lambda match: build(match[group], match.start())


_BUILDERS: dict[str, Callable[[re.Match[str]], AnswerClaim | None]] = {
    "url": _simple(url_claim, "url"),
    "email": _simple(email_claim, "email"),
    "iso": _simple(iso_date_claim, "iso"),
    "path": _path_or_url,
    "file": _simple(path_claim, "file"),
    "extension": _simple(extension_claim, "extension"),
    "domain": _simple(domain_claim, "domain"),
    "snake": _simple(identifier_claim, "snake"),
    "dotted": _simple(identifier_claim, "dotted"),
    "camel": _simple(identifier_claim, "camel"),
    "id": _simple(id_claim, "id"),
    "month_day": lambda m: month_day_claim(m["month_day"], m.start(), m["md_month"], m["md_day"]),
    "day_month": lambda m: month_day_claim(m["day_month"], m.start(), m["dm_month"], m["dm_day"]),
    "month": _simple(month_claim, "month"),
    "weekday": _simple(weekday_claim, "weekday"),
    "score": _simple(score_claim, "score"),
    "ordinal": _simple(ordinal_claim, "ordinal"),
    "time": lambda m: time_claim(m["time"], m.start(), m["hour"], m["minute"], m["meridiem"]),
    "quantity": _quantity,
}
_ENCLOSING = {"tick_body": "tick", "quote_body": "quote", "single_body": "single"}

_NameRun = tuple[list[tuple[str, int]], bool]  # words with offsets; opens a sentence


def _unicode_variants(form: str) -> list[str]:
    """A form in both Unicode normal forms and without its accents (``Angoulême``)."""
    composed = unicodedata.normalize("NFC", form)
    decomposed = unicodedata.normalize("NFD", form)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return [composed, decomposed, bare]


def _with_unicode_forms(claim: AnswerClaim) -> AnswerClaim:
    if claim.raw.isascii():
        return claim
    forms = [form for written in claim.forms for form in (written, *_unicode_variants(written))]
    return replace(claim, forms=tuple(dict.fromkeys(forms)))


# Markdown headings and the header row of a table: labels of the answer's own layout.
_LABEL_LINE = re.compile(r"^[ \t]*#{1,6}[ \t].*$|^[ \t]*\|.*\|[ \t]*(?=\n[ \t]*\|[ \t:|-]*-)", re.M)


def _label_lines(answer: str) -> list[tuple[int, int]]:
    if "#" not in answer and "|" not in answer:
        return []
    return [match.span() for match in _LABEL_LINE.finditer(answer)]


def _scan(answer: str) -> tuple[list[AnswerClaim], list[AnswerClaim], list[_NameRun]]:
    """One pass: quoted and backticked claims, every other claim, and the runs of names."""
    enclosing: list[AnswerClaim] = []
    claims: list[AnswerClaim] = []
    names: list[_NameRun] = []
    closing = -1  # the closing mark of the last quote, never the opening of another
    labels = _label_lines(answer)
    for match in _PATTERN.finditer(answer):
        kind = match.lastgroup or "fence"
        start = match.start()
        mark = _ENCLOSING.get(kind)
        if mark is not None:
            if start == closing:
                continue
            closing = start + 1 + len(match[kind])
            raw = answer[start : closing + 1]
            found = identifier_claim(raw, start, quoted=True) if mark == "tick" else None
            found = found or quote_claim(raw, start)
            if found is not None:
                enclosing.append(found)
        elif kind in ("name", "plain"):
            opens = _opens_sentence(answer, start)
            if answer.startswith("**", start - 2) and _LABEL.match(answer, match.end()):
                continue  # "- **Cabin Class:** economy": a bold label, not a name
            if labels and any(first <= start < last for first, last in labels):
                continue  # "## Revenue Comparison", "| Company | Quarter |": headings
            words = [(w[0], start + w.start()) for w in _NAME_WORD.finditer(match[kind])]
            for run in split_name(words):
                names.append((run, opens))
                opens = False
        elif kind != "fence":
            found = _BUILDERS[kind](match)
            if found is not None:
                claims.append(found)
    return enclosing, claims, names


def _name_claims(answer: str, names: list[_NameRun]) -> list[AnswerClaim]:
    named = frozenset(
        clean_word(word)
        for words, opens in names
        for position, (word, _) in enumerate(words)
        if position or not opens
    )
    found = (name_claim(words, sentence_start=opens, answer=answer, named=named)
             for words, opens in names)  # fmt: skip
    return [claim for claim in found if claim is not None]


def mark_hedged(answer: str, claims: list[AnswerClaim]) -> list[AnswerClaim]:
    """The claims, those inside a sentence that guesses marked ``hedged``."""
    scanner = compiled_scanner()
    spans = scanner.hedged_spans(answer) if scanner is not None else None
    return _marked(_hedged_spans(answer) if spans is None else spans, claims)


def _marked(hedged: list[tuple[int, int]], claims: list[AnswerClaim]) -> list[AnswerClaim]:
    if not hedged:
        return claims
    starts = [span[0] for span in hedged]
    marked = []
    for claim in claims:
        at = bisect.bisect_right(starts, claim.start) - 1
        inside = at >= 0 and claim.start < hedged[at][1]
        if inside:  # the constructor: dataclasses.replace costs several times more
            claim = AnswerClaim(claim.kind, claim.raw, claim.text, claim.start, claim.end,  # noqa: PLW2901
                                claim.forms, hedged=True)  # fmt: skip
        marked.append(claim)
    return marked


def scan_claims(answer: str) -> list[AnswerClaim]:
    """The claims of ``answer`` other than figures, in precedence order.

    Backticked code and quotes come first (they win over the claims they hold), then every
    other claim in answer order; :func:`~tracegrade.claims.extract_answer_claims` drops a
    claim that overlaps one taken before it. Claims in a sentence that guesses ("likely",
    "might", "try opening") are marked ``hedged``. The compiled core (rust/src/claims/)
    scans unless ``TRACEGRADE_CORE=python``; :func:`reference_scan_claims` is its reference.
    """
    scanner = compiled_scanner()
    found = scanner.scan(answer) if scanner is not None else None
    if found is None:  # the reference engine, a lone surrogate, or an answer it raises on
        return reference_scan_claims(answer)
    return [AnswerClaim(*claim) for claim in found]  # non-ASCII ones with their Unicode forms


def reference_scan_claims(answer: str) -> list[AnswerClaim]:
    """:func:`scan_claims` in Python only: the executable reference of the compiled scan."""
    enclosing, claims, names = _scan(answer)
    claims += _name_claims(answer, names)
    claims.sort(key=lambda claim: claim.start)
    found = [_with_unicode_forms(claim) for claim in enclosing + claims]
    return _marked(_hedged_spans(answer), found)
