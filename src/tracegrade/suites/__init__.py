"""Suites as data (TOML): questions, cases and predictions, and grading them (edge: files).

With no question file, :func:`find_trace_files` and :func:`grade_runs` grade every
run of many trace files by the claims of its answer (``tracegrade grade DIR``).
"""

from tracegrade.suites._bulk import GradedRun, grade_file_runs, grade_runs
from tracegrade.suites._discover import TRACE_SUFFIXES, FoundTraces, find_trace_files
from tracegrade.suites._load import (
    LoadedSuite,
    grade_trace_file,
    grade_trace_runs,
    load_decoders,
    load_questions,
    load_suite,
    run_suite,
)
from tracegrade.suites._model import Case, CaseResult, Suite, SuiteSettings

__all__ = [
    "TRACE_SUFFIXES",
    "Case",
    "CaseResult",
    "FoundTraces",
    "GradedRun",
    "LoadedSuite",
    "Suite",
    "SuiteSettings",
    "find_trace_files",
    "grade_file_runs",
    "grade_runs",
    "grade_trace_file",
    "grade_trace_runs",
    "load_decoders",
    "load_questions",
    "load_suite",
    "run_suite",
]
