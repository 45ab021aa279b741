"""The answer's marks and the trend chart's geometry (pure helpers of the pages)."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.web._claims import ANSWER, CLAIMS, MARKUP, RESULT, graded_run
from tracegrade.observations import observe
from tracegrade.store import TouchpointRunPoint
from tracegrade.traces import Trace
from tracegrade.verdicts import GradedClaim
from tracegrade.web import ClaimView, ExtractedClaimView, FigureView
from tracegrade.web._charts import trend_chart
from tracegrade.web._trace import answer_pieces, trace_view


def _claim(id: str, text: str, support: str = "read", *, in_answer: bool = True) -> ClaimView:
    return ClaimView.model_validate(
        {"id": id, "text": text, "in_answer": in_answer, "support": support, "evidence": []}
    )


def _figure(raw: str, start: int, support: str = "unsupported") -> FigureView:
    return FigureView.model_validate(
        {"raw": raw, "value": raw, "kind": "period", "start": start, "end": start + len(raw),
         "support": support, "frame": None if support == "unsupported" else 4}
    )  # fmt: skip


def test_a_frame_backing_a_claim_twice_is_marked_once():
    trace = Trace.model_validate(
        {"id": "t", "task": "How long?", "source_format": "atif", "frames": [
            {"type": "user", "content": "How long?"},
            {"type": "tool_call", "id": "c1", "name": "read_file", "args": {"path": "a.py"}},
            {"type": "tool_result", "id": "c1", "ok": True, "result": "A = 45\n# 45 days\n"},
            {"type": "assistant", "content": "45 days"},
        ]}
    )  # fmt: skip
    claim = GradedClaim(
        id="days", text="45 days", in_answer=True, support="read", evidence=("f2.1", "f2.2")
    )

    view = trace_view("a.json", trace, figures=(), claims=(claim,), observations=observe(trace))

    assert [len(item.evidence) for item in view.claims] == [2]
    assert [[mark.text for mark in frame.marks] for frame in view.frames] == [
        [],
        [],
        ["backs claim days (read)"],
        [],
    ]


def test_pieces_cover_the_answer_and_mark_claims_and_figures():
    answer = "Config.py sets 45 days; see config.py."
    claims = (_claim("file", "config.py"), _claim("missing", "nowhere", in_answer=False))

    pieces = answer_pieces(answer, claims, (_figure("45 days", 15),))

    assert "".join(piece.text for piece in pieces) == answer
    marked = [
        (p.text, p.claim, p.figure, p.unsourced) for p in pieces if p.claim or p.figure is not None
    ]
    assert marked == [("Config.py", "file", None, False), ("45 days", None, 0, True)]


def test_a_claim_inside_a_figure_marks_the_figure():
    answer = "It is 45 days."

    pieces = answer_pieces(answer, (_claim("days", "45", "named-only"),), (_figure("45 days", 6),))

    figure = next(piece for piece in pieces if piece.figure == 0)
    assert (figure.claim, figure.support, figure.unsourced) == ("days", "named-only", True)
    assert "".join(piece.text for piece in pieces) == answer


def test_a_claim_outside_the_figure_is_marked_where_it_stands_alone():
    answer = "45 days, and again 45."

    pieces = answer_pieces(answer, (_claim("days", "45"),), (_figure("45 days", 0),))

    claim = next(piece for piece in pieces if piece.claim == "days")
    assert claim.figure is None
    assert claim.text == "45"
    assert answer.index(claim.text, 1) == 19


def _point(run: str, metric: float | None, low: float | None = None) -> TouchpointRunPoint:
    return TouchpointRunPoint(
        run_id=run, started_at=datetime(2026, 1, 1, tzinfo=UTC), lane="pr", status="held",
        failed=False, metric=metric, baseline=None, delta=None, band_low=low,
        band_high=None if low is None else metric,
    )  # fmt: skip


def test_the_trend_runs_oldest_left_and_skips_unmeasured_runs():
    newest_first = [_point("r3", 1.0, 0.8), _point("r2", None), _point("r1", 0.0, 0.0)]

    chart = trend_chart(newest_first, baseline=0.5)

    assert [dot.label.split(":")[0] for dot in chart.dots] == ["r1", "r3"]
    assert chart.dots[0].x < chart.dots[1].x
    assert chart.dots[0].y > chart.dots[1].y  # 0.0 is drawn below 1.0
    assert chart.baseline_y is not None
    assert chart.dots[1].y < chart.baseline_y < chart.dots[0].y
    assert chart.band  # repeats give a band


def test_no_band_without_repeats_and_no_baseline_line_without_a_baseline():
    chart = trend_chart([_point("r1", 0.5)], baseline=None)

    assert chart.band == ""
    assert chart.baseline_y is None
    assert len(chart.dots) == 1


def test_extracted_claims_mark_the_answer_at_their_offsets_with_their_evidence():
    trace, grade = graded_run()

    view = trace_view("run", trace, figures=grade.figures, grade=grade, observations=observe(trace))

    assert "".join(piece.text for piece in view.pieces) == ANSWER
    marked = [
        (p.text, view.extracted[p.extracted].kind) for p in view.pieces if p.extracted is not None
    ]
    assert marked == [(claim.raw, claim.kind) for claim in CLAIMS]
    figure = next(piece for piece in view.pieces if piece.figure is not None)
    assert (figure.text, figure.extracted) == ("45 days", 1)  # the figure's own mark
    url, days, path, name, date, quote = view.extracted
    assert [item.text for item in url.evidence] == [RESULT.splitlines()[0]]
    assert (days.evidence, days.frames) == ((), (2,))  # a figure's evidence is its frame
    assert (path.support, path.frames) == ("named-only", (2,))
    assert (name.hedged, name.frames, date.given) == (True, (), True)
    assert quote.raw == MARKUP
    assert view.grounded_share == grade.grounded_share == 2 / 5
    assert [mark.text for mark in view.frames[2].marks] == [
        "shows the answer's figure 45 days",
        "shows the answer's url https://example.com/refunds",
        "names the answer's path billing/config.py",
    ]


def test_an_extracted_claim_overlapping_another_mark_in_part_is_listed_not_marked():
    answer = "The window is 45 days long."
    fact = _claim("days", "45 days")
    inside = _extracted("quantity", answer, "45 days long")  # overlaps the fact in part
    elsewhere = _extracted("quantity", answer, "window", start=99)  # another answer's offset

    pieces = answer_pieces(answer, (fact,), (), (inside, elsewhere))

    assert [(p.text, p.claim, p.extracted) for p in pieces if p.claim or p.extracted] == [
        ("45 days", "days", None)
    ]
    assert "".join(piece.text for piece in pieces) == answer


def test_an_extracted_claim_at_exactly_a_facts_place_shares_its_mark():
    answer = "See billing/config.py."
    fact = _claim("file", "billing/config.py")

    pieces = answer_pieces(answer, (fact,), (), (_extracted("path", answer, "billing/config.py"),))

    assert [(p.text, p.claim, p.extracted) for p in pieces if p.claim] == [
        ("billing/config.py", "file", 0)
    ]


def _extracted(kind: str, answer: str, raw: str, start: int | None = None) -> ExtractedClaimView:
    at = answer.index(raw) if start is None else start
    return ExtractedClaimView(
        kind=kind, raw=raw, text=raw, start=at, end=at + len(raw), given=False, hedged=False,
        support="read", evidence_ids=(), evidence=(), frames=(),
    )  # fmt: skip
