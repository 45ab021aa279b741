"""Render graded cases as the text block, TSV row or JSON object of the grade report.

The text and TSV layouts are those of the reference grader's report, so its
published output can be compared column for column (docs/cli.md shows them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade._text import escape_controls

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.suites import CaseResult
    from tracegrade.verdicts import Sighting

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

TSV_COLUMNS = (
    "run",
    "tools_called",
    "observations",
    "recorded_outcome",
    "answer_grade",
    "unread_claims",
    "provenance",
    "ground_truth_sightings",
    "copy_sightings",
    "final_answer",
)

REPORT_SCHEMA_VERSION = 1


def _label(name: str, value: str) -> str:
    return f"  {name:<13}{value}"


def text_block(result: CaseResult) -> str:
    """The per-case block: tools, observations, answer, unread, provenance, mismatches."""
    grade = result.grade
    lines = [
        result.run,
        _label("tools", " > ".join(grade.tools) if grade.tools else "(none called)"),
        _label("observations", str(grade.observations)),
        _label("answer", f"{grade.answer} (recorded: {grade.recorded_outcome or 'unknown'})"),
        _label("unread", ", ".join(grade.unread) if grade.unread else "(none)"),
        _label(
            "provenance",
            f"{grade.provenance} ({len(grade.truth)} ground truth, {len(grade.copies)} copies)",
        ),
    ]
    if grade.as_text:  # never silent: these results were read as plain text
        tools = ", ".join(sorted({item.tool for item in grade.as_text}))
        lines.append(_label("as text", f"{len(grade.as_text)} result(s) with no decoder: {tools}"))
    unsourced = grade.unsourced_figures
    if unsourced:  # only then: a block without figures reads as the reference grader's
        lines.append(_label("figures", "unsourced: " + ", ".join(f.raw for f in unsourced)))
    lines.extend(_label("MISMATCH", mismatch) for mismatch in result.mismatches)
    return escape_controls("\n".join(lines))


def _tsv_cell(value: str) -> str:
    # A tab or line break inside a value would shift the columns.
    return escape_controls(value.replace("\t", " ").replace("\r", " ").replace("\n", " "))


def tsv_row(result: CaseResult) -> str:
    """One tab-separated row, in :data:`TSV_COLUMNS` order."""
    grade = result.grade
    cells = (
        result.run,
        " ".join(grade.tools) if grade.tools else "none",
        str(grade.observations),
        grade.recorded_outcome or "-",
        grade.answer,
        " ".join(grade.unread) if grade.unread else "-",
        grade.provenance,
        str(len(grade.truth)),
        str(len(grade.copies)),
        grade.final_answer,
    )
    return "\t".join(_tsv_cell(cell) for cell in cells)


def _sighting(sighting: Sighting) -> dict[str, Any]:
    return {
        "file": sighting.file,
        "line": sighting.line,
        "text": sighting.text,
        "observation": sighting.observation,
        "frame": sighting.frame,
    }


def case_json(result: CaseResult) -> dict[str, Any]:
    """One case as a JSON-ready object."""
    grade = result.grade
    return {
        "run": result.run,
        "trace_id": grade.trace_id,
        "question": grade.question_id,
        "tools": list(grade.tools),
        "observations": grade.observations,
        "recorded_outcome": grade.recorded_outcome,
        "answer": grade.answer,
        "claims": [
            {
                "id": claim.id,
                "text": claim.text,
                "in_answer": claim.in_answer,
                "support": claim.support,
                "evidence": list(claim.evidence),
            }
            for claim in grade.claims
        ],
        "unread": list(grade.unread),
        "provenance": grade.provenance,
        "truth": [_sighting(s) for s in grade.truth],
        "copies": [_sighting(s) for s in grade.copies],
        "final_answer": grade.final_answer,
        "figures": [
            {
                "raw": figure.raw,
                "value": figure.value,
                "kind": figure.kind,
                "start": figure.start,
                "end": figure.end,
                "support": figure.support,
                "evidence": list(figure.evidence),
            }
            for figure in grade.figures
        ],
        "as_text": [{"frame": item.frame, "tool": item.tool} for item in grade.as_text],
        "expect": result.expect.model_dump(exclude_none=True) if result.expect else None,
        "mismatches": list(result.mismatches),
    }


def report_json(results: Sequence[CaseResult]) -> dict[str, Any]:
    """The whole report: ``{"schema_version", "cases": [...], "summary": {...}}``."""
    mismatched = sum(1 for result in results if not result.matched)
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "cases": [case_json(result) for result in results],
        "summary": {
            "cases": len(results),
            "matched": len(results) - mismatched,
            "mismatched": mismatched,
        },
    }


def success_summary(results: Sequence[CaseResult]) -> str:
    """The closing line when every case holds its prediction."""
    return f"{len(results)} case(s) match."


def mismatch_summary(results: Sequence[CaseResult]) -> str:
    """The closing lines when some case does not: a count, then one line per mismatch."""
    failed = [result for result in results if not result.matched]
    lines = [f"{len(failed)} of {len(results)} case(s) no longer match their recorded verdict:"]
    lines.extend(
        f"  {result.run}: {mismatch}" for result in failed for mismatch in result.mismatches
    )
    return escape_controls("\n".join(lines))
