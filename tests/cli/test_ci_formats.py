"""``grade`` and ``run`` with ``--format junit|github``: what CI reads, and the same exit codes."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
import xmlschema

from tests.cli.runner import run_cli
from tests.cli.test_run import _project
from tracegrade.evals import parse_command_output
from tracegrade.report._ci import dotted

REPO = Path(__file__).resolve().parents[2]
TRACES = REPO / "examples" / "traces"
SCHEMA = xmlschema.XMLSchema(REPO / "tests" / "report" / "junit.xsd")

SUITE = """\
[suite]
traces = "{traces}"

[[questions]]
id = "q"
prompt = "Which file sets the refund window, and how many days is it?"
facts = [{{id = "file", text = "billing/config.py"}}]

[[cases]]
trace = "read-source.json"
question = "q"
expect = {{answer = "{answer}"}}
"""


@pytest.fixture(autouse=True)
def _no_job_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run under GitHub Actions, these tests must not append to the job's own summary."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def _suite(tmp_path: Path, answer: str) -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE.format(traces=TRACES.as_posix(), answer=answer), "utf-8")
    return path


@pytest.mark.parametrize(("answer", "code"), [("success", 0), ("partial", 1)])
def test_a_suite_s_junit_report_fails_the_mismatched_case_and_keeps_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, answer: str, code: int
):
    suite = _suite(tmp_path, answer)

    result = run_cli(capsys, "grade", str(suite), "--format", "junit")

    assert result.code == code
    SCHEMA.validate(result.out)
    # tracegrade's own reader of a touchpoint's JUnit report reads it as CI servers do.
    (case,) = parse_command_output(result.out, "junit")
    assert case.case == f"{dotted(str(suite))}.read-source.json"
    assert case.outcome == ("passed" if code == 0 else "failed")
    assert f'file="{suite}" line="9"' in result.out
    if code:
        assert case.detail == "answer: expected partial, got success"
        assert "1 of 1 case(s) no longer match" in result.err


def test_a_suite_s_github_annotation_points_at_the_case_s_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    suite = _suite(tmp_path, "partial")

    result = run_cli(capsys, "grade", str(suite), "--format", "github")

    assert result.code == 1
    assert result.out == (
        f"::error file={suite},line=9,title=read-source.json%3A no longer matches its"
        " prediction::answer: expected partial, got success\n"
    )


def test_runs_annotate_and_append_the_job_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    summary = tmp_path / "summary.md"
    summary.write_text("## an earlier step\n", "utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    target = "examples/traces/"
    monkeypatch.chdir(REPO)

    failing = run_cli(capsys, "grade", target, "--format", "github", "--fail-on", "unsupported")
    passing = run_cli(capsys, "grade", target, "--format", "github")

    grep, listing = "examples/traces/grep-only.json", "examples/traces/listing-guess.json"
    assert failing.code == 1
    assert failing.out.splitlines() == [
        f'::error file={grep},title={grep}%3A 1 unsupported claim(s)::figure "45 days"',
        f'::error file={listing},title={listing}%3A 1 unsupported claim(s)::figure "45 days"',
    ]
    assert passing.code == 0  # no --fail-on: the same claims are warnings
    assert passing.out == failing.out.replace("::error ", "::warning ")
    written = summary.read_text("utf-8")
    assert written.startswith("## an earlier step\n### tracegrade grade examples/traces/\n")
    assert written.count("### tracegrade grade examples/traces/") == 2
    assert "4 case(s): 2 passed, 2 failed, 0 errors, 0 skipped; 0 with a warning" in written
    assert "4 case(s): 4 passed, 0 failed, 0 errors, 0 skipped; 2 with a warning" in written


def test_an_unwritable_summary_is_a_warning_not_a_new_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "missing" / "summary.md"))

    result = run_cli(capsys, "grade", str(TRACES), "--format", "github")

    assert result.code == 0
    assert "tracegrade: warning: cannot append the job summary to $GITHUB_STEP_SUMMARY" in (
        result.err
    )


def test_unreadable_runs_are_junit_errors_beside_the_graded_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", "utf-8")

    result = run_cli(capsys, "grade", str(TRACES / "read-source.json"), str(broken),
                     "--format", "junit")  # fmt: skip

    assert result.code == 0  # as in every format: one unreadable file does not fail the rest
    SCHEMA.validate(result.out)
    outcomes = [case.outcome for case in parse_command_output(result.out, "junit")]
    assert outcomes == ["passed", "error"]
    assert 'tests="2" failures="0" errors="1"' in result.out


def test_nothing_readable_exits_2_and_writes_no_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", "utf-8")

    result = run_cli(capsys, "grade", str(broken), "--format", "junit")

    assert (result.code, result.out) == (2, "")


@pytest.mark.parametrize(("severity", "code"), [("block", 1), ("warn", 0)])
def test_a_run_s_touchpoints_are_testcases_at_their_table_s_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, severity: str, code: int
):
    project = _project(tmp_path / f"ci-{severity}", passed=3, cases=10, severity=severity)
    store = f"sqlite:///{tmp_path / 'store.db'}"

    junit = run_cli(capsys, "run", str(project), "--store", store, "--format", "junit")
    github = run_cli(capsys, "run", str(project), "--store", store, "--format", "github")

    assert (junit.code, github.code) == (code, code)
    SCHEMA.validate(junit.out)
    (case,) = parse_command_output(junit.out, "junit")
    assert case.outcome == ("failed" if severity == "block" else "passed")
    toml = project / "tracegrade.toml"
    assert f'file="{toml}" line="2"' in junit.out
    level = "error" if severity == "block" else "warning"
    assert github.out == (
        f"::{level} file={toml},line=2,title=tp%3A {'failed' if code else 'failed-min'}"
        "::tp failed: 0.3 (3/10 share of passing cases) is below min 0.5\n"
    )


def test_a_trace_graded_with_a_question_file_points_at_the_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    questions = _suite(tmp_path, "success")
    trace = TRACES / "read-source.json"

    result = run_cli(capsys, "grade", str(trace), "--question-file", str(questions),
                     "--format", "junit")  # fmt: skip

    assert result.code == 0
    SCHEMA.validate(result.out)
    # Grouped under the question file, pointed at the trace (a trace file: no line).
    classname = dotted(str(questions))
    assert f'<testcase classname="{classname}" name="{trace}" file="{trace}">' in result.out


def test_an_outage_is_a_junit_error_and_still_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    folder = tmp_path / "outage"
    folder.mkdir()
    (folder / "evals.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    (folder / "tracegrade.toml").write_text(
        '# one touchpoint\n\n[[touchpoints]]\nid = "legacy"\nkind = "prompt"\nowner = "t"\n'
        f'command = [{json.dumps(sys.executable)}, "evals.py"]\noutput_format = "junit"\n'
        'severity_on_fail = "block"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(time, "sleep", lambda _seconds: None)  # no backoff between retries
    store = f"sqlite:///{tmp_path / 'store.db'}"

    result = run_cli(capsys, "run", str(folder), "--store", store, "--format", "junit")

    assert result.code == 3
    SCHEMA.validate(result.out)
    assert 'tests="1" failures="0" errors="1"' in result.out
    assert f'file="{folder / "tracegrade.toml"}" line="3"' in result.out
    (case,) = parse_command_output(result.out, "junit")
    assert (case.outcome, case.detail) == (
        "error",
        (
            "legacy: not measured, all 1 cases hit infrastructure failures (retry when the"
            " provider is back)"
        ),
    )
