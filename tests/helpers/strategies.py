"""Hypothesis strategies for the pure core: texts with every line-break form, tool results."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.helpers.builders import listing_body, read_body, search_body

# Pieces chosen to hit the edges: every break form, look-alike breaks, characters whose
# lower-case form is longer (İ) or context-dependent (Greek capital, small and final sigma),
# and the entry separator \x00.
TEXT_PIECES = [
    "a", "b", "A", "B", "4", "2", " ", "ab", "AB",
    "\n", "\r", "\r\n", "\n\r", "\v", "\f", "\x1c", "\x85", "\u2028", "\x00",
    "İ", "i", "\u0307", "ẞ", "ß", "ss", "\u03a3", "\u03c3", "\u03c2",
]  # fmt: skip

texts = st.lists(st.sampled_from(TEXT_PIECES), max_size=24).map("".join)
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
