"""Hypothesis properties: one key per number whatever its format; sources only ever help."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tracegrade.figures import FigureIndex, extract_figures, unsourced_figures

big_integers = st.integers(min_value=1000, max_value=10**15)
cents = st.integers(min_value=0, max_value=99)

PIECES = [
    "$1,500,000", "1500000", "$1.5M", "1.5 million", "12.5%", "12.5 %", "30 days",
    "thirty (30) days", "30-day", "Section 8.10", "§ 8.22", "2024", "2016-17", "about",
    "over", "nearly", "$3 million", "2,956,737", "42", "HTTP 404", " ", ", ", "v1.2.3", "-",
    "two years", "£", "€5", "USD", "1,000", "999",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=12).map(" ".join)


@given(big_integers)
def test_separators_and_dollar_sign_give_one_key(number: int) -> None:
    forms = [
        f"{number}",
        f"{number:,}",
        f"${number:,}",
        f"$ {number:,}",
        f"${number}",
        f"{number:,} USD",
    ]
    keys = {extract_figures(f"total {form} paid")[0].key for form in forms}
    assert keys == {str(number)}


@given(big_integers, cents)
def test_trailing_zero_cents_are_dropped(number: int, cent: int) -> None:
    (figure,) = extract_figures(f"${number:,}.{cent:02d}")
    expected = Decimal(f"{number}.{cent:02d}").normalize()
    assert figure.key == format(expected, "f")


@given(st.integers(min_value=1, max_value=999), st.sampled_from(["million", "M", "bn", "billion"]))
def test_scaled_money_equals_written_out(mantissa: int, scale: str) -> None:
    factor = 10**6 if scale in ("million", "M") else 10**9
    (scaled,) = extract_figures(f"${mantissa} {scale}" if len(scale) > 1 else f"${mantissa}{scale}")
    (written,) = extract_figures(f"{mantissa * factor:,}")
    assert scaled.key == written.key


@given(texts)
def test_spans_are_raw_and_keys_unique(text: str) -> None:
    figures = extract_figures(text)
    assert all(text[figure.start : figure.end] == figure.raw for figure in figures)
    assert len({figure.key for figure in figures}) == len(figures)
    assert [figure.start for figure in figures] == sorted(figure.start for figure in figures)


@given(texts, st.lists(texts, max_size=4), texts)
def test_adding_a_source_never_adds_an_unsourced_figure(
    text: str, sources: list[str], extra: str
) -> None:
    before = set(unsourced_figures(text, sources))
    after = set(unsourced_figures(text, [*sources, extra]))
    assert after <= before


@given(texts, st.lists(texts, max_size=4))
def test_incremental_index_equals_one_shot(text: str, sources: list[str]) -> None:
    index = FigureIndex()
    for position, source in enumerate(sources):
        index.unsourced(text)  # checks between additions must not change the index
        index.add(source, f"source {position}")
    assert index.unsourced(text) == unsourced_figures(text, sources)
    keys = {figure.key for source in sources for figure in extract_figures(source)}
    assert len(index) == len(keys)
    for figure in extract_figures(text):
        first = next(
            (
                f"source {position}"
                for position, source in enumerate(sources)
                if figure.key in {found.key for found in extract_figures(source)}
            ),
            None,
        )
        if first is not None or figure.hedge is None:  # a hedged figure may also round
            assert index.evidence_for(figure) == first


@given(texts)
def test_a_text_sources_itself(text: str) -> None:
    assert unsourced_figures(text, [text]) == ()
