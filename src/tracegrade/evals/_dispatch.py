"""Each suite kind as work units: what a unit is, and how one unit runs (edge: files, commands).

A suite is prepared once, before the run starts, so bad input (a suite, a policy, a trace, a
``call`` that does not import) stops the run before anything is written. A unit is one
case of a grade suite, one trace file of a guard or contract suite, or one repeat of a
gate, callable or command suite (those report their cases only when they run).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tracegrade._extras import missing_extra
from tracegrade.contract import (
    ContractRules,
    GateResult,
    load_contract_rules,
    validate_grounding_contract,
)
from tracegrade.errors import InfrastructureError, ProjectError, SuiteError
from tracegrade.evals._outcomes import (
    CaseOutcome,
    contract_outcomes,
    gate_outcomes,
    parse_command_output,
    replay_outcomes,
    suite_outcomes,
)
from tracegrade.guard import load_policy, replay
from tracegrade.suites import LoadedSuite, load_suite, run_suite
from tracegrade.traces import read_traces

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from tracegrade.evals._contract import OutputFormat
    from tracegrade.evals._load import Project
    from tracegrade.evals._registry import SuiteFunction, TouchpointEntry
    from tracegrade.guard import GuardPolicy
    from tracegrade.redact import Redactor
    from tracegrade.traces import Trace

__all__ = [
    "COMMAND_SUITE_VARIABLE",
    "INFRA_EXIT_CODES",
    "PreparedSuite",
    "WorkUnit",
    "prepare_suite",
]

COMMAND_SUITE_VARIABLE = "TRACEGRADE_COMMAND_SUITE"
"""Set to ``1`` in a ``command`` suite's environment: the run that started the command
stores the cases it reports, so tracegrade's pytest plugin does not store them again."""

INFRA_EXIT_CODES = frozenset({3, 75})
"""Exit codes of a ``command`` suite that mean an infrastructure failure when it wrote no
report: tracegrade's own 3, and 75 (``EX_TEMPFAIL``: a temporary failure, try again)."""


@dataclass(frozen=True, slots=True, order=True)
class WorkUnit:
    """One piece of a run that produces case outcomes.

    Attributes:
        touchpoint: The touchpoint id.
        repeat: The repeat (from 0).
        item: The suite case (grade) or trace file (guard, contract); empty for suites that
            run whole (gate, callable, command).
    """

    touchpoint: str
    repeat: int
    item: str = ""

    @property
    def key(self) -> str:
        """A stable name, stored with each result so a resumed run knows finished units."""
        return f"{self.touchpoint}|{self.repeat}|{self.item}"

    @property
    def case(self) -> str:
        """The case a failure of the whole unit is recorded under."""
        return self.item or "(suite)"


class PreparedSuite(Protocol):
    """A touchpoint's suite, loaded and checked, ready to run unit by unit."""

    def items(self) -> tuple[str, ...]:
        """The unit items of one repeat (``("",)`` for a suite that runs whole)."""
        ...

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        """Run one unit and yield its outcomes as they are known."""
        ...


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _read_all(path: Path, redactor: Redactor) -> tuple[Trace, ...]:
    return tuple(read_traces(path, redactor=redactor))


@dataclass(frozen=True)
class _GradeSuite:
    path: Path
    loaded: LoadedSuite

    def items(self) -> tuple[str, ...]:
        return tuple(case.label for case in self.loaded.suite.cases if case.expect is not None)

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        suite = self.loaded.suite
        cases = tuple(case for case in suite.cases if case.label == item)
        one = LoadedSuite(self.path, suite.model_copy(update={"cases": cases}))
        yield from suite_outcomes(run_suite(one), repeat)


@dataclass(frozen=True)
class _TraceSuite:
    root: Path
    files: tuple[Path, ...]
    redactor: Redactor  # the project's [redact] patterns beside the packaged rules
    policy: GuardPolicy | None = None  # guard suites
    rules: ContractRules | None = None  # contract suites

    def items(self) -> tuple[str, ...]:
        return tuple(_relative(path, self.root) for path in self.files)

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        traces = _read_all(self.root / item, self.redactor)
        for trace in traces:
            name = item if len(traces) == 1 else f"{item}#{trace.id}"
            if self.policy is not None:
                yield from replay_outcomes(name, replay(trace, self.policy), repeat)
            else:
                failures = validate_grounding_contract(trace, self.rules or ContractRules())
                yield contract_outcomes(name, failures, repeat)


@dataclass(frozen=True)
class _FunctionSuite:
    function: SuiteFunction
    call: str

    def items(self) -> tuple[str, ...]:
        return ("",)

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        returned = self.function(repeat)
        outcomes: Iterable[object] = (
            gate_outcomes(returned) if isinstance(returned, GateResult) else returned
        )
        for outcome in outcomes:
            if not isinstance(outcome, CaseOutcome):
                msg = f"{self.call} returned {type(outcome).__name__}, not a CaseOutcome"
                raise TypeError(msg)
            yield outcome.model_copy(update={"repeat": repeat})


@dataclass(frozen=True)
class _CommandSuite:
    root: Path
    command: tuple[str, ...]
    output_format: OutputFormat
    output: str | None
    timeout: float | None = None

    def items(self) -> tuple[str, ...]:
        return ("",)

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        report = self.root / self.output if self.output else None
        if report is not None:
            report.unlink(missing_ok=True)  # never read a report an earlier run left
        shown = " ".join(self.command)
        # The command comes from the project's own tracegrade.toml, run without a shell.
        done = subprocess.run(  # noqa: S603
            self.command,
            cwd=self.root,
            # Tells tracegrade's pytest plugin that this run stores the cases it reports.
            env={**os.environ, COMMAND_SUITE_VARIABLE: "1"},
            capture_output=True,
            text=True,
            timeout=self.timeout,
            check=False,
        )
        try:
            text = done.stdout if report is None else report.read_text(encoding="utf-8")
            source = shown if report is None else str(report)
            yield from parse_command_output(text, self.output_format, source=source, repeat=repeat)
        except (OSError, SuiteError) as exc:
            last = (done.stderr.strip().splitlines() or [""])[-1]
            what = f"the command '{shown}' exited {done.returncode} without a readable report"
            if done.returncode in INFRA_EXIT_CODES:
                raise InfrastructureError(f"{what} ({last})") from exc
            raise SuiteError(f"{what}: {exc} ({last})", path=source) from exc


def _import_call(call: str, project: Project, touchpoint: str) -> SuiteFunction:
    """Import ``module:qualname``, with the project folder and the working folder importable."""
    return import_call(call, project.root, project.path, touchpoint)


def import_call(call: str, root: Path, project_file: Path, touchpoint: str) -> SuiteFunction:
    """Import ``module:qualname`` with ``root`` and the working folder importable.

    Raises:
        ProjectError: It does not import or is not a function (names ``project_file``).
    """
    module_name, _, qualname = call.partition(":")
    for folder in (str(Path.cwd()), str(root.resolve())):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        missing = (
            missing_extra(exc, f"touchpoint {touchpoint!r} ({call})")
            if isinstance(exc, ImportError)
            else None
        )
        if missing is not None:
            raise missing.in_file(str(project_file)) from exc
        raise ProjectError(
            f"cannot import {call} ({type(exc).__name__}: {exc})",
            fix="run from the folder that holds the module, or install it",
            path=str(project_file),
            touchpoint=repr(touchpoint),
            field="call",
        ) from exc
    if not callable(found):
        raise ProjectError(
            f"{call} is not a function",
            fix="point call at the suite function",
            path=str(project_file),
            touchpoint=repr(touchpoint),
            field="call",
        )
    function: SuiteFunction = found
    return function


def _check_command(command: Sequence[str], project: Project, touchpoint: str) -> None:
    program = command[0]
    if shutil.which(program) is None and not (project.root / program).is_file():
        raise ProjectError(
            f"the command {program!r} is not found",
            fix="install it or give its path, relative to the project file",
            path=str(project.path),
            touchpoint=repr(touchpoint),
            field="command",
        )


def prepare_suite(
    entry: TouchpointEntry, project: Project, *, command_timeout: float | None = None
) -> PreparedSuite:
    """Load and check a touchpoint's suite (its files, traces, policy or function).

    Raises:
        InputError: A suite, policy, rules file or trace is invalid, a ``call`` does not
            import, or a command is not found (exit 2, before anything is written).
    """
    touchpoint = entry.touchpoint
    kind = touchpoint.suite_kind
    if kind == "grade" and touchpoint.suite is not None:
        path = project.resolve(touchpoint.suite)
        return _GradeSuite(path, load_suite(path))
    if kind in {"guard", "contract"}:
        files = project.trace_files(touchpoint)
        redactor = project.redactor
        for path in files:
            _read_all(path, redactor)  # a trace that cannot be read is bad input: stop now
        if kind == "guard" and touchpoint.suite is not None:
            policy = load_policy(project.resolve(touchpoint.suite))
            return _TraceSuite(project.root, files, redactor, policy=policy)
        rules = (
            load_contract_rules(project.resolve(touchpoint.suite))
            if touchpoint.suite is not None
            else ContractRules()
        )
        return _TraceSuite(project.root, files, redactor, rules=rules)
    if kind in {"gate", "callable"}:
        call = touchpoint.call or entry.origin
        function = entry.function
        if function is None:
            function = _import_call(call, project, touchpoint.id)
        return _FunctionSuite(function, call)
    if kind == "command" and touchpoint.command is not None:
        _check_command(touchpoint.command, project, touchpoint.id)
        return _CommandSuite(
            project.root,
            touchpoint.command,
            touchpoint.output_format or "junit",
            touchpoint.output,
            command_timeout,
        )
    msg = f"touchpoint {touchpoint.id!r} of suite_kind {kind!r} has no suite"  # pragma: no cover
    raise ProjectError(msg)  # pragma: no cover - the contract requires the fields
