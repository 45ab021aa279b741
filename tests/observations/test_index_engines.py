"""The compiled search index against its reference, tracegrade.observations._index.TextIndex.

Both engines must return the same hits (and raise the same errors) for any entries and
needles; Hypothesis draws them from all of Unicode plus the characters whose lower case is
special (U+0130, U+212A, the sigmas), line breaks and NUL.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.strategies import FLIPS, TEXT_PIECES
from tracegrade import _core
from tracegrade.observations._index import TextIndex, entry_text, text_index

SPECIAL = [*TEXT_PIECES, "\u212a", "K", "k", "\u0130", "\u03a3A", "'", "\u00ad", "\u1e9e"]

characters = st.one_of(st.sampled_from(SPECIAL), st.characters(exclude_categories=["Cs"]))
texts = st.lists(characters, max_size=12).map("".join)
segments = st.lists(st.lists(texts, max_size=5), max_size=5)


def _pieces(drawn: list[list[str]]) -> tuple[list[str], list[int]]:
    """Pieces and counts as Observations builds them (entry_text per segment)."""
    return [entry_text(entries)[0] for entries in drawn], [len(entries) for entries in drawn]


@st.composite
def needles_for(draw: st.DrawFn, drawn: list[list[str]]) -> list[str]:
    """Needles that often hit: slices of the entries, case-flipped, and random texts."""
    entries = [entry for segment in drawn for entry in segment if entry]
    found: list[str] = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        from_entry: bool = draw(st.booleans())
        if entries and from_entry:
            entry = draw(st.sampled_from(entries))
            start = draw(st.integers(min_value=0, max_value=len(entry)))
            end = draw(st.integers(min_value=start, max_value=len(entry)))
            needle = entry[start:end]
            flip = draw(st.sampled_from(FLIPS))
            found.append(flip(needle))
        else:
            found.append(draw(texts))
    return found


@settings(max_examples=400, deadline=None)
@given(data=st.data(), drawn=segments)
def test_both_engines_find_the_same_entries(data: st.DataObject, drawn: list[list[str]]):
    pieces, counts = _pieces(drawn)
    reference = TextIndex(pieces, counts)
    compiled = _core.TextIndex(pieces, counts)
    assert compiled.total == reference.total
    for needle in data.draw(needles_for(drawn)) * 2:  # twice: the second answer is cached
        assert compiled.search(needle) == reference.search(needle), needle


@settings(max_examples=300, deadline=None)
@given(text=st.lists(characters, max_size=40).map("".join))
def test_the_core_lower_cases_like_str_lower(text: str):
    assert _core.lower(text) == text.lower()


def test_the_core_lower_cases_every_character_like_str_lower():
    # Every code point alone, and each after a cased letter before a capital sigma (the
    # final-sigma context reads the case properties the tables were built from).
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        if _core.lower(char) != char.lower():
            pytest.fail(f"U+{code:04X}: core {_core.lower(char)!r}, Python {char.lower()!r}")
    probes = [p + chr(code) + "\u03a3" for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF
              for p in ("", "A")]  # fmt: skip
    joined = "\n".join(probes)
    assert _core.lower(joined) == joined.lower()


@pytest.mark.parametrize(("pieces", "counts"), [(["a"], [1, 1]), (["a", "b"], [2]), ([], [0])])
def test_mismatched_pieces_and_counts_fail_alike(pieces: list[str], counts: list[int]):
    with pytest.raises(ValueError) as reference:  # noqa: PT011 (the message is compared next)
        TextIndex(pieces, counts)
    with pytest.raises(ValueError) as compiled:  # noqa: PT011
        _core.TextIndex(pieces, counts)
    assert str(compiled.value) == str(reference.value)


def test_a_lone_surrogate_is_searched_by_the_reference(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)
    index = text_index(["caf\udce9 ok", "plain"], [1, 1])
    assert isinstance(index, TextIndex)
    assert index.search("OK") == [(0, 0)]
    compiled = text_index(["plain"], [1])
    assert isinstance(compiled, _core.TextIndex)
    # A needle with a surrogate finds nothing in surrogate-free text, in both engines.
    assert compiled.search("\udce9") == TextIndex(["plain"], [1]).search("\udce9") == []
    assert compiled.search("\udce9\n") is None


def test_python_engine_is_selected_by_the_variable(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRACEGRADE_CORE", "python")
    assert isinstance(text_index(["a"], [1]), TextIndex)
    monkeypatch.setenv("TRACEGRADE_CORE", "compiled")
    assert isinstance(text_index(["a"], [1]), _core.TextIndex)
