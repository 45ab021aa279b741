"""Report: graded cases, runs and touchpoints as text, TSV, JSON, JUnit XML or GitHub (pure)."""

from tracegrade.report._ci import (
    CiCase,
    CiOutcome,
    ci_case_of_result,
    ci_case_of_run,
    ci_case_of_touchpoint,
)
from tracegrade.report._github import SUMMARY_ROWS, github_annotations, github_summary
from tracegrade.report._junit import junit_xml
from tracegrade.report._render import (
    REPORT_SCHEMA_VERSION,
    TSV_COLUMNS,
    case_json,
    mismatch_summary,
    report_json,
    success_summary,
    text_block,
    tsv_row,
)
from tracegrade.report._runs import (
    RUN_TSV_COLUMNS,
    RUNS_SCHEMA_VERSION,
    RunTally,
    run_json,
    run_text_block,
    run_tsv_row,
)

__all__ = [
    "REPORT_SCHEMA_VERSION",
    "RUNS_SCHEMA_VERSION",
    "RUN_TSV_COLUMNS",
    "SUMMARY_ROWS",
    "TSV_COLUMNS",
    "CiCase",
    "CiOutcome",
    "RunTally",
    "case_json",
    "ci_case_of_result",
    "ci_case_of_run",
    "ci_case_of_touchpoint",
    "github_annotations",
    "github_summary",
    "junit_xml",
    "mismatch_summary",
    "report_json",
    "run_json",
    "run_text_block",
    "run_tsv_row",
    "success_summary",
    "text_block",
    "tsv_row",
]
