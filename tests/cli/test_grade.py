"""``tracegrade grade``: formats, exit codes and one-line errors for bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.runner import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUESTION = """
[[questions]]
id = "refund-window"
facts = [{id = "file", text = "billing/config.py"}, {id = "days", text = "45"}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"
"""


def _suite(folder: Path, cases: str, questions: str = QUESTION) -> Path:
    path = folder / "suite.toml"
    path.write_text(questions + cases, encoding="utf-8")
    return path


def _trace(folder: Path, name: str, frames: list[dict[str, object]]) -> Path:
    data = {
        "id": name,
        "commit": "v1",
        "model": "m",
        "task": "t",
        "outcome": "success",
        "tokens": [1] * len(frames),
        "frames": frames,
    }
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _case(trace: str, expect: str = "") -> str:
    line = f'\n[[cases]]\ntrace = {trace!r}\nquestion = "refund-window"\n'
    return line + (f"expect = {expect}\n" if expect else "")


def _one_error_line(err: str) -> str:
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("tracegrade: error: ")
    return lines[0]


def test_example_suite_text_report(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"))

    assert result.code == 0
    blocks = result.out.strip().split("\n\n")
    assert [block.split("\n")[0] for block in blocks] == [
        "read-source.json",
        "grep-only.json",
        "listing-guess.json",
        "docs-and-source.json",
    ]
    assert blocks[0].split("\n")[1:] == [
        "  tools        list_files > read_file",
        "  observations 12",  # the config file has 5 lines and a trailing newline
        "  answer       success (recorded: success)",
        "  unread       (none)",
        "  provenance   grounded (1 ground truth, 0 copies)",
    ]
    assert "  unread       file, days" in blocks[2]
    assert blocks[2].endswith("\n  figures      unsourced: 45 days")
    assert "figures" not in blocks[0]  # the line appears only when a figure is unsourced
    assert result.err == "\n4 case(s) match.\n"


def test_example_suite_tsv_has_the_reference_columns(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"), "--format", "tsv")

    rows = [line.split("\t") for line in result.out.rstrip("\n").split("\n")]
    assert result.code == 0
    assert result.err == ""
    assert rows[0] == [
        "run", "tools_called", "observations", "recorded_outcome", "answer_grade",
        "unread_claims", "provenance", "ground_truth_sightings", "copy_sightings", "final_answer",
    ]  # fmt: skip
    assert rows[3][:9] == [
        "listing-guess.json", "list_files", "6", "success", "success", "file days",
        "unevidenced", "0", "0",
    ]  # fmt: skip


def test_example_suite_json_report(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"), "--format", "json")

    report = json.loads(result.out)
    assert result.code == 0
    assert report["summary"] == {"cases": 4, "matched": 4, "mismatched": 0}
    grep = report["cases"][1]
    assert set(grep) >= {
        "run", "tools", "observations", "recorded_outcome", "answer", "claims", "unread",
        "provenance", "truth", "copies", "final_answer", "mismatches",
    }  # fmt: skip
    assert grep["provenance"] == "from-copy"
    assert [(c["file"], c["line"]) for c in grep["copies"]] == [
        ("$ grep -rn REFUND_WINDOW_DAYS .", 1),
        ("$ grep -rn REFUND_WINDOW_DAYS .", 3),
    ]
    claim = grep["claims"][0]
    assert claim["id"] == "file"
    assert claim["in_answer"] is True
    assert claim["support"] == "read"
    assert claim["evidence"] == ["f2.1", "f2.3"]
    start = grep["final_answer"].index("45 days")  # the answer has no whitespace to collapse
    assert grep["figures"] == [
        {"raw": "45 days", "value": "45 days", "kind": "period", "start": start,
         "end": start + 7, "support": "unsupported", "evidence": []}
    ]  # fmt: skip
    assert report["cases"][0]["figures"][0]["evidence"] == ["f4"]  # the config comment


def test_a_wrong_prediction_exits_1_with_the_mismatch_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    shutil.copy(EXAMPLES / "traces" / "listing-guess.json", tmp_path)
    expect = '{answer = "success", provenance = "grounded", unread = []}'
    suite = _suite(tmp_path, _case("listing-guess.json", expect))

    result = run_cli(capsys, "grade", str(suite))

    assert result.code == 1
    assert "  MISMATCH     provenance: expected grounded, got unevidenced" in result.out
    assert "  MISMATCH     unread: expected [], got [days,file]" in result.out
    assert result.err == (
        "\n1 of 1 case(s) no longer match their recorded verdict:\n"
        "  listing-guess.json: provenance: expected grounded, got unevidenced\n"
        "  listing-guess.json: unread: expected [], got [days,file]\n"
    )


def test_a_partial_expectation_checks_only_what_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    shutil.copy(EXAMPLES / "traces" / "listing-guess.json", tmp_path)
    suite = _suite(tmp_path, _case("listing-guess.json", '{provenance = "unevidenced"}'))

    assert run_cli(capsys, "grade", str(suite)).code == 0


def test_single_trace_with_a_question_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    questions = tmp_path / "questions.toml"
    questions.write_text(QUESTION, encoding="utf-8")
    trace = EXAMPLES / "traces" / "read-source.json"

    result = run_cli(
        capsys,
        "grade",
        str(trace),
        "--question-file",
        str(questions),
        "--question",
        "refund-window",
    )

    assert result.code == 0
    assert result.out.startswith(f"{trace}\n  tools        list_files > read_file\n")


def test_single_trace_without_a_question_file_is_graded_by_its_claims(
    capsys: pytest.CaptureFixture[str],
):
    trace = EXAMPLES / "traces" / "read-source.json"

    result = run_cli(capsys, "grade", str(trace))

    assert result.code == 0
    assert result.out.startswith(f"{trace}\n  claims       ")  # tests/cli/test_grade_runs.py


def test_suite_cases_as_json_lines(capsys: pytest.CaptureFixture[str]):
    whole = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"), "--format", "json")
    lines = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"), "--format", "jsonl")

    assert lines.code == 0
    assert [json.loads(line) for line in lines.out.splitlines()] == json.loads(whole.out)["cases"]


def test_a_suite_is_graded_on_its_own(capsys: pytest.CaptureFixture[str]):
    suite = str(EXAMPLES / "suite.toml")

    result = run_cli(capsys, "grade", suite, str(EXAMPLES / "traces"))

    assert result.code == 2
    assert "graded on its own" in result.err


def test_unknown_question_in_a_question_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    questions = tmp_path / "questions.toml"
    questions.write_text(QUESTION, encoding="utf-8")
    result = run_cli(
        capsys,
        "grade",
        str(EXAMPLES / "traces" / "read-source.json"),
        "--question-file",
        str(questions),
        "--question",
        "nope",
    )

    assert result.code == 2
    line = _one_error_line(result.err)
    assert str(questions) in line
    assert "'nope'" in line
    assert "refund-window" in line


GOOD_FRAMES: list[dict[str, object]] = [
    {"type": "user", "content": "q"},
    {"type": "assistant", "content": "billing/config.py: 45"},
]


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        (
            [{"type": "user", "content": "q"}, {"type": "system", "content": "x"}],
            ["frame 1", "unknown frame type 'system'"],
        ),
        (
            [{"type": "user", "content": "q"}, {"type": "tool_call", "name": "read_file"}],
            ["frame 1", "'id'", "is missing"],
        ),
        (
            [
                {"type": "tool_call", "id": "c1", "name": "read_file", "args": {}},
                {"type": "tool_result", "id": "c1", "ok": True, "result": {"ok": True, "x": 1}},
            ],
            ["frame 1", "tool 'read_file'", "unreadable result"],
        ),
        (
            [{"type": "tool_result", "id": "c9", "ok": True, "result": {"ok": True}}],
            ["frame 0", "orphan tool result", "'c9'"],
        ),
    ],
    ids=["unknown-frame-type", "missing-field", "unreadable-result", "orphan-result"],
)
def test_bad_trace_exits_2_with_one_line_naming_file_and_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], frames: list[dict[str, object]],
    expected: list[str],
):  # fmt: skip
    _trace(tmp_path, "good.json", GOOD_FRAMES)
    bad = _trace(tmp_path, "bad.json", frames)
    suite = _suite(tmp_path, _case("good.json") + _case("bad.json"))

    result = run_cli(capsys, "grade", str(suite))

    assert result.code == 2
    assert result.out == ""  # nothing written for the good case either
    line = _one_error_line(result.err)
    assert str(bad) in line
    for part in expected:
        assert part in line


def test_truncated_trace_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    good = _trace(tmp_path, "cut.json", GOOD_FRAMES)
    good.write_bytes(good.read_bytes()[:-20])
    suite = _suite(tmp_path, _case("cut.json"))

    result = run_cli(capsys, "grade", str(suite))

    assert result.code == 2
    line = _one_error_line(result.err)
    assert str(good) in line
    assert "not valid JSON" in line


@pytest.mark.parametrize(
    ("suite_text", "expected"),
    [
        ("[[cases]\n", ["not valid TOML"]),
        (QUESTION + _case("x.json").replace("question =", "questoin ="), ["case 1 (x.json)"]),
        (QUESTION + _case("x.json").replace("refund-window", "nope"), ["'nope'", "refund-window"]),
        (QUESTION + _case("x.json", '{answer = "great"}'), ["case 1", "expect.answer"]),
        (QUESTION + QUESTION, ["defined twice"]),
    ],
    ids=["toml-syntax", "typo-field", "unknown-question", "bad-expectation", "duplicate-question"],
)
def test_bad_suite_exits_2_with_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suite_text: str, expected: list[str]
):
    suite = tmp_path / "suite.toml"
    suite.write_text(suite_text, encoding="utf-8")

    result = run_cli(capsys, "grade", str(suite))

    assert result.code == 2
    line = _one_error_line(result.err)
    assert str(suite) in line
    for part in expected:
        assert part in line


def test_missing_trace_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    suite = _suite(tmp_path, _case("absent.json"))

    result = run_cli(capsys, "grade", str(suite))

    assert result.code == 2
    line = _one_error_line(result.err)
    assert str(tmp_path / "absent.json") in line


def test_missing_suite_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(tmp_path / "nope.toml"))

    assert result.code == 2
    assert str(tmp_path / "nope.toml") in _one_error_line(result.err)


def test_console_script_runs_the_example_suite():
    script = Path(sys.executable).with_name("tracegrade")
    completed = subprocess.run(
        [str(script), "grade", str(EXAMPLES / "suite.toml"), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["summary"]["mismatched"] == 0


def test_python_dash_m_runs_too():
    completed = subprocess.run(
        [sys.executable, "-m", "tracegrade", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0
    assert completed.stdout.startswith("tracegrade, version ")


READERS = Path(__file__).resolve().parents[1] / "fixtures" / "readers"
REFUND = '[[questions]]\nid = "refund"\nfacts = [{id = "amount", text = "$120"}]\n'


def _question_file(folder: Path) -> Path:
    path = folder / "q.toml"
    path.write_text(REFUND, encoding="utf-8")
    return path


def test_a_question_file_grades_every_run_of_a_multi_run_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    tau = READERS / "tau-bench" / "valid.json"
    args = ("grade", str(tau), "--question-file", str(_question_file(tmp_path)), "--format")

    every = run_cli(capsys, *args, "json")
    one = run_cli(capsys, *args, "json", "--run", "task-0-trial-0")
    second = run_cli(capsys, *args, "json", "--run", "2")

    assert every.code == 0, every.err
    runs = {case["run"]: case["answer"] for case in json.loads(every.out)["cases"]}
    assert runs == {f"{tau}#task-0-trial-0": "success", f"{tau}#task-1-trial-1": "failure"}
    assert [c["run"] for c in json.loads(one.out)["cases"]] == [f"{tau}#task-0-trial-0"]
    assert [c["run"] for c in json.loads(second.out)["cases"]] == [f"{tau}#task-1-trial-1"]


def test_a_run_not_in_the_file_names_the_runs_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    tau = READERS / "tau-bench" / "valid.json"
    q = _question_file(tmp_path)

    result = run_cli(capsys, "grade", str(tau), "--question-file", str(q), "--run", "nope")

    assert result.code == 2
    assert result.out == ""
    assert "holds no run 'nope'. Its runs: task-0-trial-0, task-1-trial-1" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_a_claude_code_session_with_a_sidechain_grades_each_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    session = READERS / "claude-code" / "valid.jsonl"
    q = _question_file(tmp_path)

    result = run_cli(capsys, "grade", str(session), "--question-file", str(q), "--format", "tsv")

    assert result.code == 0, result.err
    names = [row.split("\t")[0] for row in result.out.splitlines()[1:]]
    assert len(names) == 2
    assert all(name.startswith(f"{session}#") for name in names)
    assert names[1].endswith("/a1b2c3d4")  # the sub-agent's sidechain


def test_run_does_not_go_with_a_suite(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES / "suite.toml"), "--run", "x")

    assert result.code == 2
    assert "--run goes with a trace file" in result.err
