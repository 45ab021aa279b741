"""FigureIndex and unsourced_figures(): sources in other written forms, evidence, hedges."""

from __future__ import annotations

from tracegrade.figures import FigureIndex, extract_figures, unsourced_figures


def raws(figures: tuple[object, ...]) -> list[str]:
    return [figure.raw for figure in figures]  # type: ignore[attr-defined]


def test_sourced_in_other_written_forms() -> None:
    answer = (
        "Revenue was $1.5 million (12.5%) over 30 days per Section 8.10, up from 2,000,000 in 2023."
    )
    sources = [
        "revenue: 1,500,000 dollars; margin 12.5 percent",
        "notice period: thirty (30) days; see § 8.10",
        "prior: $2M. Year: 2023",
    ]
    assert unsourced_figures(answer, sources) == ()


def test_unsourced_figures_are_returned_in_order() -> None:
    answer = "It grossed $181,674,817 on a budget of $150 million in 2006, 20% more."
    source = "Poseidon grossed $ 181,674,817 on a budget of $ 160 million ."
    assert raws(unsourced_figures(answer, [source])) == ["$150 million", "2006", "20%"]


def test_period_needs_its_unit() -> None:
    assert raws(unsourced_figures("30 days", ["30 weeks"])) == ["30 days"]
    assert raws(unsourced_figures("30 days", ["a 30-day window"])) == []
    assert raws(unsourced_figures("30 days", ["within 30 business days"])) == ["30 days"]


def test_no_sources_everything_unsourced() -> None:
    assert raws(unsourced_figures("$5 and 2024", [])) == ["$5", "2024"]


def test_evidence_is_the_first_source() -> None:
    index = FigureIndex()
    index.add("nothing here", "frame 1")
    index.add("total 1,500", "frame 2")
    index.add("total $1,500", "frame 3")
    (figure,) = extract_figures("$1.5 thousand")
    assert index.evidence_for(figure) == "frame 2"
    (missing,) = extract_figures("1,501")
    assert index.evidence_for(missing) is None
    assert len(index) == 1


def test_len_counts_distinct_keys() -> None:
    index = FigureIndex()
    index.add("2024, 2024, $2,024 and 30 days", "a")
    index.add("thirty days", "b")
    assert len(index) == 2


def test_hedged_figures_may_round() -> None:
    source = "spent £2,956,737; cases 77,984; gross $ 181,674,817; Lib Dems £1,580,575"
    index = FigureIndex()
    index.add(source, "s")
    sourced = "nearly £3 million, nearly 78,000, over $181 million, over £1.5 million"
    assert index.unsourced(sourced) == ()
    # Without a hedge, or rounded the wrong way for the hedge, a rounded figure is unsourced.
    assert raws(index.unsourced("£3 million")) == ["£3 million"]
    assert raws(index.unsourced("over £3 million")) == ["£3 million"]
    assert raws(index.unsourced("nearly $181 million")) == ["$181 million"]
    assert raws(index.unsourced("about £1.5 million")) == ["£1.5 million"]


def test_year_ranges_source_both_years() -> None:
    assert unsourced_figures("2007-2011 and 2016-2017", ["2007 -- 11, 2016-17"]) == ()


def test_unsourced_is_the_index_rule() -> None:
    index = FigureIndex()
    index.add("$5 for 30 days", "s")
    text = "$5 for 30 days, then $6 for 2 years"
    assert index.unsourced(text) == unsourced_figures(text, ["$5 for 30 days"])
    assert raws(index.unsourced(text)) == ["$6", "2 years"]
