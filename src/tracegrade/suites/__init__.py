"""Suites as data (TOML): questions, cases and predictions, and grading them (edge: files).

With no question file, :func:`find_trace_files` and :func:`grade_runs` grade every
run of many trace files by the claims of its answer (``tracegrade grade DIR``).

Those two and their types are imported on first use: a suite's grade (``tracegrade grade
SUITE``) must not pay at start-up for the classes of the bulk grading path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade import _lazy
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

if TYPE_CHECKING:
    from tracegrade.suites._bulk import GradedRun, grade_file_runs, grade_runs
    from tracegrade.suites._discover import TRACE_SUFFIXES, FoundTraces, find_trace_files

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

_HOMES = {
    "GradedRun": "tracegrade.suites._bulk",
    "grade_file_runs": "tracegrade.suites._bulk",
    "grade_runs": "tracegrade.suites._bulk",
    "TRACE_SUFFIXES": "tracegrade.suites._discover",
    "FoundTraces": "tracegrade.suites._discover",
    "find_trace_files": "tracegrade.suites._discover",
}


__getattr__, __dir__ = _lazy.lazy_names(__name__, _HOMES, globals())
