"""Verdicts: grade a run (answer grade, unread claims, provenance) and check predictions (pure)."""

from tracegrade.verdicts._grade import (
    check,
    grade,
    grade_answer,
    grade_observed,
    grade_provenance,
)
from tracegrade.verdicts._model import (
    AnswerGrade,
    Expectation,
    Grade,
    GradedClaim,
    Provenance,
    Sighting,
)

__all__ = [
    "AnswerGrade",
    "Expectation",
    "Grade",
    "GradedClaim",
    "Provenance",
    "Sighting",
    "check",
    "grade",
    "grade_answer",
    "grade_observed",
    "grade_provenance",
]
