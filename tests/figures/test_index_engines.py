"""FigureIndex.add on the compiled core against its Python loop (``TRACEGRADE_CORE=python``).

The core fills the index's own dicts (figure keys, hedged forms, numbers of any size), so
both engines must leave them with the same items in the same order, for any sources and
echoed call arguments, and on the corpus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.figures.test_extract_engines import _corpus_files, _texts, texts
from tracegrade.figures import FigureIndex
from tracegrade.figures._find import compiled_extractor

if TYPE_CHECKING:
    from pathlib import Path

Contents = tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]] | None]


def _contents(index: FigureIndex) -> Contents:
    numbers = index._numbers
    return (
        list(index._evidence.items()),
        list(index._approximate.items()),
        None if numbers is None else list(numbers.items()),
    )


def _built(sources: list[tuple[str, str | None]], *, bare: bool, engine: str) -> Contents:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRACEGRADE_CORE", engine)
        index = FigureIndex(bare_numbers=bare)
        for position, (text, echo_of) in enumerate(sources):
            index.add(text, f"f{position}", echo_of=echo_of)
    return _contents(index)


@given(st.lists(st.tuples(texts, st.none() | texts), max_size=4), st.booleans())
@settings(max_examples=400)
def test_any_sources_fill_the_index_alike_on_both_engines(
    sources: list[tuple[str, str | None]], bare: bool
) -> None:
    compiled = _built(sources, bare=bare, engine="compiled")
    assert compiled == _built(sources, bare=bare, engine="python")


def test_the_core_fills_the_index_and_skips_echoed_figures() -> None:
    extractor = compiled_extractor()
    assert extractor is not None
    known: dict[str, str] = {"1500": "f0"}
    approximate: dict[str, str] = {}
    numbers: dict[str, str] = {}
    text = "about $2,956,737 and $1,500 on 12 May; 30 days"
    assert extractor.index(text, "f1", known, approximate, numbers, {"30 days"})
    assert known == {"1500": "f0", "2956737": "f1"}
    assert approximate["about:3000000"] == "f1"
    assert "over:1000" not in approximate  # 1500 was known already: its forms are not added
    assert list(numbers) == ["2956737", "1500", "12", "30"]


def test_a_text_the_core_declines_leaves_the_index_untouched() -> None:
    extractor = compiled_extractor()
    assert extractor is not None
    known: dict[str, str] = {}
    assert not extractor.index("\ud800 $5 million", "f0", known, {}, {}, set())
    assert known == {}


@pytest.mark.corpus
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_every_corpus_file_fills_the_index_alike_on_both_engines(path: Path) -> None:
    sources: list[tuple[str, str | None]] = [(text, None) for text in dict.fromkeys(_texts(path))]
    sources += [(text, text[: len(text) // 2]) for text, _ in sources[:20]]
    compiled = _built(sources, bare=True, engine="compiled")
    assert compiled == _built(sources, bare=True, engine="python"), path.name
