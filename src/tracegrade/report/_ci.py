"""What CI reports say of each graded case, run or touchpoint: one :class:`CiCase` each.

The JUnit and GitHub renderers (report/_junit.py, report/_github.py) write these, so the
three sources (suite cases, runs graded with no question file, a project run's touchpoints)
pass, fail or warn by one set of rules:

- a suite case fails when its grade no longer matches its prediction (the mismatches);
- a run graded with no question file is an error when it could not be read; it fails when
  ``--fail-on`` says its unsupported claims should fail it, and otherwise passes, with a
  warning when it has unsupported claims (listed either way);
- a touchpoint fails when it failed and its severity is ``block``; it is an error when only
  infrastructure failures measured it, skipped when nothing did, and a failed ``warn`` or
  ``info`` touchpoint passes with a warning or notice, as the exit code treats it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Literal

from tracegrade._text import collapse
from tracegrade.report._render import text_block
from tracegrade.report._runs import run_text_block

if TYPE_CHECKING:
    from tracegrade.evals import TouchpointReport
    from tracegrade.suites import CaseResult, GradedRun

__all__ = [
    "CiCase",
    "CiOutcome",
    "ci_case_of_result",
    "ci_case_of_run",
    "ci_case_of_touchpoint",
    "dotted",
]

CiOutcome = Literal["passed", "failed", "error", "skipped"]
"""``error``: it could not be graded or measured at all (JUnit's ``<error>``)."""


def dotted(path: str) -> str:
    """A file as a JUnit class name: ``examples/traces/a.json`` is ``examples.traces.a``.

    CI servers split a class name at its dots into package and class (Jenkins), so the
    file's suffix would read as its class; ``.`` and ``..`` parts are dropped.
    """
    pure = PurePosixPath(path.replace("\\", "/"))
    if not pure.name:
        return path
    parts = [part for part in pure.with_suffix("").parts if part not in {"/", ".", ".."}]
    return ".".join(parts) or path


@dataclass(frozen=True, slots=True)
class CiCase:
    """One test case of a CI report.

    Attributes:
        classname: What CI servers group cases by: the suite, trace or project file, dotted
            (:func:`dotted`).
        name: The case: its run name, or the touchpoint id.
        outcome: See :data:`CiOutcome`.
        title: A short heading for an annotation.
        message: Why it failed, errs, is skipped or warns: one line per reason.
        output: The case's full text block (JUnit ``system-out``).
        file: The file an annotation points at (as the input named it).
        line: The line in ``file`` (1-based); ``None`` for a whole file (a trace).
        time: Seconds spent on it, when measured.
        warns: A passing case worth an annotation: ``warning`` or ``notice``.
    """

    classname: str
    name: str
    outcome: CiOutcome
    title: str
    message: str = ""
    output: str = ""
    file: str | None = None
    line: int | None = None
    time: float | None = None
    warns: Literal["warning", "notice"] | None = None


def ci_case_of_result(
    result: CaseResult, *, suite: str, line: int | None = None, time: float | None = None
) -> CiCase:
    """A graded suite case (or a trace graded with ``--question-file``: ``suite`` is that file)."""
    failed = not result.matched
    return CiCase(
        classname=dotted(suite),
        name=result.run,
        outcome="failed" if failed else "passed",
        title=f"{result.run}: no longer matches its prediction" if failed else result.run,
        message="\n".join(result.mismatches),
        output=text_block(result),
        file=suite,
        line=line,
        time=time,
    )


def ci_case_of_run(run: GradedRun, *, failing: bool, time: float | None = None) -> CiCase:
    """A run graded with no question file; ``failing``: it broke the ``--fail-on`` rule."""
    if run.grade is None:
        return CiCase(
            classname=dotted(run.path),
            name=run.run,
            outcome="error",
            title=f"{run.run}: could not be graded",
            message=run.error or "",
            file=run.path,
            time=time,
        )
    unsupported = run.unsupported()
    claims = "\n".join(f'{claim.kind} "{collapse(claim.raw)}"' for claim in unsupported)
    title = f"{run.run}: {len(unsupported)} unsupported claim(s)"
    return CiCase(
        classname=dotted(run.path),
        name=run.run,
        outcome="failed" if failing else "passed",
        title=title if unsupported else run.run,
        message=claims,
        output=run_text_block(run),
        file=run.path,
        time=time,
        warns="warning" if unsupported and not failing else None,
    )


def ci_case_of_touchpoint(
    item: TouchpointReport, *, project: str, line: int | None = None
) -> CiCase:
    """A touchpoint of a project run, pointed at the project file (its table's line).

    As the exit code treats it: a failed ``block`` touchpoint fails; infra-only, or a failed
    ``infra`` touchpoint, is an error; unmeasured is skipped; a failed ``warn`` touchpoint
    or an unstable one passes with a warning, a failed ``info`` one with a notice.
    """
    verdict = item.verdict
    outcome: CiOutcome = "passed"
    warns: Literal["warning", "notice"] | None = None
    if verdict.status == "infra" or (verdict.failed and item.severity == "infra"):
        outcome = "error"
    elif verdict.failed and item.severity == "block":
        outcome = "failed"
    elif verdict.status == "unmeasured":
        outcome = "skipped"
    elif verdict.failed or verdict.unstable:
        warns = "notice" if item.severity == "info" else "warning"
    heading = {"failed": "failed", "error": "infrastructure", "skipped": "not measured"}
    noted = outcome != "passed" or warns is not None
    return CiCase(
        classname=dotted(project),
        name=item.touchpoint,
        outcome=outcome,
        title=f"{item.touchpoint}: {heading.get(outcome, verdict.status)}",
        message=verdict.sentence if noted else "",
        output=verdict.sentence,
        file=project,
        line=line,
        warns=warns,
    )
