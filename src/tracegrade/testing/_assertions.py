"""Assertions for a test suite: is an agent run's answer grounded in what its tools returned?

Each takes a :class:`~tracegrade.traces.Trace` or a trace file in any format tracegrade reads,
grades it (:func:`~tracegrade.verdicts.grade`), and raises :class:`AssertionError` with a
multi-line message when the run fails: each failing claim with its span in the answer and what
the tools did show. On success each returns the grade, for further checks. Under tracegrade's
pytest plugin every grade is kept for ``--tracegrade-report``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.claims import Question
from tracegrade.errors import InputError
from tracegrade.observations import observe
from tracegrade.testing import _session
from tracegrade.testing._explain import explain_claims, explain_figures, explain_provenance
from tracegrade.traces import Trace, read_trace
from tracegrade.verdicts import grade_observed

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from tracegrade.claims import ClaimKind
    from tracegrade.observations import Observations
    from tracegrade.verdicts import Grade, Provenance

__all__ = [
    "assert_grounded",
    "assert_no_unsourced_figures",
    "assert_provenance",
    "load_question",
]

TraceSource = Trace | str | os.PathLike[str]
QuestionSource = Question | str | os.PathLike[str]


def _trace(source: TraceSource) -> Trace:
    if isinstance(source, Trace):
        return source
    return read_trace(Path(source))


def load_question(source: QuestionSource, question_id: str | None = None) -> Question:
    """A question as given, or read from a question (or suite) file by its id.

    Args:
        source: A :class:`~tracegrade.claims.Question`, or a TOML file of ``[[questions]]``.
        question_id: Which question of the file; may be left out when it holds one.

    Raises:
        SuiteError: The file is not a question file.
        InputError: The id is missing or unknown, or given with a Question.
    """
    if isinstance(source, Question):
        if question_id is not None and question_id != source.id:
            raise InputError(
                f"question_id {question_id!r} given with question {source.id!r}",
                fix="pass question_id only with a question file",
            )
        return source
    from tracegrade.suites import load_questions  # noqa: PLC0415 - only when a file is given

    path = Path(source)
    questions = load_questions(path)
    known = ", ".join(q.id for q in questions) or "none"
    if question_id is None:
        if len(questions) == 1:
            return questions[0]
        raise InputError(
            f"the file defines {len(questions)} questions", fix=f"pass question_id: {known}"
        ).in_file(str(path))
    for question in questions:
        if question.id == question_id:
            return question
    raise InputError(f"no question {question_id!r}", fix=f"defined: {known}").in_file(str(path))


def _graded(trace: Trace, question: Question | None, *, auto: bool) -> tuple[Grade, Observations]:
    observations = observe(trace)
    if question is None:
        from tracegrade.verdicts import NO_QUESTION  # noqa: PLC0415 - beside grade_observed

        return grade_observed(trace, NO_QUESTION, observations, auto=True), observations
    return grade_observed(trace, question, observations, auto=auto), observations


def _allowed(allow: Iterable[str]) -> set[str]:
    return {" ".join(text.split()).casefold() for text in allow}


def _blank_answer(trace: Trace, assertion: str) -> None:
    __tracebackhide__ = True
    if not trace.final_answer.strip():
        message = f"run {trace.id!r} has no final answer: {assertion} has nothing to check"
        _session.note(assertion, None, passed=False, trace_id=trace.id)
        raise AssertionError(message)


def assert_grounded(
    trace_or_path: TraceSource,
    *,
    question: QuestionSource | None = None,
    question_id: str | None = None,
    allow: Iterable[str] = (),
    kinds: Collection[ClaimKind] | None = None,
) -> Grade:
    """Fail unless every claim of the run's answer was read in a tool result.

    A claim the user gave never fails; an ``unsupported`` or ``named-only`` one does (a file
    only listed is not a file read).

    Args:
        trace_or_path: The run, or a trace file in any format tracegrade reads.
        question: A question (or a question file) whose facts are graded beside the claims.
        question_id: Which question of ``question``'s file.
        allow: Claims that may stay ungrounded, as written or normalised (case-insensitive).
        kinds: Only these claim kinds are checked (``figure``, ``path``, ...); default all.

    Returns:
        The grade, when every checked claim was read.

    Raises:
        AssertionError: Some claim was not read; the message names each, with its span in the
            answer and what the tools did show. Also when the run has no final answer.
    """
    __tracebackhide__ = True  # pytest shows the test line, not this function
    trace = _trace(trace_or_path)
    _blank_answer(trace, "assert_grounded")
    asked = None if question is None else load_question(question, question_id)
    result, observations = _graded(trace, asked, auto=True)
    allowed = _allowed(allow)
    failing = [
        claim
        for claim in result.extracted
        if claim.counted
        and claim.support != "read"
        and (kinds is None or claim.kind in kinds)
        and not {claim.raw.casefold(), claim.text.casefold()} & allowed
    ]
    _session.note("assert_grounded", result, passed=not failing, trace_id=trace.id)
    if failing:
        raise AssertionError(explain_claims(result, failing, observations, trace.final_answer))
    return result


def assert_no_unsourced_figures(trace_or_path: TraceSource, *, allow: Iterable[str] = ()) -> Grade:
    """Fail when a figure of the answer came from no tool result and no user message.

    Args:
        trace_or_path: The run, or a trace file in any format tracegrade reads.
        allow: Figures that may stay unsourced, as written (``$1,500``) or normalised
            (``1500``).

    Returns:
        The grade, when every figure was sourced.

    Raises:
        AssertionError: A figure is unsourced; the message names each with its span and the
            figures of its kind the tools did show. Also when the run has no final answer.
    """
    __tracebackhide__ = True  # pytest shows the test line, not this function
    trace = _trace(trace_or_path)
    _blank_answer(trace, "assert_no_unsourced_figures")
    result, observations = _graded(trace, None, auto=True)
    allowed = _allowed(allow)
    failing = [
        figure
        for figure in result.unsourced_figures
        if not {figure.raw.casefold(), figure.value.casefold()} & allowed
    ]
    _session.note("assert_no_unsourced_figures", result, passed=not failing, trace_id=trace.id)
    if failing:
        raise AssertionError(explain_figures(result, failing, observations, trace.final_answer))
    return result


def assert_provenance(
    trace_or_path: TraceSource,
    expected: Provenance,
    *,
    question: QuestionSource,
    question_id: str | None = None,
) -> Grade:
    """Fail unless the run's provenance verdict is ``expected`` (``grounded``, ...).

    Args:
        trace_or_path: The run, or a trace file in any format tracegrade reads.
        expected: ``grounded``, ``undecidable``, ``from-copy``, ``unevidenced`` or
            ``ungradable``.
        question: The question (or a question file) naming the true source and the tell.
        question_id: Which question of ``question``'s file.

    Returns:
        The grade, when the verdict is the expected one.

    Raises:
        AssertionError: Another verdict; the message gives the true source, the tell and
            where the tell was seen.
        InputError: ``expected`` is not a provenance verdict, or the question cannot be found.
    """
    __tracebackhide__ = True  # pytest shows the test line, not this function
    verdicts = ("grounded", "undecidable", "from-copy", "unevidenced", "ungradable")
    if expected not in verdicts:
        raise InputError(
            f"{expected!r} is not a provenance verdict", fix=f"use one of {', '.join(verdicts)}"
        )
    trace = _trace(trace_or_path)
    asked = load_question(question, question_id)
    result, _ = _graded(trace, asked, auto=False)
    passed = result.provenance == expected
    _session.note("assert_provenance", result, passed=passed, trace_id=trace.id)
    if not passed:
        raise AssertionError(explain_provenance(result, expected, asked.truth_file, asked.tell))
    return result
