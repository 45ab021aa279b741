"""The compiled figure extractor against its reference, ``_extract.reference_figures``.

Both engines must give the same figures (kind, raw, value, span in ``str`` indices, hedge)
for any text, or fail alike. Hypothesis builds texts from the pieces the rules turn on
(currency, units, ranges, dates, hedges, spelled numbers) and from the characters Python's
``re`` and ``str`` treat their own way (digits of other scripts, fullwidth forms, ``²``,
``\\x1c``, the long s, ``İ``, lone surrogates); every text of the corpus is compared too. Where
the core declines a text (``figures`` gives ``None``), the reason must be one the border
names, and ``iter_figures`` must then give the reference's answer.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_root
from tracegrade.figures import Figure
from tracegrade.figures._extract import reference_figures, reference_numbers
from tracegrade.figures._find import compiled_extractor, extract_figures, iter_figures

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tracegrade._core import FigureExtractor

PIECES = [
    "$", "US$", "hk$", "€", "£", "¥", "₹", "₩", "₽", "§", "§§ ", "Section ", "sec. ", "Sect",
    "USD ", "usd", "EUR", " GBP", "1", "5", "0", "07", "12", "123", "1234", "2016", "1999",
    ",", ".", ",000", ",5", "-", "\u2013", "\u2014", " to ", "/", "--", " ", "  ", "\u00a0",
    "\t", "\n",
    "%", " percent", " per cent", " percentage point", "pct", " days", "-day", " year",
    "-year-old", " months", " week", " business ", "calendar-", " consecutive ", "straight ",
    " million", "m", "bn", "k", "b", "mln", " thousand", " dollars", " pounds sterling",
    " yen", "rupees", "thirty", "Twenty-five", "twenty one", "seven", "Seventeen", "zero",
    "seventh", "7th", "21st", "First", " (30)", "( 4 )", "(", ")", "(b)", "a", "iv", "x",
    "about ", "Around ", "over ", "nearly ", "~", "≈", "more than ", "at least ", "just ",
    "approx. ", "up to", "HAT", "A-", "ISO-", "v", "_", "'s", "s", "'", "١٢", "٣", "٤٥٦٧",
    "\uff10", "\uff11\uff12", "\uff19", "²", "Ⅻ", "İ", "\u017f", "\u0131", "\u212a", "K",
    "\ud800", "\x1c", "\u2028", "Σ",
]  # fmt: skip

pieces = st.one_of(
    st.sampled_from(PIECES),
    st.integers(min_value=0, max_value=10**40).map(str),
    st.characters(),
)
texts = st.lists(pieces, max_size=30).map("".join)

Outcome = list[Figure] | tuple[str, str]


def _extractor() -> FigureExtractor:
    extractor = compiled_extractor()
    assert extractor is not None, "the compiled core is the default engine"
    return extractor


def _reference(text: str) -> Outcome:
    try:
        return list(reference_figures(text))
    except Exception as error:  # noqa: BLE001 (the engines must fail alike, whatever fails)
        return (type(error).__name__, str(error))


def _declined_for_a_known_reason(text: str, reference: Outcome) -> bool:
    """The reasons the border gives for leaving a text to the reference."""
    has_surrogate = any("\ud800" <= char <= "\udfff" for char in text)
    deep = re.search(r"(?:[,.-]\d+){100,}", text) is not None
    failed = isinstance(reference, tuple)
    return has_surrogate or len(text.lower()) != len(text) or deep or failed


def _assert_same(text: str, where: str = "") -> bool:
    """Both engines agree on ``text``; ``True`` when the core took it.

    ``where`` names a corpus text, whose content a failure must not print (its licence).
    """
    shown = where or repr(text)
    reference = _reference(text)
    found = _extractor().figures(text)
    if found is None:
        assert _declined_for_a_known_reason(text, reference), f"declined {shown}"
        return False
    numbers = _extractor().numbers(text)
    assert numbers == reference_numbers(text), f"number values differ on {shown}"
    compiled = [Figure(*figure) for figure in found]
    if compiled != reference:
        pairs = zip(compiled, reference if isinstance(reference, list) else [], strict=False)
        first = next(((c, r) for c, r in pairs if c != r), None)
        counts = f"{len(compiled)} vs {len(reference)} figures"
        pytest.fail(f"engines differ on {shown}: {counts}; first difference {first}")
    return True


@given(texts)
@settings(max_examples=1500)
def test_any_text_gives_the_same_figures_on_both_engines(text: str) -> None:
    _assert_same(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRACEGRADE_CORE", "compiled")
        try:
            compiled: Outcome = list(iter_figures(text))
        except Exception as error:  # noqa: BLE001
            compiled = (type(error).__name__, str(error))
        patch.setenv("TRACEGRADE_CORE", "python")
        assert compiled == _reference(text)
        distinct_python = _distinct(text)
        patch.setenv("TRACEGRADE_CORE", "compiled")
        assert _distinct(text) == distinct_python


def _distinct(text: str) -> tuple[Figure, ...] | tuple[str, str]:
    try:
        return extract_figures(text)
    except Exception as error:  # noqa: BLE001
        return (type(error).__name__, str(error))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("about $3 million", [("money", "$3 million", "3000000", 6, 16, "about")]),
        ("the ٢٠٢٤ budget", [("number", "٢٠٢٤", "٢٠٢٤", 4, 8, None)]),
        ("\uff11\uff12\uff13\uff14 USD", [
            ("money", "\uff11\uff12\uff13\uff14 USD", "1234", 0, 8, None),
        ]),
        ("x² 2016\u201317", [
            ("number", "2016", "2016", 3, 7, None),
            ("number", "2016\u201317", "2017", 3, 10, None),
        ]),
        ("$" + "1" * 30, [("money", "$" + "1" * 30, "1" * 28 + "00", 0, 31, None)]),
        ("HAT-1234, 555-123-4567, v1.2.3", []),
    ],
)  # fmt: skip
def test_the_core_takes_ordinary_text_and_finds_its_figures(
    text: str, expected: list[tuple[object, ...]]
) -> None:
    assert _extractor().figures(text) == expected
    assert _assert_same(text)


@pytest.mark.parametrize("text", ["\u017fome $5", "est\u0131mated $5 million"])
def test_a_hedge_spelt_with_re_s_case_extras_is_read_alike(text: str) -> None:
    # IGNORECASE reads the long s as "s" and the dotless i as "i" (once a KeyError in both).
    assert _assert_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "İstanbul paid $5 million",  # lower case is longer: the reference matches any case
        "lone \ud800 surrogate and $5 million",
        "1" + ",000" * 2000 + " dollars",  # deeper than the matcher's stack budget
    ],
)
def test_texts_the_core_declines_get_the_references_answer(text: str) -> None:
    assert _extractor().figures(text) is None
    assert not _assert_same(text)


# --- The corpus -------------------------------------------------------------------------------


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _texts(path: Path) -> Iterator[str]:
    """The file's text, and every string of the JSON (or JSON lines) it holds."""
    text = path.read_bytes().decode("utf-8", "replace")
    yield text
    try:
        yield from _strings(json.loads(text))
    except ValueError:
        for line in text.splitlines():
            try:
                yield from _strings(json.loads(line))
            except ValueError:
                continue


def _corpus_files() -> list[Path]:
    root = corpus_root()
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".md")


@pytest.mark.corpus
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_every_corpus_text_gives_the_same_figures_on_both_engines(path: Path) -> None:
    texts = dict.fromkeys(_texts(path))
    taken = [_assert_same(text, f"{path.name} text {i}") for i, text in enumerate(texts)]
    assert sum(taken) >= len(taken) - 1, f"the core declined {taken.count(False)} texts"


def test_the_corpus_is_there_or_the_corpus_test_says_why() -> None:
    if not corpus_root().is_dir():
        pytest.skip(f"real corpus not found at {corpus_root()}: set TRACEGRADE_CORPUS")
    assert _corpus_files(), f"no files under {corpus_root()}"


def test_number_values_skip_identifiers_and_read_every_script() -> None:
    text = "card_4421 costs 1,500.00, v1.2 and \u0663\u0664 units"
    assert _extractor().numbers(text) == ["1500", "34"] == reference_numbers(text)
