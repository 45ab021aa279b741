"""Citations are checked against what the run observed: file:line, observation ids, result ids."""

from __future__ import annotations

import pytest

from tests.judges.builders import example_case, example_trace, verdict
from tracegrade.judges import CitationIndex, FakeJudge, PanelCase, run_panel
from tracegrade.observations import Lines, Observations, observe


def _index(name: str) -> CitationIndex:
    return CitationIndex(observe(example_trace(name)))


@pytest.mark.parametrize(
    ("citation", "kind", "evidence"),
    [
        ("billing/config.py:4", "file-line", ("f4.4",)),
        ("./billing/config.py:4", "file-line", ("f4.4",)),
        (" billing/config.py:1 ", "file-line", ("f4.1",)),
        ("f4.4", "observation-id", ("f4.4",)),
        ("f2.3", "observation-id", ("f2.3",)),  # the listing's name is an observation
    ],
)
def test_what_the_run_read_is_a_good_citation(citation, kind, evidence) -> None:
    check = _index("read-source").check(citation)
    assert (check.kind, check.observed, check.evidence) == (kind, True, evidence)


@pytest.mark.parametrize(
    ("citation", "kind"),
    [
        ("billing/config.py:40", "file-line"),  # past the end of the file the run read
        ("billing/refunds.py:8", "file-line"),  # a file seen only in the listing
        ("f4.7", "observation-id"),
        ("f9.1", "observation-id"),
        ("billing/config.py", "unrecognised"),  # a name is not a line
        ("REFUND_WINDOW_DAYS = 45", "unrecognised"),
        ("", "unrecognised"),
    ],
)
def test_what_the_run_never_observed_is_a_bad_citation(citation, kind) -> None:
    check = _index("read-source").check(citation)
    assert (check.kind, check.observed, check.evidence) == (kind, False, ())


def test_a_file_seen_only_as_a_name_does_not_back_a_line_citation() -> None:
    index = _index("listing-guess")
    assert not index.check("billing/config.py:4").observed
    assert index.check("f2.3").observed


def test_a_copy_of_a_line_in_command_output_is_not_the_source_line() -> None:
    index = _index("grep-only")  # grep printed ./billing/config.py:4:REFUND_WINDOW_DAYS = 45
    assert not index.check("billing/config.py:4").observed
    assert index.check("f2.1").observed
    assert index.check("$ grep -rn REFUND_WINDOW_DAYS .:1").observed


def test_a_result_id_the_tool_gave_is_a_citation() -> None:
    lines = Lines(
        ("Refund policy", "Shipping"), (1, 2), ("45 days", "3 days"), ("doc-17", "doc-18")
    )
    index = CitationIndex(Observations([(3, "search_knowledge", lines)]))
    check = index.check("doc-17")
    assert (check.kind, check.observed, check.evidence) == ("result-id", True, ("f3.1",))
    assert not index.check("doc-99").observed


def test_the_panel_marks_bad_citations_per_vote_and_per_case() -> None:
    good = ["billing/config.py:4", "f4.4"]
    invented = ["billing/config.py:12", "billing/refunds.py:8"]
    a = FakeJudge([verdict(citations=good), verdict("unsupported", citations=good)], name="a")
    b = FakeJudge([verdict(citations=[*good, *invented]), verdict("unsupported")], name="b")
    result = run_panel([a, b], [example_case("read-source"), example_case("listing-guess")])
    read, listing = result.cases
    assert [vote.bad_citations for vote in read.votes] == [(), tuple(invented)]
    assert read.bad_citations == tuple(invented)
    assert read.bad_citation_count == 2
    # The listing run never read config.py: judge a's citations are bad there.
    assert listing.bad_citations == ("billing/config.py:4", "f4.4")
    assert listing.bad_citation_count == 2
    assert result.bad_citations == 4


def test_a_case_without_a_trace_checks_no_citation() -> None:
    judge = FakeJudge([verdict(citations=["anything:1"])], name="a")
    case = run_panel([judge], [PanelCase("free", "material")]).cases[0]
    assert case.citations_checked is False
    assert case.bad_citations == ()
