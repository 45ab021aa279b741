"""Case outcomes: what every suite kind reduces to before its metric is taken (pure).

Each suite kind's own result becomes one :class:`CaseOutcome` per measured case:
trace-grader cases with a prediction, guarded write calls, traces checked against the
grounding contract, agent-gate runs, and the test cases an existing eval command reports
in JUnit XML or JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal
from xml.etree import ElementTree as ET

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from tracegrade.errors import SuiteError

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from tracegrade.contract import ContractFailure, GateResult
    from tracegrade.evals._contract import OutputFormat
    from tracegrade.guard import ReplayedCall
    from tracegrade.suites import CaseResult

__all__ = [
    "CaseOutcome",
    "Outcome",
    "contract_outcomes",
    "gate_outcomes",
    "parse_command_output",
    "replay_outcomes",
    "suite_outcomes",
]

Outcome = Literal["passed", "failed", "infra", "error"]
"""``infra``: a provider or infrastructure failure (never a quality failure, not measured);
``error``: the case itself broke (counted as not passed)."""

_PYTEST_OUTCOMES: dict[str, Outcome | None] = {
    "passed": "passed",
    "xfailed": "passed",  # an expected failure is what the test asked for
    "xpassed": "passed",  # pytest reports a strict xpass as "failed"
    "failed": "failed",
    "error": "error",
    "skipped": None,
}
_JSON_FIX = (
    'write {"cases": [{"id": ..., "passed": true}]} or pytest-json-report\'s'
    ' {"tests": [{"nodeid": ..., "outcome": ...}]}'
)


class CaseOutcome(BaseModel):
    """The outcome of one case in one repeat.

    Attributes:
        case: The case's name, unique within its suite.
        outcome: ``passed``, ``failed``, ``infra`` or ``error``.
        repeat: The repeat it came from (from 0).
        detail: Why it did not pass, in one line; empty when it passed.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    case: Annotated[StrictStr, Field(min_length=1)]
    outcome: Outcome
    repeat: Annotated[StrictInt, Field(ge=0)] = 0
    detail: StrictStr = ""


def suite_outcomes(results: Iterable[CaseResult], repeat: int = 0) -> tuple[CaseOutcome, ...]:
    """A trace-grader suite's outcomes: a case passes when its grade holds its prediction.

    Cases without a prediction are graded but not measured, so they are left out.
    """
    return tuple(
        CaseOutcome(
            case=result.run,
            outcome="passed" if result.matched else "failed",
            repeat=repeat,
            detail="; ".join(result.mismatches),
        )
        for result in results
        if result.expect is not None
    )


def replay_outcomes(
    trace: str, calls: Sequence[ReplayedCall], repeat: int = 0
) -> tuple[CaseOutcome, ...]:
    """A figure audit's outcomes for one trace: a write call passes when every figure is sourced.

    Args:
        trace: The trace's name (its path), prefixed to each case name.
        calls: What :func:`tracegrade.guard.replay` returned for it.
        repeat: The repeat.
    """
    return tuple(
        CaseOutcome(
            case=f"{trace}#frame{call.frame}",
            outcome="passed" if call.decision.allowed else "failed",
            repeat=repeat,
            detail=""
            if call.decision.allowed
            else f"{call.decision.tool}: unsourced "
            + ", ".join(value.figure.raw for value in call.decision.unsourced),
        )
        for call in calls
    )


def contract_outcomes(
    trace: str, failures: Sequence[ContractFailure], repeat: int = 0
) -> CaseOutcome:
    """A grounding-contract check's outcome for one trace: it passes with no failure."""
    return CaseOutcome(
        case=trace,
        outcome="failed" if failures else "passed",
        repeat=repeat,
        detail="; ".join(f"{failure.rule}: {failure.detail}" for failure in failures),
    )


def gate_outcomes(result: GateResult) -> tuple[CaseOutcome, ...]:
    """An agent gate's outcomes: one per case run, with its repeat."""
    return tuple(
        CaseOutcome(
            case=run.case,
            outcome="passed" if run.passed else "failed",
            repeat=run.repeat,
            detail=run.diagnosis.detail if run.diagnosis else "; ".join(run.problems),
        )
        for case in result.cases
        for run in case.runs
    )


def parse_command_output(
    text: str, output_format: OutputFormat, *, source: str = "<output>", repeat: int = 0
) -> tuple[CaseOutcome, ...]:
    """Read the cases an eval command reported.

    ``junit``: every ``<testcase>`` (named ``classname.name``) passes unless it holds a
    ``<failure>`` (failed) or ``<error>`` (error); skipped test cases are left out.
    ``json``: ``{"cases": [{"id", "passed"}]}`` (or ``"outcome"`` instead of ``"passed"``),
    or pytest-json-report's ``{"tests": [{"nodeid", "outcome"}]}`` (skipped left out,
    ``xfailed`` and ``xpassed`` pass).

    Args:
        text: The command's report.
        output_format: ``junit`` or ``json``.
        source: Where the text came from, for errors (a file, or the command).
        repeat: The repeat.

    Raises:
        SuiteError: The text is not a report of that format; names ``source``.
    """
    if output_format == "junit":
        return _junit(text, source, repeat)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SuiteError(f"not valid JSON ({exc})", fix=_JSON_FIX, path=source) from exc
    return _json(data, source, repeat)


def _junit(text: str, source: str, repeat: int) -> tuple[CaseOutcome, ...]:
    try:
        # The report comes from the project's own eval command, not from a third party.
        root = ET.fromstring(text)  # noqa: S314
    except ET.ParseError as exc:
        raise SuiteError(
            f"not valid JUnit XML ({exc})",
            fix="point the touchpoint at the command's JUnit XML report",
            path=source,
        ) from exc
    if root.tag not in {"testsuites", "testsuite"}:
        raise SuiteError(
            f"the root element is <{root.tag}>, not <testsuites> or <testsuite>",
            fix="point the touchpoint at the command's JUnit XML report",
            path=source,
        )
    outcomes = []
    for case in root.iter("testcase"):
        name = case.get("name") or "?"
        classname = case.get("classname")
        if case.find("skipped") is not None:
            continue
        failure = case.find("failure")
        error = case.find("error")
        broken = failure if failure is not None else error
        outcome: Outcome = (
            "failed" if failure is not None else "error" if error is not None else "passed"
        )
        detail = ""
        if broken is not None:
            lines = (broken.text or "").strip().splitlines()
            detail = broken.get("message") or (lines[0] if lines else broken.tag)
        outcomes.append(
            CaseOutcome(
                case=f"{classname}.{name}" if classname else name,
                outcome=outcome,
                repeat=repeat,
                detail=detail,
            )
        )
    return tuple(outcomes)


def _json(data: Any, source: str, repeat: int) -> tuple[CaseOutcome, ...]:  # noqa: ANN401 - any JSON
    if isinstance(data, dict) and isinstance(data.get("cases"), list):
        return tuple(
            _simple_case(item, number, source, repeat)
            for number, item in enumerate(data["cases"], 1)
        )
    if isinstance(data, dict) and isinstance(data.get("tests"), list):
        outcomes = []
        for number, item in enumerate(data["tests"], 1):
            nodeid = item.get("nodeid") if isinstance(item, dict) else None
            raw = item.get("outcome") if isinstance(item, dict) else None
            if not isinstance(nodeid, str) or raw not in _PYTEST_OUTCOMES:
                raise SuiteError(
                    f"tests[{number - 1}] needs a string 'nodeid' and an 'outcome' among"
                    f" {sorted(_PYTEST_OUTCOMES)}",
                    fix=_JSON_FIX,
                    path=source,
                )
            outcome = _PYTEST_OUTCOMES[raw]
            if outcome is not None:
                outcomes.append(CaseOutcome(case=nodeid, outcome=outcome, repeat=repeat))
        return tuple(outcomes)
    raise SuiteError("holds neither a 'cases' nor a 'tests' list", fix=_JSON_FIX, path=source)


def _simple_case(item: object, number: int, source: str, repeat: int) -> CaseOutcome:
    if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"]:
        detail = item.get("detail", "")
        detail = detail if isinstance(detail, str) else ""
        if isinstance(item.get("passed"), bool):
            outcome: Outcome = "passed" if item["passed"] else "failed"
            return CaseOutcome(case=item["id"], outcome=outcome, repeat=repeat, detail=detail)
        if item.get("outcome") in {"passed", "failed", "infra", "error"}:
            return CaseOutcome(
                case=item["id"], outcome=item["outcome"], repeat=repeat, detail=detail
            )
    raise SuiteError(
        f"cases[{number - 1}] needs a string 'id' and a boolean 'passed' (or an 'outcome':"
        " passed, failed, infra or error)",
        fix=_JSON_FIX,
        path=source,
    )
