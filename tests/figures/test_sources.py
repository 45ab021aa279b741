"""FigureSources: the one evidence policy for figures, over a run's frames."""

from __future__ import annotations

from tracegrade.figures import FigureSources, extract_figures, number_figure, result_text
from tracegrade.traces import (
    AssistantFrame,
    CompactionFrame,
    Frame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
)

FRAMES: list[Frame] = [
    SystemFrame(content="Refunds above $5,000 need approval."),
    UserFrame(content="Refund order 88 for 2,500 euros."),
    AssistantFrame(content="I will refund $9,100."),
    ToolCallFrame(id="c1", name="lookup_order", args={"order": 88, "total": "$7,700"}),
    ToolResultFrame(id="c1", ok=True, result={"order": 88, "total": 3150, "currency": "EUR"}),
    ToolCallFrame(id="c2", name="refund", args={"amount": "$4,400"}),
    ToolResultFrame(id="c2", ok=False, result={"ok": False, "error": "amount $4,400 too high"}),
    CompactionFrame(before=900, after=100, summary="Refund of $6,600 discussed."),
    ToolCallFrame(id="c3", name="write_memo", args={"text": "Refund $8,800."}),
    ToolResultFrame(id="c3", ok=True, result="Memo saved: refund $8,800, memo 5,555."),
]


def _sourced(sources: FigureSources, text: str) -> list[str]:
    return [f.raw for f in extract_figures(text) if sources.index.evidence_for(f) is not None]


def test_human_messages_and_tool_results_are_sources_and_nothing_else():
    sources = FigureSources().extend(FRAMES)
    text = "$5,000 2,500 $9,100 $7,700 3,150 $4,400 $6,600 $8,800"
    # The failed refund echoes its own argument $4,400: never a source for it.
    assert _sourced(sources, text) == ["2,500", "3,150", "$8,800"]


def test_a_failed_result_vouches_for_what_its_call_did_not_say():
    frames: list[Frame] = [
        ToolCallFrame(id="b1", name="book", args={"amount": 304}),
        ToolResultFrame(id="b1", ok=False, result="Error: total price is 608, but paid 304"),
    ]
    sources = FigureSources().extend(frames)
    assert sources.index.evidence_for(number_figure(608)) == "f1"  # type: ignore[arg-type]
    assert sources.index.evidence_for(number_figure(304)) is None  # type: ignore[arg-type]


def test_evidence_names_the_frame():
    sources = FigureSources().extend(FRAMES)
    (figure,) = extract_figures("3150 euros")
    assert sources.index.evidence_for(figure) == "f4"
    assert sources.frames_seen == len(FRAMES)


def test_the_system_prompt_only_when_asked():
    assert "$5,000" in _sourced(FigureSources(system=True).extend(FRAMES), "$5,000")
    assert _sourced(FigureSources().extend(FRAMES), "$5,000") == []


def test_an_untrusted_tool_vouches_only_for_what_it_did_not_echo():
    sources = FigureSources(results_of=lambda tool: tool != "write_memo").extend(FRAMES)
    assert _sourced(sources, "$8,800 3,150 5,555") == ["3,150", "5,555"]
    trusting = FigureSources().extend(FRAMES)
    assert _sourced(trusting, "$8,800") == ["$8,800"]


def test_a_bare_number_is_sourced_by_any_number_a_source_writes():
    sources = FigureSources().extend(FRAMES)
    assert sources.index.evidence_for(number_figure(88)) == "f1"  # type: ignore[arg-type]
    assert sources.index.evidence_for(number_figure("3,150")) == "f4"  # type: ignore[arg-type]
    assert sources.index.evidence_for(number_figure(4400)) is None  # type: ignore[arg-type]
    # In prose 88 is no figure, so nothing to source; identifiers never source a number.
    assert extract_figures("order 88") == ()
    ids = FigureSources().extend([UserFrame(content="card_4421 and HAT136")])
    assert ids.index.evidence_for(number_figure(4421)) is None  # type: ignore[arg-type]
    assert ids.index.evidence_for(number_figure(136)) is None  # type: ignore[arg-type]


def test_result_text_is_what_the_model_saw():
    assert result_text("plain") == "plain"
    assert result_text({"a": [1, 2.5, None]}) == '{"a":[1,2.5,null]}'
