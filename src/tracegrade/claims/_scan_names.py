"""Proper names: which capitalised words of an answer are a name, and how a source writes it.

A source names people and places in part and in other grammatical forms: ``Faryal Khan`` is
``Khan`` there, ``Belgian clubs`` come from a source that says ``Belgium``, ``European
Championship`` from ``European Championships``. The forms below are those written variants;
each is still matched as a whole word (docs/claims.md).
"""

from __future__ import annotations

import functools
import itertools
import re

from tracegrade.claims._answer_claim import AnswerClaim
from tracegrade.claims._scan_words import COMMON_WORDS, CONNECTORS, PLACE_GROUPS, TITLES

__all__ = [
    "COMPASS",
    "NOT_NAMES",
    "PLAIN_ABBREVIATIONS",
    "SUFFIXES",
    "clean_word",
    "name_claim",
    "name_forms",
    "split_name",
]

_POSSESSIVE = re.compile(r"['\u2019]s?$")
_LOWER_TAIL = re.compile(r"-[a-z][\w'\u2019-]*$")  # "Bolton-born", "Nobel-winning"
_SPELLING = re.compile(r"(?<=[a-z])i([sz])(?=ation|e|ed|es|ing)")
_PLACES = {alias.lower(): group for group in PLACE_GROUPS for alias in group}
NOT_NAMES = frozenset({"I", "I'm", "I've", "I'll", "I'd"})
# Abbreviations written in capitals that are words, not names, in prose.
PLAIN_ABBREVIATIONS = frozenset(
    {"tv", "pm", "am", "ok", "id", "faq", "diy", "vs", "etc", "est", "edt", "pst", "pdt", "cst",
     "cdt", "gmt", "utc", "bst", "cet"}
)  # fmt: skip
_PLAIN_WORDS = COMMON_WORDS | TITLES
COMPASS = frozenset({"northern", "southern", "eastern", "western"})
_SIGNIFICANT_LENGTH = 4
_MAX_COMBINED = 32
_DERIVED_LENGTH = 5


# Left out by sources as often as written: "Chris Eubank Jr", "Aberdeen FC", "Acme Inc".
SUFFIXES = frozenset(
    {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "fc", "afc", "cf", "sc", "inc", "ltd", "plc",
     "llc", "corp", "co"}
)  # fmt: skip


def split_name(words: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """One matched run of capitalised words as the names it holds.

    A possessive or a lower-case hyphenated tail ends a name: ``Nottingham's David Ling`` is
    ``Nottingham`` and ``David Ling``; ``Oscar-winner Kevin Kline`` is ``Oscar`` and
    ``Kevin Kline``. Plain abbreviations (``PM``, ``EST``, ``TV``) are no part of a name,
    and a run of several words all in capitals is shouting or a heading, not a name.
    """
    if len(words) > 1 and all(word.isupper() for word, _ in words):
        return []
    names: list[list[tuple[str, int]]] = [[]]
    for word, at in words:
        if word.isupper() and word.lower() in PLAIN_ABBREVIATIONS:
            names.append([])
            continue
        names[-1].append((word, at))
        if _POSSESSIVE.search(word) or _LOWER_TAIL.search(word):
            names.append([])
    return [name for name in names if name]


@functools.lru_cache(maxsize=4096)
def clean_word(word: str) -> str:
    """A name word without its possessive and lower-case tail: ``Bolton-born`` is ``Bolton``."""
    if "'" not in word and "\u2019" not in word and "-" not in word:
        return word  # the common case, without a regex
    return _LOWER_TAIL.sub("", _POSSESSIVE.sub("", word))


def _place_variants(word: str) -> list[str]:
    """The place words of one name word: ``Belgian``: ``Belgium``; ``Western``: ``West``."""
    lowered = word.lower()
    variants = list(_PLACES.get(lowered, ()))
    if lowered in COMPASS:
        variants.append(word[: -len("ern")])
    return variants


def _word_variants(word: str) -> list[str]:
    """Other written forms of one name word: place words, demonyms, plurals, spellings."""
    lowered = word.lower()
    variants = _place_variants(word)
    if not variants and len(word) >= _DERIVED_LENGTH and word.isalpha():
        if lowered.endswith("a"):
            variants += [word + "n", word + "ns"]  # Latvia: Latvian
        if lowered.endswith("an"):
            variants.append(word[:-1])  # Latvian: Latvia
        if lowered.endswith("ian"):
            variants += [word[:-3], word[:-3] + "y", word[:-3] + "e"]  # Iran, Italy, Ukraine
        if lowered.endswith("y"):
            variants.append(word[:-1] + "ian")  # Italy: Italian
        if lowered.endswith("s") and not lowered.endswith("ss"):
            variants.append(word[:-1])
        else:
            variants.append(word + "s")
    spelled = _SPELLING.sub(_swap_spelling, word)
    if spelled != word:
        variants.append(spelled)  # Islamization: Islamisation
    return variants


def _swap_spelling(match: re.Match[str]) -> str:
    return "iz" if match[1] == "s" else "is"


@functools.lru_cache(maxsize=4096)
def name_forms(words: tuple[str, ...]) -> tuple[str, ...]:
    """The forms of a name of cleaned ``words``: itself, its variants, and shorter parts.

    A source names people by surname and places by their head word, so a name of two words
    is also shown by its last word of four or more letters that is no common word
    (``Western Australia`` by a source writing ``west australian ... australia``); one of
    three or more words by any two consecutive words of it (``West Ham United`` by
    ``West Ham``), never by one word alone. ``Jr``, ``Sr``, numerals and company suffixes
    (``FC``, ``Inc``) after a name may be left out.
    """
    text = " ".join(words)
    forms = [text, *_PLACES.get(text.lower(), ())]
    if len(words) > 1 and words[-1].lower() in SUFFIXES:
        words = words[:-1]
        forms.append(" ".join(words))
    parts = [word for word in words if word.lower() not in CONNECTORS]
    if len(parts) == 1:
        forms += _word_variants(parts[0])
        pieces = parts[0].split("-") if "-" in parts[0] else []  # "Russia-Turkey" relations
    else:
        pieces = parts[-1].split("-")[-1:]
        # Place words anywhere in the name, other variants (plurals, demonyms) of its last
        # word: "Western Australia" is also "West Australian".
        choices = [[word, *_place_variants(word)] for word in words[:-1]]
        choices.append([words[-1], *_word_variants(words[-1])])
        combined = itertools.islice(itertools.product(*choices), _MAX_COMBINED)
        forms += [" ".join(combination) for combination in combined]
    pairs = [
        f"{first} {second}"
        for first, second in itertools.pairwise(words)
        if first.lower() not in CONNECTORS and second.lower() not in CONNECTORS
    ]
    if len(words) > 2 and pairs:
        forms += pairs
        pieces = []  # a long name is shown by two of its words together, not by one
    for piece in pieces:
        if len(piece) >= _SIGNIFICANT_LENGTH and piece.lower() not in _PLAIN_WORDS:
            forms += [piece, *_word_variants(piece)]
    return tuple(dict.fromkeys(forms))


def _is_abbreviation(word: str) -> bool:
    return word.isupper() and (len(word) < 3 or word.lower() in PLAIN_ABBREVIATIONS)


def name_claim(
    words: list[tuple[str, int]], *, sentence_start: bool, answer: str, named: frozenset[str]
) -> AnswerClaim | None:
    """A proper name: capitalised words (and their connectors) as written, cleaned.

    Dropped from the front: common words (``The``, ``However``) and titles (``President``);
    a single word opening a sentence counts only when the answer also writes it capitalised
    mid-sentence (``named``), so sentence starts ("Extends to ...") are no names. Two-letter
    capitals and plain abbreviations (``TV``, ``PM``) are words, not names.

    Args:
        words: The matched words with their start offsets in the answer (connectors too).
        sentence_start: The first word opens a sentence, a line or a list item.
        answer: The whole answer, to cut the raw text from.
        named: Capitalised words the answer writes mid-sentence, as written.
    """
    while words and words[0][0].lower() in _PLAIN_WORDS:
        words = words[1:]
        sentence_start = False
    last_title = max(
        (i for i, (word, _) in enumerate(words) if clean_word(word).lower() in TITLES), default=-1
    )
    if 0 <= last_title < len(words) - 1 and words[last_title + 1][0].lower() not in CONNECTORS:
        words = words[last_title + 1 :]
        sentence_start = False
    while words and words[-1][0].lower() in CONNECTORS:  # "of" left at the end
        words = words[:-1]
    words = (
        [(word, at) for word, at in words if not _is_abbreviation(clean_word(word))]
        if len(words) == 1
        else words
    )
    if not words:
        return None
    cleaned = [clean_word(word) for word, _ in words]
    capitalised = [word for word in cleaned if word.lower() not in CONNECTORS]
    if all(word.lower() in _PLAIN_WORDS for word in capitalised):
        return None
    if len(capitalised) == 1:
        single = capitalised[0]
        if len(single) < 2 or single.replace("\u2019", "'") in NOT_NAMES:
            return None
        if sentence_start and single not in named:
            return None
    start = words[0][1]
    last_word, last_start = words[-1]
    end = last_start + len(clean_word(last_word))
    text = " ".join(cleaned)
    return AnswerClaim("name", answer[start:end], text, start, end, name_forms(tuple(cleaned)))
