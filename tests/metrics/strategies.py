"""Hypothesis strategies for the metrics: small vocabularies, so items and tokens collide."""

from __future__ import annotations

from hypothesis import strategies as st

ITEMS = ["a", "b", "c", "d", "e", "f"]
items = st.sampled_from(ITEMS)
item_sets = st.frozensets(items, max_size=len(ITEMS))
rankings = st.lists(items, max_size=8)
grades = st.dictionaries(items, st.integers(min_value=0, max_value=3), max_size=len(ITEMS))
float_grades = st.dictionaries(
    items, st.floats(min_value=0, max_value=1e6, allow_nan=False), max_size=len(ITEMS)
)
cutoffs = st.integers(min_value=1, max_value=10)
scores = st.one_of(st.none(), st.floats(min_value=0, max_value=1))

# Pieces that exercise the tokenizer: case, punctuation, digits, letters outside ASCII whose
# lower-case form is ASCII (the Kelvin sign) or longer (İ), and the empty string.
TEXT_PIECES = [
    "the", "The", "cat", "CAT", "sat", "mat", "on", "a", "1", "42", "x2", "don't", "U.S.",
    "café", "İ", "\u212a", "ß", "日本", ",", ".", "-", " ", "\n", "",
]  # fmt: skip
texts = st.lists(st.sampled_from(TEXT_PIECES), max_size=12).map(" ".join)


@st.composite
def trials(draw: st.DrawFn) -> tuple[int, int, int]:
    """(samples, correct, k) with 1 <= k <= samples."""
    samples = draw(st.integers(min_value=1, max_value=60))
    correct = draw(st.integers(min_value=0, max_value=samples))
    k = draw(st.integers(min_value=1, max_value=samples))
    return samples, correct, k
