"""Cited claims: the sentences of an answer that hold a citation marker, and what they quote.

A claim is one sentence (or one line: a bullet is a sentence of its own). A marker belongs
to the sentence it ends, whether it stands before the full stop (``... 5% [loan].``) or
right after it (``... 5%. [loan] Next sentence``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tracegrade._text import LINE_BREAK, collapse, is_blank, trim

__all__ = ["CitedClaim", "cited_claims", "fold", "phrase_fragments", "quoted_phrases"]

# The end of a sentence: a full stop (not an ellipsis), "!" or "?", closing quotes or
# brackets, then whitespace before anything but a lower-case letter ("e.g. the" goes on).
# "5.25%" or "§4.2" have no whitespace after the dot, so they never end a sentence.
_SENTENCE_END = re.compile(r"(?:(?<!\.)\.(?!\.)|[!?]+)[\"'\u201d\u2019)]*\s+(?![a-z])")
_WORD = re.compile(r"\w")
_SPACES = re.compile(r"\s*")
# "straight" or “curly” double quotes around a phrase of one line.
_QUOTED = re.compile(r"\"([^\"\r\n]+)\"|\u201c([^\u201d]+)\u201d")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026")
_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


@dataclass(frozen=True, slots=True)
class CitedClaim:
    """One sentence of the answer that cites sources.

    Attributes:
        text: The sentence as written, trimmed, markers included.
        keys: The cited keys (group 1 of each marker), in order, without repeats.
        body: The sentence with every marker blanked out: where figures and quotes are read,
            so a key such as ``contract-2023`` is never taken for a figure.
    """

    text: str
    keys: tuple[str, ...]
    body: str


def cited_claims(answer: str, marker: re.Pattern[str]) -> tuple[CitedClaim, ...]:
    """The sentences of ``answer`` that hold at least one marker, in order."""
    sentences: list[str] = []
    for line in LINE_BREAK.split(answer):
        for piece in _sentences(line, marker):
            if sentences and not _WORD.search(marker.sub("", piece)):
                sentences[-1] = f"{sentences[-1]} {piece}"  # markers on a line of their own
            else:
                sentences.append(piece)
    claims: list[CitedClaim] = []
    for sentence in sentences:
        keys = tuple(dict.fromkeys(match.group(1) for match in marker.finditer(sentence)))
        if keys:
            body = marker.sub(lambda match: " " * len(match.group(0)), sentence)
            claims.append(CitedClaim(text=sentence, keys=keys, body=body))
    return tuple(claims)


def _sentences(line: str, marker: re.Pattern[str]) -> list[str]:
    """Cut a line after each sentence end and the markers that directly follow it."""
    pieces: list[str] = []
    start = 0
    for end_match in _SENTENCE_END.finditer(line):
        cut = end_match.end()
        if cut <= start:
            continue  # inside markers already given to the previous sentence
        while (found := marker.match(line, cut)) is not None and found.end() > cut:
            cut = found.end()
            spaces = _SPACES.match(line, cut)
            cut = spaces.end() if spaces is not None else cut
        pieces.append(trim(line[start:cut]))
        start = cut
    pieces.append(trim(line[start:]))
    return [piece for piece in pieces if not is_blank(piece)]


def quoted_phrases(text: str) -> tuple[str, ...]:
    """The phrases ``text`` puts in double quotes (straight or curly), in order."""
    return tuple(
        phrase
        for match in _QUOTED.finditer(text)
        if not is_blank(phrase := match.group(1) or match.group(2))
    )


def phrase_fragments(phrase: str) -> tuple[str, ...]:
    """The parts of a quoted phrase to look for: an ellipsis (``...``) leaves words out."""
    return tuple(fold(part) for part in _ELLIPSIS.split(phrase) if not is_blank(part))


def fold(text: str) -> str:
    """Text compared loosely: curly quotes made straight, whitespace runs collapsed, casefolded."""
    return collapse(text.translate(_FOLD)).casefold()
