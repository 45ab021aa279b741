"""Read suite and question files (TOML) and grade their cases (the suite edge: files)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracegrade._toml import array_table_lines, read_toml
from tracegrade._validation import error_message, first_error
from tracegrade.errors import SuiteError, TraceFormatError, TracegradeError, UnknownQuestionError
from tracegrade.observations import declared_decoders
from tracegrade.suites._model import CaseResult, Suite
from tracegrade.suites._native_files import core_may_grade, graded_by_core
from tracegrade.traces import read_trace, read_traces
from tracegrade.verdicts import NO_QUESTION, check, grade

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pydantic_core import ErrorDetails

    from tracegrade.claims import Question
    from tracegrade.observations import Decoder
    from tracegrade.suites._model import Case
    from tracegrade.traces import Trace
    from tracegrade.verdicts import Grade

__all__ = [
    "LoadedSuite",
    "grade_trace_file",
    "load_decoders",
    "load_questions",
    "load_suite",
    "run_suite",
]


class LoadedSuite:
    """A validated suite with the folder its trace paths are relative to."""

    __slots__ = ("decoders", "path", "suite", "traces_dir")

    def __init__(self, path: Path, suite: Suite) -> None:
        self.path = path
        self.suite = suite
        self.traces_dir = (path.parent / suite.suite.traces).resolve()
        self.decoders = declared_decoders(suite.decoders)
        """The suite's declared decoders, tried first for their tools."""

    def trace_path(self, trace: str) -> Path:
        """Where a case's trace file is."""
        return self.traces_dir / trace

    def case_files(self, case: Case) -> tuple[tuple[Path, str], ...]:
        """Each file a case grades, with its run name: the file itself, or a glob's matches.

        A glob's matches are the files it finds under the trace folder, sorted, each named
        by its path relative to that folder; a glob matching nothing gives none.
        """
        if not case.is_glob:
            return ((self.trace_path(case.trace), case.trace),)
        found = sorted(path for path in self.traces_dir.glob(case.trace) if path.is_file())
        return tuple((path, path.relative_to(self.traces_dir).as_posix()) for path in found)

    def case_lines(self) -> tuple[int, ...] | None:
        """The line of each case's ``[[cases]]`` header, in case order; ``None`` when unknown.

        Unknown when the file cannot be read again or its headers do not count the cases
        (cases written inline, or a header-like line inside a multi-line string).
        """
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        lines = tuple(line for line, _id in array_table_lines(text, "cases"))
        return lines if len(lines) == len(self.suite.cases) else None

    def case_named(self, label: str) -> Case | None:
        """The case written as ``label`` (see :attr:`Case.label`), or ``None``."""
        return next((case for case in self.suite.cases if case.label == label), None)


def _where(loc: tuple[int | str, ...], data: dict[str, Any]) -> str:
    """Name the table an error is in: 'case 3 (traces/x.json)', 'question 'model-name''."""
    if len(loc) >= 2 and loc[0] in {"cases", "questions"} and isinstance(loc[1], int):
        items = data.get(str(loc[0]))
        item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
        label = "case" if loc[0] == "cases" else "question"
        key = "trace" if loc[0] == "cases" else "id"
        name = item.get(key) if isinstance(item, dict) else None
        rest = ".".join(str(part) for part in loc[2:])
        where = f"{label} {loc[1] + 1}" + (f" ({name})" if isinstance(name, str) else "")
        return f"{where}, field {rest!r}" if rest else where
    return f"field {'.'.join(str(part) for part in loc)!r}" if loc else "file"


def _describe(error: ErrorDetails, data: dict[str, Any]) -> str:
    return f"{_where(error['loc'], data)}: {error_message(error)}"


def load_suite(path: str | Path) -> LoadedSuite:
    """Read and validate a suite file; every case must name a defined question.

    Raises:
        SuiteError: The file is unreadable, not TOML, or breaks the suite schema; the
            message names the file, the case or question, and the field.
        UnknownQuestionError: A case names a question the suite does not define.
    """
    file = Path(path)
    data = read_toml(file, SuiteError)
    try:
        suite = Suite.model_validate(data)
    except ValidationError as exc:
        raise SuiteError(
            _describe(first_error(exc), data),
            fix="see docs/suites.md for the suite format",
            path=str(file),
        ) from exc
    if not suite.cases:
        raise SuiteError(
            "the suite has no [[cases]], so it grades nothing",
            fix='add a [[cases]] table with trace = "FILE" and question = "ID" (or auto = true)',
            path=str(file),
        )
    loaded = LoadedSuite(file, suite)
    for number, case in enumerate(suite.cases, start=1):
        if case.question is not None and suite.question(case.question) is None:
            known = ", ".join(q.id for q in suite.questions) or "none"
            raise UnknownQuestionError(
                f"case {number} ({case.trace}) names question {case.question!r},"
                " which the suite does not define",
                fix=f"defined questions: {known}",
                path=str(file),
            )
        if case.is_glob and not loaded.case_files(case):
            raise SuiteError(
                f"case {number} ({case.trace}): the glob matches no file in {loaded.traces_dir}",
                fix="check the pattern and the [suite] traces folder it is relative to",
                path=str(file),
            )
    return loaded


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """Read the ``[[questions]]`` tables of a question file (or of a suite file).

    Raises:
        SuiteError: As :func:`load_suite`.
    """
    return _question_file(Path(path)).questions


def load_decoders(path: str | Path) -> tuple[Decoder, ...]:
    """Read the ``[decoders.TOOL]`` tables of a question or suite file.

    Raises:
        SuiteError: As :func:`load_suite`.
    """
    return declared_decoders(_question_file(Path(path)).decoders)


def _question_file(file: Path) -> Suite:
    data = read_toml(file, SuiteError)
    extra = sorted(set(data) - {"questions", "cases", "suite", "decoders"})
    if extra:
        raise SuiteError(
            f"unknown top-level keys {extra}",
            fix="a question file holds [[questions]] and [decoders.TOOL] tables (a suite file"
            " works too)",
            path=str(file),
        )
    try:
        return Suite.model_validate(
            {"questions": data.get("questions", []), "decoders": data.get("decoders", {})}
        )
    except ValidationError as exc:
        raise SuiteError(
            _describe(first_error(exc), data),
            fix="see docs/suites.md for the question format",
            path=str(file),
        ) from exc


def grade_trace_file(
    path: str | Path,
    question: Question,
    run: str | None = None,
    format_name: str | None = None,
    *,
    auto: bool = False,
    strict: bool | None = None,
    decoders: Sequence[Decoder] = (),
) -> CaseResult:
    """Read one trace file and grade it against a question, with no prediction.

    Args:
        path: The trace file; it must hold exactly one trace.
        question: The question to grade.
        run: The name the result is reported under; the path when ``None``.
        format_name: Use this trace reader instead of detecting the format.
        auto: Also extract the answer's claims (see :func:`~tracegrade.verdicts.grade`).
        strict: See :func:`~tracegrade.observations.observe`.
        decoders: Declared decoders for this run's tools.

    Raises:
        TraceFormatError: The trace is invalid.
        UnreadableResultError: A tool result cannot be decoded (the error names the file).
    """
    name = str(path)
    graded = None
    if core_may_grade(format_name, strict=strict, decoders=decoders):
        graded = graded_by_core(name, question, auto=auto)
    if graded is None:
        trace = read_trace(path, format_name=format_name)
        graded = _graded(trace, name, question, auto=auto, strict=strict, decoders=decoders)
    return CaseResult(run=run or name, grade=graded)


def grade_trace_runs(
    path: str | Path,
    question: Question,
    run: str | None = None,
    format_name: str | None = None,
    *,
    strict: bool | None = None,
    decoders: Sequence[Decoder] = (),
) -> list[CaseResult]:
    """Read a trace file and grade its runs against a question, with no prediction.

    A file of one run is reported under its path, a file of several under ``path#ID``.

    Args:
        path: The trace file, of one run or of several (tau-bench, tau2, Inspect, JSONL).
        question: The question to grade.
        run: Grade only the run with this id or 1-based position; ``None``: every run.
        format_name: Use this trace reader instead of detecting the format.
        strict: See :func:`~tracegrade.observations.observe`.
        decoders: Declared decoders for the runs' tools.

    Raises:
        TraceFormatError: The trace file is invalid, or holds no run ``run``.
        UnreadableResultError: A tool result cannot be decoded (the error names the file).
    """
    name = str(path)
    if run is None and core_may_grade(format_name, strict=strict, decoders=decoders):
        graded = graded_by_core(name, question, auto=False)
        if graded is not None:  # a native file holds one run
            return [CaseResult(run=name, grade=graded)]
    traces = list(read_traces(path, format_name=format_name))
    picked = [
        trace
        for number, trace in enumerate(traces, start=1)
        if run is None or run in {trace.id, str(number)}
    ]
    if not picked:
        raise TraceFormatError(
            f"the file holds no run {run!r}",
            fix=f"its runs: {_ids(traces)}; pass one of them to --run, or leave --run out",
            path=name,
        )
    results = []
    for trace in picked:
        label = name if len(traces) == 1 else f"{name}#{trace.id}"
        graded = _graded(trace, name, question, auto=False, strict=strict, decoders=decoders)
        results.append(CaseResult(run=label, grade=graded))
    return results


def _graded(
    trace: Trace,
    name: str,
    question: Question,
    *,
    auto: bool,
    strict: bool | None,
    decoders: Sequence[Decoder],
) -> Grade:
    try:
        return grade(trace, question, auto=auto, strict=strict, decoders=decoders)
    except TracegradeError as exc:
        exc.in_file(name)
        raise


def _case_grades(
    loaded: LoadedSuite,
    number: int,
    case: Case,
    question: Question,
    *,
    auto: bool,
    strict: bool | None,
) -> Iterator[tuple[str, Grade]]:
    """Each run a case grades, graded: ``(run name, grade)``, in file order.

    A native file of the one run the case grades goes to the compiled core first.
    """
    by_core = case.run is None and core_may_grade(None, strict=strict, decoders=loaded.decoders)
    for path, name in loaded.case_files(case):
        graded = graded_by_core(str(path), question, auto=auto) if by_core else None
        if graded is not None:
            yield name, graded
            continue
        for run_name, trace in _file_runs(loaded, number, case, path, name):
            yield (
                run_name,
                _graded(
                    trace, str(path), question, auto=auto, strict=strict, decoders=loaded.decoders
                ),
            )


def _file_runs(
    loaded: LoadedSuite, number: int, case: Case, path: Path, name: str
) -> Iterator[tuple[str, Trace]]:
    """Each run a case grades in one of its files: ``(run name, trace)``, in file order."""
    where = f"case {number} ({case.label})"
    traces = list(read_traces(path))
    if case.run is None:
        if len(traces) != 1:
            raise SuiteError(
                f"{where}: {name} holds {len(traces)} runs, and a case grades one",
                fix=f'pick one with run = "ID", or grade each with run = "*" ({_ids(traces)})',
                path=str(loaded.path),
            )
        yield name, traces[0]
    elif case.run == "*":
        for trace in traces:
            yield f"{name}#{trace.id}", trace
    else:
        chosen = [trace for trace in traces if trace.id == case.run]
        if not chosen:
            raise SuiteError(
                f"{where}: {name} holds no run {case.run!r}",
                fix=f'its runs: {_ids(traces)}; or run = "*" for every one',
                path=str(loaded.path),
            )
        yield f"{name}#{case.run}", chosen[0]


def _ids(traces: Sequence[Trace], shown: int = 10) -> str:
    ids = [trace.id for trace in traces]
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more if ids else "none"


def run_suite(loaded: LoadedSuite, *, strict: bool | None = None) -> Iterator[CaseResult]:
    """Grade every case in order, reading one trace file at a time.

    A glob case grades each matched file; a case with ``run = "*"`` each run of its file.

    Yields:
        Each run's result as soon as it is graded.

    Raises:
        SuiteError: A file holds several runs and the case names none, or not the one named.
        TracegradeError: The first invalid trace or unreadable result stops the run.
    """
    suite = loaded.suite
    strict = suite.suite.strict if strict is None else strict
    for number, case in enumerate(suite.cases, start=1):
        question = NO_QUESTION if case.question is None else suite.question(case.question)
        if question is None:  # load_suite checked this; kept for suites built in code
            raise UnknownQuestionError(
                f"case {case.trace} names question {case.question!r}, which is not defined",
                fix="define the question in the suite",
                path=str(loaded.path),
            )
        auto = case.auto or case.question is None
        for name, graded in _case_grades(loaded, number, case, question, auto=auto, strict=strict):
            result = CaseResult(run=name, grade=graded, case=number)
            if case.expect is not None:
                result = result.model_copy(
                    update={"expect": case.expect, "mismatches": check(graded, case.expect)}
                )
            yield result
