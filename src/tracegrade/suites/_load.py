"""Read suite and question files (TOML) and grade their cases (the suite edge: files)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracegrade._toml import read_toml
from tracegrade._validation import error_message, first_error
from tracegrade.errors import SuiteError, TracegradeError, UnknownQuestionError
from tracegrade.observations import declared_decoders
from tracegrade.suites._model import CaseResult, Suite
from tracegrade.traces import read_trace
from tracegrade.verdicts import check, grade

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pydantic_core import ErrorDetails

    from tracegrade.claims import Question
    from tracegrade.observations import Decoder

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
    for number, case in enumerate(suite.cases, start=1):
        if suite.question(case.question) is None:
            known = ", ".join(q.id for q in suite.questions) or "none"
            raise UnknownQuestionError(
                f"case {number} ({case.trace}) names question {case.question!r},"
                " which the suite does not define",
                fix=f"defined questions: {known}",
                path=str(file),
            )
    return LoadedSuite(file, suite)


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
    strict: bool | None = None,
    decoders: Sequence[Decoder] = (),
) -> CaseResult:
    """Read one trace file and grade it against a question, with no prediction.

    Args:
        path: The trace file; it must hold exactly one trace.
        question: The question to grade.
        run: The name the result is reported under; the path when ``None``.
        format_name: Use this trace reader instead of detecting the format.
        strict: See :func:`~tracegrade.observations.observe`.
        decoders: Declared decoders for this run's tools.

    Raises:
        TraceFormatError: The trace is invalid.
        UnreadableResultError: A tool result cannot be decoded (the error names the file).
    """
    name = str(path)
    trace = read_trace(path, format_name=format_name)
    try:
        graded = grade(trace, question, strict=strict, decoders=decoders)
    except TracegradeError as exc:
        exc.in_file(name)
        raise
    return CaseResult(run=run or name, grade=graded)


def run_suite(loaded: LoadedSuite, *, strict: bool | None = None) -> Iterator[CaseResult]:
    """Grade every case in order, reading one trace at a time.

    Yields:
        Each case's result as soon as it is graded.

    Raises:
        TracegradeError: The first invalid trace or unreadable result stops the run.
    """
    suite = loaded.suite
    for case in suite.cases:
        question = suite.question(case.question)
        if question is None:  # load_suite checked this; kept for suites built in code
            raise UnknownQuestionError(
                f"case {case.trace} names question {case.question!r}, which is not defined",
                fix="define the question in the suite",
                path=str(loaded.path),
            )
        result = grade_trace_file(
            loaded.trace_path(case.trace),
            question,
            run=case.trace,
            strict=loaded.suite.suite.strict if strict is None else strict,
            decoders=loaded.decoders,
        )
        if case.expect is not None:
            result = result.model_copy(
                update={"expect": case.expect, "mismatches": check(result.grade, case.expect)}
            )
        yield result
