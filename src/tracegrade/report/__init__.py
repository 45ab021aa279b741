"""Report: graded cases, and runs graded with no question file, as text, TSV or JSON (pure)."""

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
    "TSV_COLUMNS",
    "RunTally",
    "case_json",
    "mismatch_summary",
    "report_json",
    "run_json",
    "run_text_block",
    "run_tsv_row",
    "success_summary",
    "text_block",
    "tsv_row",
]
