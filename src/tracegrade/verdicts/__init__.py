"""Verdicts: grade a run (answer grade, unread claims, provenance) and check predictions (pure)."""

from tracegrade.verdicts._grade import (
    check,
    grade,
    grade_answer,
    grade_figures,
    grade_observed,
    grade_provenance,
)
from tracegrade.verdicts._model import (
    AnswerGrade,
    Expectation,
    FigureSupport,
    Grade,
    GradedClaim,
    GradedFigure,
    Provenance,
    Sighting,
    TextResult,
)

__all__ = [
    "AnswerGrade",
    "Expectation",
    "FigureSupport",
    "Grade",
    "GradedClaim",
    "GradedFigure",
    "Provenance",
    "Sighting",
    "TextResult",
    "check",
    "grade",
    "grade_answer",
    "grade_figures",
    "grade_observed",
    "grade_provenance",
]
