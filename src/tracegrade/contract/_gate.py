"""The agent-quality gate: named cases, repeated, checked against the grounding contract (pure).

A case is ``grounded`` (the answer must state the expected facts and cite the documents they
come from) or ``bait`` (the asked-for figure is in no document; the answer must say so and
state no figure no tool showed). Each run's trace is checked by the contract validator and by
the case's expectations; a failed run gets one diagnosis read from its trace. A gate result
aggregates the runs, the spread across repeats and, given an earlier result, the delta.

The functions here do no I/O: :func:`run_gate` takes the callable that runs an agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from tracegrade.contract._artifacts import DocumentRead, Touch
from tracegrade.contract._validate import collect_artifacts, validate_grounding_contract
from tracegrade.figures import unsourced_figures
from tracegrade.traces import ToolCallFrame, ToolResultFrame, Trace, UserFrame

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "GATE_SCHEMA_VERSION",
    "CaseKind",
    "CaseResult",
    "ContractFinding",
    "Diagnosis",
    "DiagnosisKind",
    "GateCase",
    "GateDelta",
    "GateResult",
    "GateRun",
    "RunResult",
    "check_run",
    "compare_gate",
    "render_gate",
    "run_gate",
    "summarise_gate",
]

GATE_SCHEMA_VERSION = 1
CaseKind = Literal["grounded", "bait"]
DiagnosisKind = Literal[
    "missing-read-provenance",
    "wrong-document-retrieved",
    "genuinely-absent",
    "wrong-tool-routing",
    "varies-across-repeats",
    "artifact-shown-to-model",
]
_FROZEN = ConfigDict(frozen=True, extra="forbid")
_PROVENANCE_RULES = frozenset(
    {
        "cited-source-unbacked",
        "search-without-ids",
        "ambiguous-title",
        "incomplete-deep-read",
        "whole-document-claim-unread",
        "claim-not-served",
    }
)


class ContractFinding(Protocol):
    """What the gate reads of a contract validator's failure."""

    @property
    def rule(self) -> str:
        """The rule that failed."""

    @property
    def frame(self) -> int | None:
        """The frame it is about."""

    @property
    def detail(self) -> str:
        """What is wrong."""


@dataclass(frozen=True, slots=True)
class GateCase:
    """One named case of the gate.

    Attributes:
        name: The case's name (unique in a suite).
        kind: ``grounded`` or ``bait``.
        question: What the user asks.
        sources: Grounded: document keys the answer must cite, each as ``[key]``; they must
            have been read. Bait: documents the search is expected to return (may be empty).
        facts: Phrases the answer must contain (case-insensitive).
        tools: Tools that must be called, in this order (others may come between).
        denied: Tools whose call the figure guard must have blocked at least once.
        absent_phrase: What a bait answer says when the figure is not there.
    """

    name: str
    kind: CaseKind
    question: str
    sources: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    absent_phrase: str = "not in retrieved documents"


class Diagnosis(BaseModel):
    """Why a case failed, read from its trace.

    Attributes:
        kind: The cause.
        detail: One sentence naming the frame, tool, document or figure.
        frame: The frame it is about, when there is one.
        stage: For ``wrong-document-retrieved``: the retrieval stage where the expected
            document dropped out (or the first stage, when it never was a candidate).
    """

    model_config = _FROZEN
    kind: DiagnosisKind
    detail: str
    frame: int | None = None
    stage: str | None = None


class RunResult(BaseModel):
    """One run of one case."""

    model_config = _FROZEN
    case: str
    repeat: int
    passed: bool
    problems: tuple[str, ...]
    diagnosis: Diagnosis | None
    answer: str
    tool_path: tuple[str, ...]


class CaseResult(BaseModel):
    """A case over all its repeats: it passes when every repeat passed."""

    model_config = _FROZEN
    name: str
    kind: CaseKind
    runs: tuple[RunResult, ...]
    diagnosis: Diagnosis | None

    @property
    def passed(self) -> bool:
        """Every repeat passed."""
        return all(run.passed for run in self.runs)

    @property
    def pass_rate(self) -> float:
        """The share of repeats that passed."""
        return sum(run.passed for run in self.runs) / len(self.runs) if self.runs else 0.0

    @property
    def distinct_answers(self) -> int:
        """How many different final answers the repeats gave."""
        return len({run.answer for run in self.runs})


class GateResult(BaseModel):
    """A whole gate run, as stored for a later comparison (JSON)."""

    model_config = _FROZEN
    schema_version: Literal[1] = 1
    repeats: int
    cases: tuple[CaseResult, ...]

    @property
    def passed(self) -> bool:
        """Every case passed on every repeat."""
        return all(case.passed for case in self.cases)

    @property
    def rate(self) -> float:
        """The share of all runs that passed."""
        runs = [run for case in self.cases for run in case.runs]
        return sum(run.passed for run in runs) / len(runs) if runs else 0.0

    @property
    def repeat_rates(self) -> tuple[float, ...]:
        """The pass rate of each repeat over all cases."""
        rates = []
        for repeat in range(self.repeats):
            runs = [run for case in self.cases for run in case.runs if run.repeat == repeat]
            rates.append(sum(run.passed for run in runs) / len(runs) if runs else 0.0)
        return tuple(rates)

    @property
    def spread(self) -> float:
        """Highest minus lowest repeat rate: 0 when every repeat scored the same."""
        rates = self.repeat_rates
        return max(rates) - min(rates) if rates else 0.0


class GateDelta(BaseModel):
    """How a gate result moved against an earlier one."""

    model_config = _FROZEN
    rate: float
    newly_failing: tuple[str, ...]
    newly_passing: tuple[str, ...]
    new_cases: tuple[str, ...]
    dropped_cases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GateRun:
    """What running a case once gives: the trace and whether a model saw an artifact."""

    trace: Trace
    artifacts_shown: int = 0


# -- one run ------------------------------------------------------------------------------


def _artifacts(trace: Trace) -> list[tuple[int, Touch | DocumentRead]]:
    return [(index, artifact) for index, _, artifact in collect_artifacts(trace)]


def _denied(trace: Trace, tool: str) -> bool:
    calls = {f.id for f in trace.frames if isinstance(f, ToolCallFrame) and f.name == tool}
    return any(isinstance(f, ToolResultFrame) and f.id in calls and not f.ok for f in trace.frames)


def _in_order(expected: Sequence[str], path: Sequence[str]) -> bool:
    remaining = iter(path)
    return all(any(name == tool for name in remaining) for tool in expected)


def _sources_text(trace: Trace) -> list[str]:
    texts: list[str] = []
    for frame in trace.frames:
        if isinstance(frame, UserFrame):
            texts.append(frame.content)
        elif isinstance(frame, ToolResultFrame) and frame.ok and isinstance(frame.result, str):
            texts.append(frame.result)
    return texts


def _retrieval(trace: Trace, key: str) -> Diagnosis | None:
    """Why ``key`` never came back, naming the stage it dropped out at; ``None`` if it did."""
    artifacts = _artifacts(trace)
    if any(isinstance(a, DocumentRead) and a.resource_key == key for _, a in artifacts):
        return None
    touches = [(index, a) for index, a in artifacts if isinstance(a, Touch)]
    if any(key in touch.result_ids for _, touch in touches):
        return None
    for index, touch in touches:
        previous: str | None = None
        for stage in touch.stages:
            if key not in stage.result_ids:
                if previous is None:
                    detail = f"{key} was never a candidate: stage {stage.name!r} lacked it"
                else:
                    detail = f"{key} dropped out at stage {stage.name!r} (it was in {previous!r})"
                return Diagnosis(
                    kind="wrong-document-retrieved", detail=detail, frame=index, stage=stage.name
                )
            previous = stage.name
        if touch.stages:
            return Diagnosis(
                kind="wrong-document-retrieved",
                detail=f"{key} passed every stage but was cut from the results",
                frame=index,
                stage=touch.stages[-1].name,
            )
    if not artifacts:
        return Diagnosis(
            kind="missing-read-provenance",
            detail=f"no artifact shows that {key} was searched or read: the run's tool"
            " results carry no artifacts",
        )
    return Diagnosis(
        kind="wrong-document-retrieved",
        detail=f"{key} was neither returned by a search nor read",
        frame=touches[0][0] if touches else None,
    )


def check_run(  # noqa: PLR0912 - one branch per expectation, read top to bottom
    case: GateCase,
    trace: Trace,
    findings: Sequence[ContractFinding],
    *,
    repeat: int = 0,
    artifacts_shown: int = 0,
) -> RunResult:
    """Check one run of a case: the contract's findings, then the case's expectations.

    Args:
        case: The case.
        trace: The run's trace, with artifacts.
        findings: What the grounding-contract validator found in the trace.
        repeat: Which repeat this is (0-based).
        artifacts_shown: How many artifact-bearing messages reached the model.
    """
    answer = trace.final_answer
    lowered = answer.lower()
    problems: list[str] = []
    diagnosis: Diagnosis | None = None

    def found(kind: DiagnosisKind, detail: str, frame: int | None = None) -> None:
        nonlocal diagnosis
        problems.append(detail)
        if diagnosis is None:
            diagnosis = Diagnosis(kind=kind, detail=detail, frame=frame)

    if artifacts_shown:
        found(
            "artifact-shown-to-model",
            f"{artifacts_shown} tool message(s) reached the model with their artifact",
        )
    if not _in_order(case.tools, trace.tool_path):
        found(
            "wrong-tool-routing",
            f"expected the tools {', '.join(case.tools)} in order;"
            f" ran {', '.join(trace.tool_path) or 'none'}",
        )
    for tool in case.denied:
        if not _denied(trace, tool):
            found("wrong-tool-routing", f"the guard should have blocked a {tool} call, and did not")
    for key in case.sources:
        miss = _retrieval(trace, key)
        if miss is not None:
            problems.append(miss.detail)
            diagnosis = diagnosis or miss
    for finding in findings:
        kind: DiagnosisKind = (
            "missing-read-provenance" if finding.rule in _PROVENANCE_RULES else "genuinely-absent"
        )
        where = f" (frame {finding.frame})" if finding.frame is not None else ""
        found(kind, f"{finding.rule}{where}: {finding.detail}", finding.frame)
    sources = _sources_text(trace)
    if case.kind == "grounded":
        for key in case.sources:
            if f"[{key}]" not in answer:
                found("missing-read-provenance", f"the answer does not cite [{key}]")
        for fact in case.facts:
            if fact.lower() not in lowered:
                served = any(fact.lower() in text.lower() for text in sources)
                found(
                    "missing-read-provenance" if served else "genuinely-absent",
                    f"the answer does not state {fact!r}"
                    + ("" if served else "; no tool result holds it"),
                )
        if case.absent_phrase.lower() in lowered:
            found(
                "wrong-tool-routing",
                f"the answer says {case.absent_phrase!r} for a figure the documents hold",
            )
    else:
        if case.absent_phrase.lower() not in lowered:
            found(
                "genuinely-absent",
                "the asked-for figure is in no document, and the answer does not say"
                f" {case.absent_phrase!r}",
            )
        invented = unsourced_figures(answer, sources)
        if invented:
            figures = ", ".join(figure.raw for figure in invented)
            found(
                "genuinely-absent",
                f"the answer states {figures}, which no tool result or the user gave",
            )
    return RunResult(
        case=case.name,
        repeat=repeat,
        passed=not problems,
        problems=tuple(problems),
        diagnosis=diagnosis,
        answer=answer,
        tool_path=trace.tool_path,
    )


# -- many runs ----------------------------------------------------------------------------


def _case_result(case: GateCase, runs: Sequence[RunResult]) -> CaseResult:
    failed = [run for run in runs if not run.passed]
    diagnosis: Diagnosis | None = None
    if failed and len(failed) < len(runs):
        numbers = ", ".join(str(run.repeat + 1) for run in failed)
        diagnosis = Diagnosis(
            kind="varies-across-repeats",
            detail=f"failed on repeat(s) {numbers} of {len(runs)}: {failed[0].problems[0]}",
        )
    elif failed:
        diagnosis = failed[0].diagnosis
    return CaseResult(name=case.name, kind=case.kind, runs=tuple(runs), diagnosis=diagnosis)


def summarise_gate(
    cases: Sequence[GateCase], runs: Sequence[RunResult], repeats: int
) -> GateResult:
    """Group run results by case into a gate result (cases in the given order)."""
    by_case = {case.name: [run for run in runs if run.case == case.name] for case in cases}
    return GateResult(
        repeats=repeats,
        cases=tuple(_case_result(case, by_case[case.name]) for case in cases),
    )


def run_gate(
    cases: Sequence[GateCase],
    run: Callable[[GateCase, int], GateRun],
    *,
    repeats: int = 3,
    validate: Callable[[Trace], Sequence[ContractFinding]] = validate_grounding_contract,
) -> GateResult:
    """Run every case ``repeats`` times and check each run.

    Args:
        cases: The cases (names must be unique).
        run: Runs the agent on a case for one repeat and returns its trace.
        repeats: How many times to run each case.
        validate: The grounding-contract validator (its rules are never relaxed per case).
    """
    if repeats < 1:
        msg = f"repeats must be at least 1, got {repeats}"
        raise ValueError(msg)
    names = [case.name for case in cases]
    if len(set(names)) != len(names):
        msg = "case names must be unique"
        raise ValueError(msg)
    results = []
    for case in cases:
        for repeat in range(repeats):
            outcome = run(case, repeat)
            results.append(
                check_run(
                    case,
                    outcome.trace,
                    validate(outcome.trace),
                    repeat=repeat,
                    artifacts_shown=outcome.artifacts_shown,
                )
            )
    return summarise_gate(cases, results, repeats)


def compare_gate(current: GateResult, baseline: GateResult) -> GateDelta:
    """The delta of ``current`` against an earlier result."""
    before = {case.name: case.passed for case in baseline.cases}
    after = {case.name: case.passed for case in current.cases}
    return GateDelta(
        rate=current.rate - baseline.rate,
        newly_failing=tuple(n for n, ok in after.items() if not ok and before.get(n) is True),
        newly_passing=tuple(n for n, ok in after.items() if ok and before.get(n) is False),
        new_cases=tuple(n for n in after if n not in before),
        dropped_cases=tuple(n for n in before if n not in after),
    )


def render_gate(result: GateResult, delta: GateDelta | None = None) -> str:
    """The gate's text report: a line per case, a diagnosis per failure, the totals."""
    lines = []
    width = max((len(case.name) for case in result.cases), default=4)
    for case in result.cases:
        verdict = "PASS" if case.passed else "FAIL"
        passed = sum(run.passed for run in case.runs)
        lines.append(
            f"{verdict}  {case.name:<{width}}  {case.kind:<8}  {passed}/{len(case.runs)} repeats"
            f"  {case.distinct_answers} distinct answer(s)"
        )
        if case.diagnosis is not None:
            stage = f" [stage {case.diagnosis.stage}]" if case.diagnosis.stage else ""
            lines.append(f"      {case.diagnosis.kind}{stage}: {case.diagnosis.detail}")
    failed = sum(not case.passed for case in result.cases)
    rates = ", ".join(f"{rate:.0%}" for rate in result.repeat_rates)
    lines.append(
        f"{len(result.cases) - failed} of {len(result.cases)} case(s) passed;"
        f" run pass rate {result.rate:.1%} over {result.repeats} repeat(s)"
        f" (per repeat: {rates}; spread {result.spread:.1%})"
    )
    if delta is not None:
        moved = [f"rate {delta.rate:+.1%} against the baseline"]
        for label, names in (
            ("newly failing", delta.newly_failing),
            ("newly passing", delta.newly_passing),
            ("new", delta.new_cases),
            ("dropped", delta.dropped_cases),
        ):
            if names:
                moved.append(f"{label}: {', '.join(names)}")
        lines.append("; ".join(moved))
    return "\n".join(lines)
