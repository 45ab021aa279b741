"""Suites as data (TOML): questions, cases and predictions, and grading them (edge: files)."""

from tracegrade.suites._load import (
    LoadedSuite,
    grade_trace_file,
    load_decoders,
    load_questions,
    load_suite,
    run_suite,
)
from tracegrade.suites._model import Case, CaseResult, Suite, SuiteSettings

__all__ = [
    "Case",
    "CaseResult",
    "LoadedSuite",
    "Suite",
    "SuiteSettings",
    "grade_trace_file",
    "load_decoders",
    "load_questions",
    "load_suite",
    "run_suite",
]
