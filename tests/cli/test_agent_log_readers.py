"""``tracegrade show`` and ``grade`` read agent logs from disk with no ``--from``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.cli.runner import run_cli
from tests.helpers.readers import READER_FIXTURES

if TYPE_CHECKING:
    from pathlib import Path

QUESTION = """
[[questions]]
id = "refund-window"
facts = [{id = "file", text = "billing/config.py"}, {id = "days", text = "45"}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"
"""

# (fixture, format, the header's trace id, the tools line): one trace each.
SINGLE = [
    (
        "claude-code/stream_json.jsonl",
        "claude-code",
        "9d8e7f60-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
        "Read",
    ),
    (
        "codex/valid.jsonl",
        "codex",
        "0199a3c4-7e21-7b10-9f3a-5c2d1e0b4a77",
        "shell > local_shell > apply_patch",
    ),
    (
        "mini-swe-agent/v1_text_actions.traj.json",
        "mini-swe-agent",
        "v1_text_actions",
        "bash > bash > bash",
    ),
    (
        "mini-swe-agent/v2_tool_calls.traj.json",
        "mini-swe-agent",
        "v2_tool_calls",
        "bash > bash > bash > bash",
    ),
    ("openhands/trajectory.json", "openhands", "trajectory", "execute_bash > str_replace_editor"),
    ("ai-sdk/console_exporter.jsonl", "ai-sdk", "4bf92f3577b34da6a3ce929d0e0e4736", "readSetting"),
    ("ai-sdk/otlp_stream_text.json", "ai-sdk", "5cf92f3577b34da6a3ce929d0e0e4799", "grep"),
]


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    path = tmp_path / "questions.toml"
    path.write_text(QUESTION, encoding="utf-8")
    return path


@pytest.mark.parametrize(("fixture", "reader", "trace_id", "tools"), SINGLE)
def test_show_detects_the_format(
    capsys: pytest.CaptureFixture[str], fixture: str, reader: str, trace_id: str, tools: str
) -> None:
    path = READER_FIXTURES / fixture
    outcome = run_cli(capsys, "show", str(path))
    assert outcome.code == 0, outcome.err
    lines = outcome.out.split("\n")
    assert lines[0] == f"{path} ({trace_id}, {reader})"
    assert lines[2] == f"  tools        {tools}"


@pytest.mark.parametrize("case", SINGLE, ids=[case[0] for case in SINGLE])
def test_grade_reads_it_with_no_from(
    capsys: pytest.CaptureFixture[str], questions: Path, case: tuple[str, str, str, str]
) -> None:
    fixture, _, _, tools = case
    path = READER_FIXTURES / fixture
    outcome = run_cli(capsys, "grade", str(path), "--question-file", str(questions))
    assert outcome.code == 0, outcome.err
    assert f"  tools        {tools}" in outcome.out
    # The tool output (sent back as user messages in some formats) is evidence.
    observed = next(line for line in outcome.out.split("\n") if "observations" in line)
    assert int(observed.split()[-1]) >= 1
    assert "1 case(s) match." in outcome.err


def test_show_lists_a_session_and_its_sub_agent(capsys: pytest.CaptureFixture[str]) -> None:
    path = READER_FIXTURES / "claude-code" / "valid.jsonl"
    outcome = run_cli(capsys, "show", str(path))
    assert outcome.code == 0, outcome.err
    session = "7f3c2a10-5b1e-4c8d-9a21-0e6f4d3b2c11"
    assert f"{path} ({session}, claude-code)" in outcome.out
    assert f"{path} ({session}/a1b2c3d4, claude-code)" in outcome.out


def test_show_reads_every_run_of_an_openhands_output_jsonl(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = READER_FIXTURES / "openhands" / "output.jsonl"
    outcome = run_cli(capsys, "show", str(path))
    assert outcome.code == 0, outcome.err
    assert f"{path} (shop__refund-1, openhands)" in outcome.out
    assert f"{path} (shop__refund-2, openhands)" in outcome.out


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("claude-code/invalid.jsonl", "line 4, block 0: unknown content block type 'widget'"),
        ("codex/truncated.jsonl", "line 9: not valid JSON"),
        ("mini-swe-agent/other_version.traj.json", "unknown trajectory_format 'mini-swe-agent-3'"),
        ("openhands/other_version.json", "an OpenHands V1 (software-agent-sdk) event"),
        ("ai-sdk/other_version.json", "an OpenTelemetry JS ReadableSpan serialised"),
    ],
)
def test_bad_input_is_one_clean_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], questions: Path, fixture: str, expected: str
) -> None:
    path = READER_FIXTURES / fixture
    for command in (["show", str(path)], ["grade", str(path), "--question-file", str(questions)]):
        outcome = run_cli(capsys, *command)
        assert outcome.code == 2
        assert outcome.err.startswith(f"tracegrade: error: {path}: ")
        assert expected in outcome.err
        assert outcome.err.count("\n") == 1
        assert "Traceback" not in outcome.err
