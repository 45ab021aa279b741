"""Verdicts: grade a run (answer grade, unread claims, provenance) and check predictions (pure)."""

from tracegrade.verdicts._grade import (
    NO_QUESTION,
    asked_texts,
    check,
    grade,
    grade_answer,
    grade_extracted,
    grade_figures,
    grade_observed,
    grade_provenance,
    grade_turns,
)
from tracegrade.verdicts._model import (
    AnswerGrade,
    Expectation,
    FigureSupport,
    Grade,
    GradedAnswerClaim,
    GradedClaim,
    GradedFigure,
    Provenance,
    Sighting,
    TextResult,
)
from tracegrade.verdicts._native import compiled_grade, grade_native

__all__ = [
    "NO_QUESTION",
    "AnswerGrade",
    "Expectation",
    "FigureSupport",
    "Grade",
    "GradedAnswerClaim",
    "GradedClaim",
    "GradedFigure",
    "Provenance",
    "Sighting",
    "TextResult",
    "asked_texts",
    "check",
    "compiled_grade",
    "grade",
    "grade_answer",
    "grade_extracted",
    "grade_figures",
    "grade_native",
    "grade_observed",
    "grade_provenance",
    "grade_turns",
]
