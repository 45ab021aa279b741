"""extract_figures(): every kind, every normalisation, negatives, spans and dedup order."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tracegrade.figures import Figure, extract_figures, figure_of, number_figure


def values(text: str) -> list[tuple[str, str]]:
    return [(figure.kind, figure.value) for figure in extract_figures(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1,500,000", [("money", "1500000")]),
        ("$ 181,674,817", [("money", "181674817")]),
        ("$1.5 million", [("money", "1500000")]),
        ("$1.5M", [("money", "1500000")]),
        ("£3m", [("money", "3000000")]),
        ("€2.5bn", [("money", "2500000000")]),
        ("USD 1,500", [("money", "1500")]),
        ("2,000 EUR", [("money", "2000")]),
        ("US$5", [("money", "5")]),
        ("$1,500.00", [("money", "1500")]),
        ("$12.50", [("money", "12.5")]),
        ("two million euros", [("money", "2000000")]),
        ("five dollars", [("money", "5")]),
        ("$5-10 million", [("money", "5000000"), ("money", "10000000")]),
        ("12.5 %", [("percent", "12.5%")]),
        ("12.5%", [("percent", "12.5%")]),
        ("12.50 percent", [("percent", "12.5%")]),
        ("ten per cent", [("percent", "10%")]),
        ("3 percentage points", [("percent", "3%")]),
        ("5-10%", [("percent", "5%"), ("percent", "10%")]),
        ("30 days", [("period", "30 days")]),
        ("a 30-day notice", [("period", "30 days")]),
        ("thirty (30) days", [("period", "30 days")]),
        ("Thirty (30) Calendar Days", [("period", "30 calendar days")]),
        ("two years", [("period", "2 years")]),
        ("1 week", [("period", "1 week")]),
        ("twenty-five months", [("period", "25 months")]),
        ("10 to 15 days", [("period", "10 days"), ("period", "15 days")]),
        ("three straight years", [("period", "3 consecutive years")]),
        ("for the seventh consecutive year", [("period", "7 consecutive years")]),
        ("Section 8.10", [("section", "§8.10")]),
        ("§ 8.22", [("section", "§8.22")]),
        ("§8.22", [("section", "§8.22")]),
        ("Sec. 4(b)", [("section", "§4(b)")]),
        ("section 4(B)", [("section", "§4(b)")]),
        ("1,500,000", [("number", "1500000")]),
        ("1500000", [("number", "1500000")]),
        ("1.5 million", [("number", "1500000")]),
        ("1.5 billion", [("number", "1500000000")]),
        ("1.5bn", [("number", "1500000000")]),
        ("one million", [("number", "1000000")]),
        ("in 2024", [("number", "2024")]),
        ("the 1990s", [("number", "1990")]),
        ("1234.50", [("number", "1234.5")]),
        ("on 2024-01-15", [("number", "2024")]),
        ("on 15/01/2024", [("number", "2024")]),
        ("mid-2015", [("number", "2015")]),
        ("2016-17", [("number", "2016"), ("number", "2017")]),
        ("2007 -- 11", [("number", "2007"), ("number", "2011")]),
        ("1999-00", [("number", "1999"), ("number", "2000")]),
        ("2020-2021", [("number", "2020"), ("number", "2021")]),
        ("-1,500", [("number", "1500")]),
    ],
)
def test_kinds_and_normalisation(text: str, expected: list[tuple[str, str]]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "42",
        "999 items",
        "HTTP 404",
        "200 OK",
        "status 500 Internal Server Error",
        "v1.2.3",
        "version 10.0.1234",
        "192.168.0.1",
        "HAT123",
        "HAT-1234",
        "call 555-123-4567",
        "a 21-year-old striker",
        "he is 30 years old",
        "a quarter of the votes",
        "a year ago",
        "the second year",
        "5.68 m long",
        "3M and 5G",
        "at 14:00",
        "the 13th place",
        "sha 1234567abc",
        "one of the two",
        "",
    ],
)
def test_not_figures(text: str) -> None:
    assert extract_figures(text) == ()


def test_money_plain_and_scaled_numbers_share_a_key() -> None:
    keys = {
        extract_figures(text)[0].key for text in ["$1,500,000", "1,500,000", "1500000", "$1.5M"]
    }
    assert keys == {"1500000"}


def test_keys_differ_across_kinds() -> None:
    figures = extract_figures("30 days, 30%, § 30, 3000, $30")
    assert [figure.key for figure in figures] == ["30 days", "30%", "§30", "3000", "30"]
    assert len({figure.key for figure in figures}) == 5


def test_span_is_the_raw_text() -> None:
    text = "Pay $ 181,674,817 within thirty (30) days under Sec. 4(b), i.e. 12.5 % in 2024-25."
    figures = extract_figures(text)
    assert [figure.raw for figure in figures] == [
        "$ 181,674,817",
        "thirty (30) days",
        "Sec. 4(b)",
        "12.5 %",
        "2024",
        "2024-25",
    ]
    assert all(text[figure.start : figure.end] == figure.raw for figure in figures)


def test_dedup_keeps_the_first_occurrence_in_order() -> None:
    text = "2024: $1.5M, then 1,500,000 again, 12%, 2023 and 2024 and 12 %"
    figures = extract_figures(text)
    assert [(figure.value, figure.raw) for figure in figures] == [
        ("2024", "2024"),
        ("1500000", "$1.5M"),
        ("12%", "12%"),
        ("2023", "2023"),
    ]
    assert figures[1].start == text.index("$1.5M")


def test_hedges() -> None:
    figures = extract_figures("about $3 million, over 1,500, nearly 78,000, ~2,000 and 5,000")
    assert [(figure.value, figure.hedge) for figure in figures] == [
        ("3000000", "about"),
        ("1500", "over"),
        ("78000", "under"),
        ("2000", "about"),
        ("5000", None),
    ]


def test_hedge_only_applies_to_money_and_numbers() -> None:
    (figure,) = extract_figures("about 30 days")
    assert figure.hedge is None


def test_text_whose_lower_case_changes_length() -> None:
    text = "İstanbul: 2,000 USD and Section 8.10"
    figures = extract_figures(text)
    assert [(figure.kind, figure.value) for figure in figures] == [
        ("money", "2000"),
        ("section", "§8.10"),
    ]
    assert all(text[figure.start : figure.end] == figure.raw for figure in figures)


def test_a_scale_in_capitals_beside_text_whose_lower_case_changes_length() -> None:
    # The pattern then runs over the original text, so the scale word keeps its case (this
    # raised KeyError: 'MILLION'; found by tests/engines).
    figures = extract_figures("\u0130: $1.5 MILLION, TWELVE THOUSAND and 2 MILLION DOLLARS")
    assert [(figure.kind, figure.value) for figure in figures] == [
        ("money", "1500000"),
        ("number", "12000"),
        ("money", "2000000"),
    ]


@pytest.mark.parametrize("text", ["\u017fome $5 million", "est\u0131mated $5 million"])
def test_a_hedge_spelt_with_a_letter_re_matches_case_insensitively(text: str) -> None:
    # re.IGNORECASE reads the long s as "s" and the dotless i as "i"; lower-casing keeps
    # both, so the hedge word was not in the table (raised KeyError).
    (figure,) = extract_figures(text)
    assert (figure.value, figure.hedge) == ("5000000", "about")


def test_figure_is_frozen_and_key_is_value() -> None:
    figure = Figure("money", "$5", "5", 0, 2)
    assert figure.key == "5"
    with pytest.raises(AttributeError):
        figure.value = "6"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (50, "50"),
        (1500000, "1500000"),
        (-42, "42"),
        (0.0425, "0.0425"),
        (1500.0, "1500"),
        (Decimal("1500.00"), "1500"),
        ("1,500", "1500"),
        (" 42 ", "42"),
        ("-3.50", "3.5"),
    ],
)
def test_number_figure_takes_bare_numbers_of_any_size(value: object, expected: str) -> None:
    figure = number_figure(value)
    assert figure is not None
    assert (figure.kind, figure.value, figure.start, figure.end) == (
        "number",
        expected,
        0,
        len(figure.raw),
    )


@pytest.mark.parametrize(
    "value",
    [
        True,
        None,
        float("nan"),
        float("inf"),
        Decimal("NaN"),
        "$50",
        "50 days",
        "v1.2",
        "",
        [50],
        "1,50",
    ],
)
def test_number_figure_rejects_everything_else(value: object) -> None:
    assert number_figure(value) is None


def test_figure_of_is_the_figure_a_whole_text_is() -> None:
    assert [getattr(figure_of(text), "key", None) for text in
            ("$1,072", " 30 days ", "2024", "about $3 million", "5-10%", "gpt-5-mini",
             "the total is $1,072", "")] == [
        "1072", "30 days", "2024", None, None, None, None, None,
    ]  # fmt: skip
