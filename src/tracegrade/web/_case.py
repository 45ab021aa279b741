"""The case page: a stored case result, and its trace read again and graded at view time.

A stored result holds its outcome and a one-line diagnosis, not the claims. Grading is
deterministic, so the trace named by the result's work unit is read again from the
project and graded the way the runner graded it: a grade case against its suite's
question (every claim of the answer extracted too, beside the expected facts), a guard
case through the guard's replay, a contract case through the contract validator. Only
files the registry names are read (never a path taken from the store).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.contract import ContractRules, load_contract_rules, validate_grounding_contract
from tracegrade.errors import TracegradeError
from tracegrade.guard import load_policy, replay
from tracegrade.observations import observe
from tracegrade.suites import load_suite
from tracegrade.traces import read_traces
from tracegrade.verdicts import NO_QUESTION, GradedFigure, check, grade, grade_figures
from tracegrade.web._models import CaseView, FrameMark, TraceView
from tracegrade.web._trace import trace_view

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.evals import Project, Touchpoint
    from tracegrade.observations import Decoder
    from tracegrade.store import CaseResultRow
    from tracegrade.traces import Trace
    from tracegrade.web._views import Context

__all__ = ["case_view"]


def _figures(trace: Trace) -> list[GradedFigure]:
    """The answer's figures, graded against the trace."""
    return [GradedFigure.model_validate(item) for item in grade_figures(trace, trace.final_answer)]


def _pick(path: Path, wanted: str | None, project: Project) -> Trace:
    # Read with the project's own redaction patterns beside the packaged ones.
    traces = list(read_traces(path, redactor=project.redactor))
    for trace in traces:
        if wanted is None or trace.id == wanted:
            return trace
    msg = f"{path.name} holds no trace {wanted!r}"
    raise LookupError(msg)


def _grade_trace(ctx: Context, contract: Touchpoint, item: str) -> TraceView:
    if ctx.project is None or contract.suite is None:
        msg = "no suite"
        raise LookupError(msg)
    loaded = load_suite(ctx.project.resolve(contract.suite))
    case = loaded.case_named(item)
    question = (
        None
        if case is None
        else NO_QUESTION
        if case.question is None
        else loaded.suite.question(case.question)
    )
    files = loaded.case_files(case) if case is not None else ()
    if case is None or question is None or not files:
        msg = f"the suite has no case {item!r}"
        raise LookupError(msg)
    # A case of several runs (a glob, run = "*") shows its first.
    trace = _pick(files[0][0], None if case.run in {None, "*"} else case.run, ctx.project)
    strict = loaded.suite.suite.strict
    decoders: tuple[Decoder, ...] = loaded.decoders
    observations = observe(trace, strict=strict, decoders=decoders)
    # The page always shows the answer's extracted claims, auto case or not.
    result = grade(trace, question, auto=True, strict=strict, decoders=decoders)
    mismatches = check(result, case.expect) if case.expect is not None else ()
    return trace_view(
        case.trace,
        trace,
        figures=_figures(trace),
        claims=result.claims,
        observations=observations,
        grade=result,
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
    trace = _pick(files[item], wanted, ctx.project)
    return trace_view(
        item, trace, figures=_figures(trace), marks=suite_marks(ctx.project, contract, trace)
    )


def suite_marks(project: Project, contract: Touchpoint, trace: Trace) -> dict[int, list[FrameMark]]:
    """What the touchpoint's guard or contract suite says of the run, at the frames it concerns.

    A guard suite replays the guard (each guarded call allowed or blocked, with the unsourced
    figures); a contract suite runs the grounding-contract validator (each failure at its
    frame, or at the last frame when it concerns the whole run). Other suites mark nothing.

    Raises:
        TracegradeError: The suite's policy or rules file cannot be read.
    """
    marks: dict[int, list[FrameMark]] = {}
    if contract.suite_kind == "guard" and contract.suite is not None:
        for call in replay(trace, load_policy(project.resolve(contract.suite))):
            decision = call.decision
            if decision.allowed:
                text = f"guard allowed {decision.tool} ({decision.checked} figures checked)"
                marks.setdefault(call.frame, []).append(FrameMark(kind="guard-allow", text=text))
            else:
                figures = ", ".join(value.figure.raw for value in decision.unsourced)
                text = f"guard blocked {decision.tool}: unsourced {figures}"
                marks.setdefault(call.frame, []).append(FrameMark(kind="guard-block", text=text))
    elif contract.suite_kind == "contract":
        rules = (
            load_contract_rules(project.resolve(contract.suite))
            if contract.suite is not None
            else ContractRules()
        )
        for failure in validate_grounding_contract(trace, rules):
            at = failure.frame if failure.frame is not None else len(trace.frames) - 1
            marks.setdefault(at, []).append(
                FrameMark(kind="contract", text=f"{failure.rule}: {failure.detail}")
            )
    return marks


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
