"""``tracegrade grade --from FORMAT`` forces a trace reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.runner import run_cli
from tracegrade.errors import TraceFormatError, UnreadableResultError
from tracegrade.suites import grade_trace_file, load_questions

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CHAT = FIXTURES / "readers" / "openai-chat" / "valid.json"
NATIVE = FIXTURES / "traces" / "valid.json"
QUESTION = """
[[questions]]
id = "refund-window"
facts = [{id = "file", text = "billing/config.py"}, {id = "days", text = "45"}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"
"""


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    path = tmp_path / "questions.toml"
    path.write_text(QUESTION, encoding="utf-8")
    return path


def test_from_native_grades(capsys: pytest.CaptureFixture[str], questions: Path) -> None:
    outcome = run_cli(
        capsys, "grade", str(NATIVE), "--from", "native", "--question-file", str(questions)
    )
    assert outcome.code == 0
    assert "read_file" in outcome.out


def test_from_openai_chat_reads_text_results_as_text_and_says_so(
    capsys: pytest.CaptureFixture[str], questions: Path
) -> None:
    # Chat tools return free text: with no decoder it is read as text, never silently.
    outcome = run_cli(
        capsys, "grade", str(CHAT), "--from", "openai-chat", "--question-file", str(questions)
    )
    assert outcome.code == 0
    assert "  as text      3 result(s) with no decoder: grep, list_files, read_file" in outcome.out


def test_strict_makes_a_text_result_an_error(
    capsys: pytest.CaptureFixture[str], questions: Path
) -> None:
    outcome = run_cli(capsys, "grade", str(CHAT), "--strict", "--question-file", str(questions))
    assert outcome.code == 2
    assert "frame 5: tool 'grep': unreadable result" in outcome.err
    assert "Traceback" not in outcome.err


def test_from_another_format_fails_with_that_formats_message(
    capsys: pytest.CaptureFixture[str], questions: Path
) -> None:
    outcome = run_cli(
        capsys, "grade", str(CHAT), "--from", "tau2", "--question-file", str(questions)
    )
    assert outcome.code == 2
    assert "tau2 results file" in outcome.err
    assert str(CHAT) in outcome.err


def test_from_unknown_format_lists_the_readers(
    capsys: pytest.CaptureFixture[str], questions: Path
) -> None:
    outcome = run_cli(
        capsys, "grade", str(CHAT), "--from", "langsmith", "--question-file", str(questions)
    )
    assert outcome.code == 2
    assert "unknown trace format 'langsmith'" in outcome.err
    assert "openai-chat" in outcome.err
    assert "tau-bench" in outcome.err


def test_from_goes_with_a_trace_not_a_suite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(QUESTION, encoding="utf-8")
    outcome = run_cli(capsys, "grade", str(suite), "--from", "native")
    assert outcome.code == 2
    assert "--from" in outcome.err


def test_grade_trace_file_passes_the_format_name(questions: Path) -> None:
    (question,) = load_questions(questions)
    assert grade_trace_file(NATIVE, question, format_name="native").run == str(NATIVE)
    with pytest.raises(TraceFormatError, match="is missing"):
        grade_trace_file(CHAT, question, format_name="native")
    graded = grade_trace_file(CHAT, question).grade  # detected as openai-chat: lenient
    assert [item.tool for item in graded.as_text] == ["grep", "read_file", "list_files"]
    with pytest.raises(UnreadableResultError):
        grade_trace_file(CHAT, question, strict=True)
