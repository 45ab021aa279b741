"""Anchors: reading only the text around a figure's anchors finds what reading all finds."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.figures.test_properties import PIECES
from tracegrade.figures import FigureSources, anchor_pattern, extract_figures
from tracegrade.traces import ToolCallFrame, ToolResultFrame, UserFrame

# Sources mix the figure pieces with filler, JSON-ish structure and line breaks.
FILLER = ["the", "report", "says", "\n", '", "', "{", "}", "thirty", "seventh", "year", "1", "5"]
source_texts = st.lists(st.sampled_from(PIECES + FILLER), max_size=30).map(" ".join)
answers = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map(" ".join)


def _frames(user: str, results: list[str]) -> list[object]:
    frames: list[object] = [UserFrame(content=user)]
    for index, text in enumerate(results):
        frames += [
            ToolCallFrame(id=f"c{index}", name="search", args={}),
            ToolResultFrame(id=f"c{index}", ok=True, result={"text": text, "page": index}),
        ]
    return frames


@settings(max_examples=300, deadline=None)
@given(answers, source_texts, st.lists(source_texts, max_size=4))
@example("$1,500,000", "go", ["the loan of 1.5 million dollars"])
@example("30 days", "go", ["within thirty (30) days of notice"])
@example("2017", "go", ["in fiscal 2016-17, revenue"])
def test_anchored_sources_find_the_same_evidence_as_reading_everything(
    answer: str, user: str, results: list[str]
):
    figures = extract_figures(answer)
    anchors = anchor_pattern(figures)
    frames = _frames(user, results)
    everything = FigureSources().extend(frames)  # type: ignore[arg-type]
    anchored = FigureSources(lines_matching=anchors).extend(frames)  # type: ignore[arg-type]

    for figure in figures:
        assert anchored.index.evidence_for(figure) == everything.index.evidence_for(figure), figure


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ("$1,500,000", "the loan of 1.5 million dollars"),
        ("30 days", "within thirty (30) days of notice"),
        ("$2 million", "a grant of two million dollars"),
        ("7 consecutive years", "for the seventh consecutive year"),
    ],
)
def test_a_figure_written_in_other_words_is_found(answer: str, source: str):
    (figure,) = extract_figures(answer)
    frames = _frames("go", [source])
    anchored = FigureSources(lines_matching=anchor_pattern([figure])).extend(frames)  # type: ignore[arg-type]
    assert anchored.index.evidence_for(figure) == "f2"


def test_no_anchor_for_a_hedged_figure():
    assert anchor_pattern(extract_figures("about $3 million")) is None


def test_anchors_allow_the_written_forms():
    pattern = anchor_pattern(extract_figures("$1,500,000 and 30 days and 2017"))
    assert pattern is not None
    for source in ("1.5 million", "$1.5M", "1500000", "thirty days", "in 2016-17", "30-day"):
        assert pattern.search(source), source
    assert not pattern.search("a 2,750,000 loan over 45 days")
