"""Hypothesis strategies for the pure core: texts with every line-break form, tool results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from tests.helpers.builders import listing_body, read_body, search_body

if TYPE_CHECKING:
    from collections.abc import Callable

# Pieces chosen to hit the edges: every break form, look-alike breaks, characters whose
# lower-case form is longer (İ) or context-dependent (Greek capital, small and final sigma),
# and the entry separator \x00.
TEXT_PIECES = [
    "a", "b", "A", "B", "4", "2", " ", "ab", "AB",
    "\n", "\r", "\r\n", "\n\r", "\v", "\f", "\x1c", "\x85", "\u2028", "\x00",
    "İ", "i", "\u0307", "ẞ", "ß", "ss", "\u03a3", "\u03c3", "\u03c2",
]  # fmt: skip

texts = st.lists(st.sampled_from(TEXT_PIECES), max_size=24).map("".join)

# Whole words: where re.IGNORECASE and str.lower differ, and what stands at a word's edge
# (underscores, combining marks, digits and letters of other scripts, numerals).
WORD_CASES = ["\u017f", "s", "S", "\u0131", "I", "\u0130", "\u212a", "k", "\u00b5", "\u03bc"]
WORD_CASES += ["\u03a3", "\u03c3", "\u03c2", "\u00df", "\u1e9e", "\u0345", "\u03b9", "\u1fbe"]
WORD_EDGES = ["_", "-", ".", "/", "\u0301", "\u00b2", "\u0663", "\u00e9", "\u00c9", "\u65e5"]
WORD_EDGES += ["\u2167", "\u00bd", "x", "7", " ", "\t", "\u00a0", "\u200d"]
_WORD_PIECES = [*TEXT_PIECES, *WORD_CASES, *WORD_EDGES, "port", "Port", "80", "NOS-18"]
word_texts = st.lists(
    st.one_of(
        st.sampled_from(_WORD_PIECES),
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(WORD_CASES),
    ),
    max_size=10,
).map("".join)
# How a needle cut from an entry is written back: in any case.
FLIPS: list[Callable[[str], str]] = [str.upper, str.lower, str.swapcase, str]
needles = st.lists(st.sampled_from(TEXT_PIECES), min_size=0, max_size=3).map("".join)

# Small vocabularies so generated results often mention the facts of WORLD_FACTS.
FILES = ["src/a.ts", "src/b.ts", "README.md", "docs/a.md"]
WORDS = ["42", "PORT", "src/a.ts", "a", "x", "", " ", "4", "2"]
WORLD_FACTS = {"file": "src/a.ts", "value": "42"}
WORLD_TRUTH_FILE = "src/a.ts"
WORLD_TELL = "42"

line_texts = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)


@st.composite
def search_results(draw: st.DrawFn) -> dict[str, Any]:
    matches = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "file": st.sampled_from(FILES),
                    "line": st.integers(min_value=1, max_value=50),
                    "text": line_texts,
                }
            ),
            max_size=4,
        )
    )
    return search_body(matches)


listing_results = st.lists(st.sampled_from(FILES), max_size=4).map(listing_body)
read_results = st.builds(
    read_body, st.sampled_from(FILES), st.lists(line_texts, max_size=4).map("\n".join)
)

# (tool name, result body) pairs whose shape the tool's built-in decoder reads.
tool_results = st.one_of(
    st.tuples(st.just("search_files"), search_results()),
    st.tuples(st.just("list_files"), listing_results),
    st.tuples(st.just("read_file"), read_results),
)
