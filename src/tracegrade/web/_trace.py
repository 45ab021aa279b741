"""A graded trace as the case and received-trace pages show it.

The frames as text with their marks, the answer split at its claims and figures, and each
claim with the observations behind it. The case page grades a trace read again from the
project; the received-trace page shows the grade stored when the spans arrived; both build
the same :class:`TraceView` here.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from tracegrade.figures import result_text
from tracegrade.observations import LineObservation
from tracegrade.traces import ApprovalFrame, CompactionFrame, ToolCallFrame, ToolResultFrame
from tracegrade.web._models import (
    AnswerPiece,
    ClaimView,
    EvidenceView,
    FigureView,
    FrameMark,
    FrameView,
    TraceView,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.observations import Observations
    from tracegrade.traces import Frame, Trace
    from tracegrade.verdicts import Grade, GradedClaim, GradedFigure

__all__ = ["answer_pieces", "frame_view", "trace_view"]

_FRAME_ID = re.compile(r"^f(\d+)")


def _pretty(value: object) -> str:
    """JSON indented for reading (a string holding JSON too); other text as it is."""
    if isinstance(value, str):
        try:
            parsed: object = json.loads(value)
        except ValueError:
            return value
        if isinstance(parsed, str) or not isinstance(parsed, dict | list):
            return value
        value = parsed
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return result_text(value)


def frame_view(index: int, frame: Frame, marks: tuple[FrameMark, ...] = ()) -> FrameView:
    """One frame as text: the call's tool and arguments, a result's content, or prose."""
    if isinstance(frame, ToolCallFrame):
        return FrameView(
            index=index,
            type=frame.type,
            title=f"{frame.name} [{frame.id}]",
            text=_pretty(frame.args),
            marks=marks,
        )
    if isinstance(frame, ToolResultFrame):
        title = f"[{frame.id}] {'ok' if frame.ok else 'failed'}"
        return FrameView(
            index=index, type=frame.type, title=title, text=_pretty(frame.result), marks=marks
        )
    if isinstance(frame, ApprovalFrame):
        return FrameView(
            index=index, type=frame.type, title=frame.tool, text=frame.decision, marks=marks
        )
    if isinstance(frame, CompactionFrame):
        title = f"{frame.before} -> {frame.after} tokens"
        return FrameView(index=index, type=frame.type, title=title, text=frame.summary, marks=marks)
    return FrameView(index=index, type=frame.type, title="", text=frame.content, marks=marks)


def answer_pieces(
    answer: str, claims: tuple[ClaimView, ...], figures: tuple[FigureView, ...]
) -> tuple[AnswerPiece, ...]:
    """Split the answer into runs of text, marking each claim's and each figure's place.

    Figures come with their offsets; a claim is marked where its text first appears in
    the answer (case-insensitive) outside any other mark, or on the figure that holds it.
    """
    spans: list[tuple[int, int, AnswerPiece]] = []
    for number, figure in enumerate(figures):
        piece = AnswerPiece(
            text=answer[figure.start : figure.end],
            figure=number,
            unsourced=figure.support == "unsupported",
        )
        spans.append((figure.start, figure.end, piece))
    lowered = answer.lower()
    for claim in claims:
        if not claim.text or not claim.in_answer:
            continue
        needle = claim.text.lower()
        starts = [m.start() for m in re.finditer(re.escape(needle), lowered)]
        free = [
            start
            for start in starts
            if not any(s < start + len(needle) and start < e for s, e, _ in spans)
        ]
        if free:
            start, end = free[0], free[0] + len(needle)
            spans.append(
                (
                    start,
                    end,
                    AnswerPiece(text=answer[start:end], claim=claim.id, support=claim.support),
                )
            )
            continue
        for start in starts:
            holder = next(
                (
                    n
                    for n, (s, e, p) in enumerate(spans)
                    if s <= start and start + len(needle) <= e and p.claim is None
                ),
                None,
            )
            if holder is not None:
                first, last, piece = spans[holder]
                held = piece.model_copy(update={"claim": claim.id, "support": claim.support})
                spans[holder] = (first, last, held)
                break
    spans.sort(key=lambda span: span[0])
    pieces: list[AnswerPiece] = []
    at = 0
    for start, end, piece in spans:
        if start > at:
            pieces.append(AnswerPiece(text=answer[at:start]))
        pieces.append(piece)
        at = end
    if at < len(answer):
        pieces.append(AnswerPiece(text=answer[at:]))
    return tuple(pieces)


def _evidence(ids: tuple[str, ...], observations: Observations | None) -> tuple[EvidenceView, ...]:
    """The observations ``ids`` names, in that order (those not found left out)."""
    if observations is None or not ids:
        return ()
    wanted = set(ids)
    found: dict[str, EvidenceView] = {}
    for item in observations:
        if item.id in wanted:
            line = item.line if isinstance(item, LineObservation) else None
            text = item.text if isinstance(item, LineObservation) else ""
            found[item.id] = EvidenceView(
                id=item.id,
                frame=item.frame,
                tool=item.tool,
                kind=item.kind,
                file=item.file,
                line=float(line) if line is not None else None,
                text=text,
            )
    return tuple(found[key] for key in ids if key in found)


def _frame_of(evidence: str) -> int | None:
    match = _FRAME_ID.match(evidence)
    return int(match.group(1)) if match else None


def _claim_view(claim: GradedClaim, observations: Observations | None) -> ClaimView:
    return ClaimView(
        id=claim.id,
        text=claim.text,
        in_answer=claim.in_answer,
        support=claim.support,
        evidence=_evidence(claim.evidence, observations),
    )


def _figure_view(figure: GradedFigure) -> FigureView:
    return FigureView(
        raw=figure.raw,
        value=figure.value,
        kind=figure.kind,
        start=figure.start,
        end=figure.end,
        support=figure.support,
        frame=_frame_of(figure.evidence[0]) if figure.evidence else None,
    )


def trace_view(
    file: str,
    trace: Trace,
    *,
    figures: Iterable[GradedFigure],
    claims: Iterable[GradedClaim] = (),
    observations: Observations | None = None,
    grade: Grade | None = None,
    marks: dict[int, list[FrameMark]] | None = None,
    mismatches: tuple[str, ...] = (),
) -> TraceView:
    """A graded trace as a page shows it.

    Args:
        file: Where the trace came from, as the page names it.
        trace: The trace.
        figures: The answer's graded figures.
        claims: The answer's graded claims.
        observations: The trace's observations, to show the evidence of each claim.
        grade: The grade (shown without its claims and figures, which are shown apart).
        marks: Marks on frames already known (a guard's decisions, a contract's failures);
            each frame that shows a figure or backs a claim is marked too.
        mismatches: How the grade differs from the case's expectation.
    """
    figure_views = tuple(_figure_view(figure) for figure in figures)
    claim_views = tuple(_claim_view(claim, observations) for claim in claims)
    marks = {at: list(each) for at, each in (marks or {}).items()}
    for figure in figure_views:
        if figure.frame is not None:
            marks.setdefault(figure.frame, []).append(
                FrameMark(kind="evidence", text=f"shows the answer's figure {figure.raw}")
            )
    for claim in claim_views:
        for item in claim.evidence:
            marks.setdefault(item.frame, []).append(
                FrameMark(kind="evidence", text=f"backs claim {claim.id} ({claim.support})")
            )
    answer = trace.final_answer
    return TraceView(
        file=file,
        trace_id=trace.id,
        task=trace.task,
        model=trace.model,
        source_format=trace.source_format,
        frames=tuple(
            frame_view(index, frame, tuple(dict.fromkeys(marks.get(index, ()))))
            for index, frame in enumerate(trace.frames)
        ),
        answer=answer,
        pieces=answer_pieces(answer, claim_views, figure_views),
        claims=claim_views,
        figures=figure_views,
        grade=None
        if grade is None
        else grade.model_dump(mode="json", exclude={"claims", "figures"}),
        mismatches=mismatches,
    )
