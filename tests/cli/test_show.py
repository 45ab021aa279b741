"""``tracegrade show`` and ``tracegrade convert``: the normalised trace, and native round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.runner import run_cli
from tracegrade.traces import Trace, read_trace, read_traces, validate_native_trace
from tracegrade.verdicts import GradedAnswerClaim, grade

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CHAT = FIXTURES / "readers" / "openai-chat" / "valid.json"
TAU = FIXTURES / "readers" / "tau-bench" / "valid.json"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "traces" / "read-source.json"


def test_show_prints_counts_tool_path_final_answer_and_frames(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "show", str(CHAT))

    lines = result.out.split("\n")
    assert result.code == 0
    assert lines[0] == f"{CHAT} (refund-check-1, openai-chat)"
    assert (
        lines[1] == "  frames       10: system 1, user 1, assistant 2, tool_call 3, tool_result 3"
    )
    assert lines[2] == "  tools        read_file > grep > list_files"
    assert lines[3] == "  final answer The refund window is 45 days (billing/config.py)."
    assert '     3  tool_call   read_file {"path":"billing/config.py"}  (message 2)' in lines


def test_show_json_is_the_trace_model(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "show", str(TAU), "--format", "json")
    data = json.loads(result.out)
    assert [Trace.model_validate(item) for item in data] == list(read_traces(TAU))


def _refund_run(tmp_path: Path, result: object) -> Path:
    """A native run: the user names $500, read_file returns ``result``, the answer three figures."""
    run = {
        "id": "refunds", "commit": "c", "model": "m", "task": "Are refunds over $500 allowed?",
        "outcome": "success", "tokens": [1, 2, 3, 4],
        "frames": [
            {"type": "user", "content": "Are refunds over $500 allowed?"},
            {"type": "tool_call", "id": "c1", "name": "read_file", "args": {"path": "r.md"}},
            {"type": "tool_result", "id": "c1", "ok": True, "result": result},
            {"type": "assistant", "content": "refunds over $500 wait 30 days, fee 2.5%."},
        ],
    }  # fmt: skip
    path = tmp_path / "refunds.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    return path


READ_FILE = {"ok": True, "file": "r.md", "lines": 1, "truncated": False, "content": "30 days\n"}


def test_show_claims_lists_each_claim_after_the_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    result = run_cli(capsys, "show", str(_refund_run(tmp_path, READ_FILE)), "--claims")

    assert result.code == 0
    lines = result.out.split("\n")
    at = lines.index("  claims       3: 2 read, 0 named-only, 1 unsupported; grounded share 50%")
    assert lines[at - 2].startswith("     3  assistant   refunds over $500")  # the last frame
    assert lines[at + 1 :] == [
        "         at  kind       support     evidence   claim",
        "      13-17  figure     read        f0         $500  (given)",  # the user's: not counted
        "      23-30  figure     read        f2         30 days",
        "      36-40  figure     unsupported -          2.5%",
        "",
    ]


def test_show_claims_json_holds_each_trace_with_its_extracted_claims(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = _refund_run(tmp_path, READ_FILE)
    result = run_cli(capsys, "show", str(path), "--claims", "--format", "json")

    (item,) = json.loads(result.out)
    assert Trace.model_validate(item["trace"]) == read_trace(path)
    claims = [GradedAnswerClaim.model_validate(claim) for claim in item["extracted"]]
    assert claims == list(grade(read_trace(path)).extracted)
    assert [(c.raw, c.support, c.given) for c in claims] == [
        ("$500", "read", True), ("30 days", "read", False), ("2.5%", "unsupported", False)
    ]  # fmt: skip
    assert item["grounded_share"] == 0.5


def test_show_without_claims_grades_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = _refund_run(tmp_path, {"unknown": "shape"})  # strict grading would refuse it

    shown = run_cli(capsys, "show", str(path))

    assert shown.code == 0
    assert "  claims  " not in shown.out


def test_show_claims_of_a_result_no_decoder_knows_is_refused_unless_lenient(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    path = _refund_run(tmp_path, {"unknown": "shape"})

    refused = run_cli(capsys, "show", str(path), "--claims")
    lenient = run_cli(capsys, "show", str(path), "--claims", "--lenient")

    assert (refused.code, refused.out) == (2, "")
    assert len(refused.err.strip().splitlines()) == 1
    assert f"{path} (trace refunds)" in refused.err
    assert "frame 2: tool 'read_file'" in refused.err
    assert lenient.code == 0
    assert "  claims       3: 1 read, 0 named-only, 2 unsupported; grounded share 0%" in lenient.out


def test_show_lenient_without_claims_is_a_usage_error(capsys: pytest.CaptureFixture[str]):
    refused = run_cli(capsys, "show", str(CHAT), "--lenient")

    assert (refused.code, refused.out) == (2, "")
    assert "--strict/--lenient apply only with --claims" in refused.err


def test_convert_to_native_reads_back_the_same_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    out = tmp_path / "chat.json"
    result = run_cli(capsys, "convert", str(CHAT), "--to", "native", "-o", str(out))

    assert (result.code, result.out) == (0, "")
    converted = read_trace(out)
    original = read_trace(CHAT)
    assert converted.source_format == "openai-chat"  # kept: it grades as its source did
    assert converted == original


def test_convert_several_runs_needs_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    refused = run_cli(capsys, "convert", str(TAU))
    assert refused.code == 2
    assert "pass --output DIR" in refused.err

    written = run_cli(capsys, "convert", str(TAU), "-o", str(tmp_path / "runs"))
    assert written.code == 0
    names = sorted(path.name for path in (tmp_path / "runs").iterdir())
    assert names == sorted(f"{trace.id}.json" for trace in read_traces(TAU))


def test_a_newer_schema_version_is_refused_by_name(tmp_path: Path):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8")) | {"schema_version": 3}
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="schema_version"):
        read_trace(path)


texts = st.text(st.characters(codec="utf-8"), max_size=30)
frames = st.lists(
    st.one_of(
        st.builds(lambda c: {"type": "user", "content": c}, texts),
        st.builds(lambda c: {"type": "assistant", "content": c}, texts),
        st.builds(lambda i, n, a: {"type": "tool_call", "id": i, "name": n, "args": {"q": a}},
                  texts, texts, texts),
        st.builds(lambda i, r: {"type": "tool_result", "id": i, "ok": True,
                                "result": {"ok": True, "files": [r]}}, texts, texts),
        st.builds(lambda t, d: {"type": "approval", "tool": t, "decision": d}, texts,
                  st.sampled_from(["allow", "deny"])),
        st.builds(lambda b, a, s: {"type": "compaction", "before": b, "after": a, "summary": s},
                  st.integers(0, 10**6), st.integers(0, 10**6), texts),
    ),
    min_size=1,
    max_size=8,
)  # fmt: skip


@settings(max_examples=100, deadline=None)
@given(frames, st.sampled_from(["success", "failure", "partial"]))
def test_native_then_convert_then_read_is_the_identity(
    frames: list[dict[str, object]], outcome: str
):
    raw = {"id": "r", "commit": "c", "model": "m", "task": "t", "outcome": outcome,
           "tokens": list(range(len(frames))), "frames": frames}  # fmt: skip
    trace = validate_native_trace(raw)
    converted = json.dumps(trace.model_dump(mode="json")).encode()
    assert read_trace(converted) == trace
