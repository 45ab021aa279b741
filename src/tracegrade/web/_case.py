"""The case page: a stored case result, and its trace read again and graded at view time.

A stored result holds its outcome and a one-line diagnosis, not the claims. Grading is
deterministic, so the trace named by the result's work unit is read again from the
project and graded the way the runner graded it: a grade case against its suite's
question, a guard case through the guard's replay, a contract case through the contract
validator. Only files the registry names are read (never a path taken from the store).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from tracegrade.contract import ContractRules, load_contract_rules, validate_grounding_contract
from tracegrade.errors import TracegradeError
from tracegrade.figures import result_text
from tracegrade.guard import load_policy, replay
from tracegrade.observations import LineObservation, observe
from tracegrade.suites import load_suite
from tracegrade.traces import (
    ApprovalFrame,
    CompactionFrame,
    ToolCallFrame,
    ToolResultFrame,
    read_traces,
)
from tracegrade.verdicts import GradedFigure, check, grade, grade_figures
from tracegrade.web._models import (
    AnswerPiece,
    CaseView,
    ClaimView,
    EvidenceView,
    FigureView,
    FrameMark,
    FrameView,
    TraceView,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.evals import Touchpoint
    from tracegrade.observations import Decoder, Observations
    from tracegrade.store import CaseResultRow
    from tracegrade.traces import Frame, Trace
    from tracegrade.web._views import Context

__all__ = ["answer_pieces", "case_view", "frame_view"]

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


def _figures(trace: Trace) -> tuple[FigureView, ...]:
    graded = [
        GradedFigure.model_validate(item) for item in grade_figures(trace, trace.final_answer)
    ]
    return tuple(
        FigureView(
            raw=figure.raw,
            value=figure.value,
            kind=figure.kind,
            start=figure.start,
            end=figure.end,
            support=figure.support,
            frame=_frame_of(figure.evidence[0]) if figure.evidence else None,
        )
        for figure in graded
    )


def _pick(path: Path, wanted: str | None) -> Trace:
    traces = list(read_traces(path))
    for trace in traces:
        if wanted is None or trace.id == wanted:
            return trace
    msg = f"{path.name} holds no trace {wanted!r}"
    raise LookupError(msg)


def _build(
    file: str,
    trace: Trace,
    marks: dict[int, list[FrameMark]],
    *,
    observations: Observations | None = None,
    claims: tuple[ClaimView, ...] = (),
    graded: dict[str, Any] | None = None,
    mismatches: tuple[str, ...] = (),
) -> TraceView:
    figures = _figures(trace)
    for figure in figures:
        if figure.frame is not None:
            marks.setdefault(figure.frame, []).append(
                FrameMark(kind="evidence", text=f"shows the answer's figure {figure.raw}")
            )
    for claim in claims:
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
        pieces=answer_pieces(answer, claims, figures),
        claims=claims,
        figures=figures,
        grade=graded,
        mismatches=mismatches,
    )


def _grade_trace(ctx: Context, contract: Touchpoint, item: str) -> TraceView:
    if ctx.project is None or contract.suite is None:
        msg = "no suite"
        raise LookupError(msg)
    loaded = load_suite(ctx.project.resolve(contract.suite))
    case = next((case for case in loaded.suite.cases if case.trace == item), None)
    question = loaded.suite.question(case.question) if case is not None else None
    if case is None or question is None:
        msg = f"the suite has no case {item!r}"
        raise LookupError(msg)
    trace = _pick(loaded.trace_path(case.trace), None)
    strict = loaded.suite.suite.strict
    decoders: tuple[Decoder, ...] = loaded.decoders
    observations = observe(trace, strict=strict, decoders=decoders)
    result = grade(trace, question, strict=strict, decoders=decoders)
    claims = tuple(
        ClaimView(
            id=claim.id,
            text=claim.text,
            in_answer=claim.in_answer,
            support=claim.support,
            evidence=_evidence(claim.evidence, observations),
        )
        for claim in result.claims
    )
    mismatches = check(result, case.expect) if case.expect is not None else ()
    return _build(
        case.trace,
        trace,
        {},
        observations=observations,
        claims=claims,
        graded=result.model_dump(mode="json", exclude={"claims", "figures"}),
        mismatches=mismatches,
    )


def _file_trace(ctx: Context, contract: Touchpoint, item: str, case_id: str) -> TraceView:
    if ctx.project is None:
        msg = "no project"
        raise LookupError(msg)
    files = {
        path.relative_to(ctx.project.root).as_posix(): path
        for path in ctx.project.trace_files(contract)
    }
    if item not in files:
        msg = f"the registry names no trace file {item!r}"
        raise LookupError(msg)
    rest = case_id.removeprefix(item)
    wanted = (
        rest[1:].split("#frame")[0]
        if rest.startswith("#") and not rest.startswith("#frame")
        else None
    )
    trace = _pick(files[item], wanted)
    marks: dict[int, list[FrameMark]] = {}
    if contract.suite_kind == "guard" and contract.suite is not None:
        for call in replay(trace, load_policy(ctx.project.resolve(contract.suite))):
            decision = call.decision
            if decision.allowed:
                text = f"guard allowed {decision.tool} ({decision.checked} figures checked)"
                marks.setdefault(call.frame, []).append(FrameMark(kind="guard-allow", text=text))
            else:
                figures = ", ".join(value.figure.raw for value in decision.unsourced)
                text = f"guard blocked {decision.tool}: unsourced {figures}"
                marks.setdefault(call.frame, []).append(FrameMark(kind="guard-block", text=text))
    else:
        rules = (
            load_contract_rules(ctx.project.resolve(contract.suite))
            if contract.suite is not None
            else ContractRules()
        )
        for failure in validate_grounding_contract(trace, rules):
            at = failure.frame if failure.frame is not None else len(trace.frames) - 1
            marks.setdefault(at, []).append(
                FrameMark(kind="contract", text=f"{failure.rule}: {failure.detail}")
            )
    return _build(item, trace, marks)


def case_view(ctx: Context, row: CaseResultRow) -> CaseView:
    """The case page for a stored result; the trace when the registry can find it again."""
    result = row.result
    detail = result.payload.get("detail")
    unit = result.payload.get("unit")
    item = unit.split("|", 2)[2] if isinstance(unit, str) and unit.count("|") >= 2 else ""
    contract = None
    if ctx.project is not None:
        contract = next((t for t in ctx.project.touchpoints if t.id == result.touchpoint), None)
    trace: TraceView | None = None
    why = ""
    if contract is None:
        why = "the served project's registry has no touchpoint of this name"
    elif contract.suite_kind not in {"grade", "guard", "contract"} or not item:
        why = f"a {contract.suite_kind} suite records outcomes, not trace files"
    else:
        try:
            if contract.suite_kind == "grade":
                trace = _grade_trace(ctx, contract, item)
            else:
                trace = _file_trace(ctx, contract, item, result.case_id)
        except (TracegradeError, LookupError, OSError) as exc:
            why = f"the trace could not be read again: {str(exc).splitlines()[0]}"
    return CaseView(
        id=row.id,
        result=result,
        suite_kind=contract.suite_kind if contract else None,
        diagnosis=detail if isinstance(detail, str) else "",
        trace=trace,
        no_trace=why,
    )
