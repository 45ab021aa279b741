"""Report: graded cases as text blocks, TSV rows or JSON (pure)."""

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

__all__ = [
    "REPORT_SCHEMA_VERSION",
    "TSV_COLUMNS",
    "case_json",
    "mismatch_summary",
    "report_json",
    "success_summary",
    "text_block",
    "tsv_row",
]
