"""Suites as data: questions, and cases that pair a trace with a question and a prediction."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, model_validator

from tracegrade.claims import Question
from tracegrade.observations import DeclaredDecoder
from tracegrade.verdicts import Expectation, Grade

__all__ = ["Case", "CaseResult", "Suite", "SuiteSettings"]

_NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class Case(BaseModel):
    """One trace file (or every file a glob matches), graded against a question.

    Attributes:
        trace: Path of the trace file, relative to the suite's trace folder, or a glob
            (``traces/*.json``: one case per matched file). It is also the case's run name
            in reports (each matched file's path, for a glob).
        question: The id of the question to grade against; ``None`` with ``auto``: graded
            by the answer's own claims alone (:data:`~tracegrade.verdicts.NO_QUESTION`).
        auto: Also extract the answer's claims and grade each beside the question's facts.
        run: Which run of a file that holds several (tau-bench, tau2, Inspect logs): a run
            id, or ``*`` for every run, each reported as its own case ``path#id``. ``None``:
            the file must hold exactly one run.
        expect: The prediction; without one the case is graded but never mismatches.
        note: Why the expectation is what it is.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    trace: _NonEmpty
    question: _NonEmpty | None = None
    auto: StrictBool = False
    run: _NonEmpty | None = None
    expect: Expectation | None = None
    note: StrictStr = ""

    @model_validator(mode="after")
    def _question_or_auto(self) -> Case:
        if self.question is None and not self.auto:
            msg = (
                "names no question and does not set auto = true, so nothing would be"
                ' graded; add question = "ID", or auto = true to grade the answer\'s own claims'
            )
            raise ValueError(msg)
        return self

    @property
    def label(self) -> str:
        """The case as written: its trace (path or glob), and ``#run`` when it picks runs."""
        return self.trace if self.run is None else f"{self.trace}#{self.run}"

    @property
    def is_glob(self) -> bool:
        """Whether ``trace`` is a pattern (``*``, ``?`` or ``[``) rather than one file."""
        return any(char in self.trace for char in "*?[")


class SuiteSettings(BaseModel):
    """The optional ``[suite]`` table.

    Attributes:
        name: A name for reports.
        traces: Folder the case trace paths are relative to, itself relative to the suite
            file; defaults to the suite file's folder.
        strict: Treat a tool result no decoder recognises as an error (native traces always
            are strict unless this says false); by default results of other formats with no
            decoder are read as plain text, and reports say so.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: StrictStr = ""
    traces: StrictStr = "."
    strict: StrictBool | None = None


class Suite(BaseModel):
    """Questions and the cases graded against them.

    Attributes:
        suite: Settings from the ``[suite]`` table.
        questions: Every question, ids unique.
        cases: The cases, in order.
        decoders: ``[decoders.TOOL]`` tables: how this suite's tools' results become
            observations (see :class:`~tracegrade.observations.DeclaredDecoder`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    suite: SuiteSettings = SuiteSettings()
    questions: tuple[Question, ...] = ()
    cases: tuple[Case, ...] = ()
    decoders: dict[str, DeclaredDecoder] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _unique_question_ids(self) -> Suite:
        seen: set[str] = set()
        for question in self.questions:
            if question.id in seen:
                msg = f"question id {question.id!r} is defined twice; ids must be unique"
                raise ValueError(msg)
            seen.add(question.id)
        return self

    def question(self, question_id: str) -> Question | None:
        """The question with this id, or ``None``."""
        return next((q for q in self.questions if q.id == question_id), None)


class CaseResult(BaseModel):
    """A graded case.

    Attributes:
        run: The case's run name (its trace path as written in the suite).
        grade: What the grader concluded.
        expect: The prediction it was checked against, if any.
        mismatches: How the grade differs from the prediction; empty when it holds.
        case: The 1-based number of the suite case that graded it; ``None`` outside a suite.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    run: str
    grade: Grade
    expect: Expectation | None = None
    mismatches: tuple[str, ...] = ()
    case: int | None = None

    @property
    def matched(self) -> bool:
        """True when the grade holds its prediction (or there is none)."""
        return not self.mismatches
