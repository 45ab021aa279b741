"""Rendering runs graded with no question: order of the claims, counts, TSV and the tally."""

from __future__ import annotations

from typing import Any

from tracegrade.report import RUN_TSV_COLUMNS, RunTally, run_json, run_text_block, run_tsv_row
from tracegrade.suites import GradedRun
from tracegrade.verdicts import Grade


def _claim(kind: str, raw: str, start: int, support: str, **extra: Any) -> dict[str, Any]:
    evidence = ["f2.1"] if support != "unsupported" else []
    return {"kind": kind, "raw": raw, "text": raw.lower(), "start": start,
            "end": start + len(raw), "support": support, "evidence": evidence, **extra}  # fmt: skip


CLAIMS = [
    _claim("path", "src/a.py", 0, "read"),
    _claim("figure", "$120", 12, "unsupported"),
    _claim("path", "src/b.py", 20, "named-only"),
    _claim("figure", "45 days", 30, "unsupported", hedged=True),
    _claim("url", "https://x.test/", 40, "unsupported", given=True),
    _claim("figure", "2024", 60, "read"),
]


def _run(claims: list[dict[str, Any]]) -> GradedRun:
    grade = Grade.model_validate(
        {"trace_id": "t", "question_id": "-", "tools": ["read_file"], "observations": 3,
         "recorded_outcome": None, "answer": "ungraded", "claims": [], "unread": [],
         "provenance": "ungradable", "truth": [], "copies": [], "final_answer": "x",
         "extracted": claims}
    )  # fmt: skip
    return GradedRun("runs.jsonl#t", "runs.jsonl", "t", "openai-chat", grade)


def test_the_block_lists_unsupported_first_then_named_only_read_and_given():
    lines = run_text_block(_run(CLAIMS)).split("\n")

    assert lines[0] == "runs.jsonl#t"
    assert lines[1] == (
        "  claims       3 figure (2 unsupported, 1 read), 2 path (1 named-only, 1 read),"
        " 1 url (1 given)"
    )
    assert lines[2] == "  grounded     40% (2 of 5 claims read)"
    assert lines[3:] == [
        '  unsupported  figure 12-16 "$120"',
        '  unsupported  figure 30-37 "45 days" (hedged)',
        '  named-only   path 20-28 "src/b.py"',
        '  read         path 0-8 "src/a.py"',
        '  read         figure 60-64 "2024"',
        '  given        url 40-55 "https://x.test/"',
    ]


def test_a_run_without_claims_says_so():
    lines = run_text_block(_run([])).split("\n")

    assert lines[1:] == ["  claims       (none found)", "  grounded     - (no claims to check)"]


def test_tsv_row_counts_each_support_once():
    row = dict(zip(RUN_TSV_COLUMNS, run_tsv_row(_run(CLAIMS)).split("\t"), strict=True))

    assert row == {
        "run": "runs.jsonl#t", "format": "openai-chat", "claims": "6", "read": "2",
        "named_only": "1", "unsupported": "2", "given": "1", "grounded_share": "0.4000",
        "unsupported_claims": "figure:$120; figure:45 days",
    }  # fmt: skip


def test_json_keeps_answer_order_and_lists_the_unsupported_apart():
    entry = run_json(_run(CLAIMS))

    assert [c["raw"] for c in entry["claims"]] == [c["raw"] for c in CLAIMS]
    assert [c["raw"] for c in entry["unsupported"]] == ["$120", "45 days"]
    assert entry["claims_by_kind"] == {
        "figure": {"unsupported": 2, "read": 1},
        "path": {"named-only": 1, "read": 1},
        "url": {"given": 1},
    }
    assert entry["grounded_share"] == 0.4


def test_the_tally_adds_runs_and_counts_errors_apart():
    tally = RunTally(files=3)
    tally.add(_run(CLAIMS), failing=True)
    tally.add(_run([]))
    tally.add(GradedRun("bad.json", "bad.json", error="bad.json: not valid JSON"))

    assert tally.summary_json() == {
        "files": 3, "runs": 2, "errors": 1,
        "claims": {"unsupported": 2, "named-only": 1, "read": 2, "given": 1},
        "grounded_share": 0.4, "runs_with_unsupported": 1, "failing": 1,
    }  # fmt: skip
    assert tally.summary_text().endswith("; 1 could not be read or graded.")
