"""Whole-word search (``TextIndex.find_words``): the compiled core against its reference.

The reference is ``tracegrade.observations._index.TextIndex.find_words``, itself held here to
the rule it implements: an entry shows a form when it holds the form case-insensitively
(``str.lower``) and ``form_pattern(form)`` (``re``, ``IGNORECASE``, ``str.isalnum`` edges)
matches it, or when the form has no letter or digit at either end. Hypothesis draws entries
and forms from the characters where ``re`` and ``str.lower`` part ways (U+017F, U+0131,
U+0130, U+212A, the sigmas, ß and U+1E9E, µ), word edges (digits of other scripts,
superscripts, underscores, combining marks, letters of other scripts) and line breaks; two
sweeps cover every code point as a word edge and every cased character as a literal.
"""

from __future__ import annotations

import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.strategies import FLIPS, word_texts
from tracegrade import _core
from tracegrade._text import word_test
from tracegrade.observations._index import TextIndex, entry_text

segments = st.lists(st.lists(word_texts, max_size=4), max_size=4)


def _pieces(drawn: list[list[str]]) -> tuple[list[str], list[int]]:
    """Pieces and counts as Observations builds them (entry_text per segment)."""
    return [entry_text(entries)[0] for entries in drawn], [len(entries) for entries in drawn]


@st.composite
def forms_for(draw: st.DrawFn, drawn: list[list[str]]) -> list[str]:
    """Forms that often hit, often overlap one another, and often sit at word edges."""
    entries = [entry for segment in drawn for entry in segment if entry]
    forms: list[str] = []
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        choice = draw(st.integers(min_value=0, max_value=3))
        if entries and choice < 2:
            entry = draw(st.sampled_from(entries))
            start = draw(st.integers(min_value=0, max_value=len(entry)))
            end = draw(st.integers(min_value=start, max_value=len(entry)))
            forms.append(draw(st.sampled_from(FLIPS))(entry[start:end]))
        elif forms and choice == 2:  # a longer or shorter form sharing a start or an end
            other = draw(st.sampled_from(forms))
            cut = draw(st.integers(min_value=0, max_value=len(other)))
            forms.append(draw(st.sampled_from([other[:cut], other[cut:], other + "s"])))
        else:
            forms.append(draw(word_texts))
    return forms


def _rule(entries: list[str], form: str) -> list[int]:
    """The numbers of the entries showing ``form``, straight from the definition."""
    word = word_test(form)
    return [
        number
        for number, entry in enumerate(entries)
        if form.lower() in entry.lower() and (word is None or word(entry))
    ]


def _numbers(hits: list[tuple[int, int]] | None, counts: list[int]) -> list[int] | None:
    if hits is None:
        return None
    starts = [sum(counts[:segment]) for segment in range(len(counts))]
    return [starts[segment] + entry for segment, entry in hits]


@settings(max_examples=500, deadline=None)
@given(data=st.data(), drawn=segments)
def test_both_engines_find_the_same_whole_words(data: st.DataObject, drawn: list[list[str]]):
    pieces, counts = _pieces(drawn)
    reference = TextIndex(pieces, counts)
    compiled = _core.TextIndex(pieces, counts)
    forms = data.draw(forms_for(drawn))
    expected = reference.find_words(forms)
    assert compiled.find_words(forms) == expected, forms
    assert compiled.find_words(forms[::-1]) == expected[::-1]  # cached answers, other order
    # The reference is the rule: entry by entry (line breaks inside an entry are NUL there).
    flat = [e.replace("\r", "\x00").replace("\n", "\x00") for seg in drawn for e in seg]
    for form, hits in zip(forms, expected, strict=True):
        if any(c in form.lower() for c in "\r\n\x00"):
            assert hits is None
        else:
            assert _numbers(hits, counts) == _rule(flat, form), form


def test_every_code_point_is_a_word_edge_as_str_isalnum_says():
    codes = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    codes = [c for c in codes if chr(c) not in "\n\r"]
    entries = [f"{chr(c)}ab{chr(c)}" for c in codes]
    index = _core.TextIndex(["\n".join(entries)], [len(entries)])
    (hits,) = index.find_words(["ab"])
    shown = {entry for _, entry in hits or []}
    wrong = [f"U+{c:04X}" for n, c in enumerate(codes) if (n in shown) == chr(c).isalnum()]
    assert not wrong, f"edges unlike str.isalnum: {wrong[:20]}"


def test_every_cased_character_matches_as_re_matches_it():
    # Each cased letter or digit (and ASCII) F as a form, against entries "Fx c": F is found
    # there (str.lower) but not as a word, so the entry shows F exactly when re matches F
    # with c. c runs over what re matches F with, what str.lower equates with F (the two
    # differ for 72 letters) and F's neighbour in code point order.
    every = (chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    chars = sorted({c for c in every if c.lower() != c or c.upper() != c}
                   | {chr(c) for c in range(0x20, 0x7F)})  # fmt: skip
    line = "".join(chars)
    forms = [form for form in chars if form.isalnum()]
    entries: list[str] = []
    own: list[range] = []  # the entries made for each form
    for number, form in enumerate(forms):
        matched = {line[m.start()] for m in re.finditer(re.escape(form), line, re.IGNORECASE)}
        equal = {c for c in chars if c.lower() == form.lower()}
        others = sorted(matched | equal | {forms[(number + 1) % len(forms)]})
        own.append(range(len(entries), len(entries) + len(others)))
        entries += [f"{form}x {other}" for other in others]
    pieces, counts = ["\n".join(entries)], [len(entries)]
    expected = TextIndex(pieces, counts).find_words(forms)
    assert _core.TextIndex(pieces, counts).find_words(forms) == expected
    shown = sum(
        entry in made for hits, made in zip(expected, own, strict=True) for _, entry in hits or []
    )
    assert len(entries) > shown > len(forms)  # each form shown by itself, not by all


def test_forms_the_core_cannot_take_answer_as_the_reference():
    pieces, counts = ["a\udcff b\nport"], [2]
    compiled = _core.TextIndex(["a b\nport"], counts)
    reference = TextIndex(pieces, counts)
    # The core never holds a lone surrogate (text_index falls back to the reference over
    # such text), so a form holding one finds nothing there; a line break: the exact path.
    assert compiled.find_words(["\udcff", "a\nb", "PORT"]) == [[], None, [(0, 1)]]
    assert reference.find_words(["\udcff", "a\nb", "PORT"]) == [[(0, 0)], None, [(0, 1)]]
