"""A graded trace as the case and received-trace pages show it.

The frames as text with their marks, the answer split at its claims and figures, and each
claim (an expected fact, or one extracted from the answer with no question file) with the
observations behind it. The case page grades a trace read again from the
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
    ExtractedClaimView,
    FigureView,
    FrameMark,
    FrameView,
    TraceView,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.observations import Observations
    from tracegrade.traces import Frame, Trace
    from tracegrade.verdicts import Grade, GradedAnswerClaim, GradedClaim, GradedFigure

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


def _place_extracted(
    answer: str,
    extracted: tuple[ExtractedClaimView, ...],
    spans: list[tuple[int, int, AnswerPiece]],
) -> None:
    """Mark each extracted claim on the mark of exactly its run, or on its own free run."""
    for number, item in enumerate(extracted):
        if not 0 <= item.start < item.end <= len(answer):
            continue  # offsets of another answer (a stored grade): not placed
        same = next(
            (n for n, (s, e, p) in enumerate(spans) if (s, e) == (item.start, item.end)), None
        )
        if same is not None:
            first, last, piece = spans[same]
            if piece.extracted is None:
                spans[same] = (first, last, piece.model_copy(update={"extracted": number}))
        elif not any(s < item.end and item.start < e for s, e, _ in spans):
            piece = AnswerPiece(text=answer[item.start : item.end], extracted=number)
            spans.append((item.start, item.end, piece))


def answer_pieces(
    answer: str,
    claims: tuple[ClaimView, ...],
    figures: tuple[FigureView, ...],
    extracted: tuple[ExtractedClaimView, ...] = (),
) -> tuple[AnswerPiece, ...]:
    """Split the answer into runs of text, marking each claim's and each figure's place.

    Figures come with their offsets; a claim is marked where its text first appears in
    the answer (case-insensitive) outside any other mark, or on the figure that holds it.
    An extracted claim comes with its offsets too: it marks its own run when no other mark
    overlaps it, or the mark of exactly its run (its figure, a fact stated there); one that
    only partly overlaps another mark stays unmarked (it is still listed).
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
    _place_extracted(answer, extracted, spans)
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


def _extracted_view(
    claim: GradedAnswerClaim, observations: Observations | None
) -> ExtractedClaimView:
    frames = (_frame_of(evidence) for evidence in claim.evidence)
    return ExtractedClaimView(
        kind=claim.kind,
        raw=claim.raw,
        text=claim.text,
        start=claim.start,
        end=claim.end,
        given=claim.given,
        hedged=claim.hedged,
        support=claim.support,
        evidence_ids=claim.evidence,
        evidence=_evidence(claim.evidence, observations),
        frames=tuple(dict.fromkeys(frame for frame in frames if frame is not None)),
    )


def _extracted_mark(claim: ExtractedClaimView) -> FrameMark:
    if claim.support == "named-only":
        return FrameMark(kind="evidence", text=f"names the answer's {claim.kind} {claim.raw}")
    return FrameMark(kind="evidence", text=f"shows the answer's {claim.kind} {claim.raw}")


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
        grade: The grade: its extracted claims are shown with their evidence, the rest
            as it is (without claims, figures and extracted claims, which are shown apart).
        marks: Marks on frames already known (a guard's decisions, a contract's failures);
            each frame that shows a figure or backs a claim is marked too.
        mismatches: How the grade differs from the case's expectation.
    """
    figure_views = tuple(_figure_view(figure) for figure in figures)
    claim_views = tuple(_claim_view(claim, observations) for claim in claims)
    extracted = tuple(
        _extracted_view(claim, observations) for claim in (grade.extracted if grade else ())
    )
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
    for found in extracted:
        for frame in found.frames:
            marks.setdefault(frame, []).append(_extracted_mark(found))
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
        pieces=answer_pieces(answer, claim_views, figure_views, extracted),
        claims=claim_views,
        figures=figure_views,
        extracted=extracted,
        grounded_share=grade.grounded_share if grade is not None else None,
        grade=None
        if grade is None
        else grade.model_dump(mode="json", exclude={"claims", "figures", "extracted"}),
        mismatches=mismatches,
    )
