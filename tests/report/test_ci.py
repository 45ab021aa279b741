"""CI reports: JUnit XML (checked against a JUnit schema, read back as CI servers read it) and
GitHub annotations and job summaries (byte for byte), from real graded cases and runs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
import xmlschema
from hypothesis import given
from hypothesis import strategies as st
from junitparser import Error, Failure, JUnitXml, Skipped

from tracegrade.report import (
    SUMMARY_ROWS,
    CiCase,
    ci_case_of_result,
    ci_case_of_run,
    github_annotations,
    github_summary,
    junit_xml,
)
from tracegrade.report._ci import dotted
from tracegrade.suites import GradedRun, grade_runs, load_suite, run_suite

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "examples" / "traces"
SCHEMA = xmlschema.XMLSchema(Path(__file__).with_name("junit.xsd"))

SUITE = """\
[suite]
name = "ci check"
traces = "{traces}"

[[questions]]
id = "refund-window"
prompt = "Which file sets the refund window, and how many days is it?"
facts = [{{id = "file", text = "billing/config.py"}}, {{id = "days", text = "45"}}]
truth_file = "billing/config.py"

# The first case predicts wrongly on purpose.
[[cases]]
trace = "read-source.json"
question = "refund-window"
expect = {{answer = "partial"}}

[[cases]]
trace = "grep-only.json"
question = "refund-window"
expect = {{answer = "success"}}
"""


def _suite_cases(tmp_path: Path) -> list[CiCase]:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE.format(traces=TRACES.as_posix()), "utf-8")
    loaded = load_suite(path)
    lines = loaded.case_lines()
    assert lines is not None
    return [
        ci_case_of_result(result, suite="suite.toml", line=lines[result.case - 1], time=0.25)
        for result in run_suite(loaded)
        if result.case is not None
    ]


def _run_cases() -> list[CiCase]:
    files = sorted(TRACES.glob("*.json"))
    runs = list(grade_runs(files))
    broken = GradedRun("missing.json", "missing.json", error="missing.json: cannot read it")
    return [ci_case_of_run(run, failing=run.path.endswith("grep-only.json")) for run in runs] + [
        ci_case_of_run(broken, failing=False)
    ]


def test_suite_cases_point_at_their_case_s_line_and_fail_on_a_mismatch(tmp_path: Path):
    cases = _suite_cases(tmp_path)

    assert [(case.name, case.outcome, case.line) for case in cases] == [
        ("read-source.json", "failed", 12),
        ("grep-only.json", "passed", 17),
    ]
    assert cases[0].message.startswith("answer: expected partial, got success")


def test_the_junit_report_is_valid_and_reads_back_as_ci_servers_read_it(tmp_path: Path):
    document = junit_xml("ci check", _suite_cases(tmp_path), time=1.5)

    SCHEMA.validate(document)
    path = tmp_path / "report.xml"
    path.write_text(document, "utf-8")
    suite = next(iter(JUnitXml.fromfile(str(path))))
    assert (suite.name, suite.tests, suite.failures, suite.errors, suite.time) == (
        "ci check", 2, 1, 0, 1.5,
    )  # fmt: skip
    first, second = list(suite)
    assert (first.classname, first.name, first.time) == ("suite", "read-source.json", 0.25)
    assert isinstance(first.result[0], Failure)
    assert first.result[0].message == "answer: expected partial, got success"
    assert first.system_out.startswith("read-source.json\n  tools ")
    assert (first._elem.get("file"), first._elem.get("line")) == ("suite.toml", "12")
    assert second.is_passed


def test_runs_pass_fail_or_err_as_fail_on_and_the_reader_say(tmp_path: Path):
    path = tmp_path / "runs.xml"
    path.write_text(junit_xml("runs", _run_cases()), "utf-8")
    SCHEMA.validate(str(path))

    suite = next(iter(JUnitXml.fromfile(str(path))))
    outcomes = {
        Path(case.name).name: type(case.result[0]).__name__ if case.result else "passed"
        for case in suite
    }
    assert outcomes == {
        "docs-and-source.json": "passed",
        "grep-only.json": "Failure",  # failing: --fail-on would name its unsupported claim
        "listing-guess.json": "passed",  # unsupported too, but not failing: a warning
        "read-source.json": "passed",
        "missing.json": "Error",
    }
    listing = next(case for case in suite if case.name.endswith("listing-guess.json"))
    assert "unsupported  figure " in listing.system_out
    assert listing._elem.get("line") is None  # a trace file: no line is meaningful


def test_text_xml_cannot_hold_is_shown_escaped_and_the_document_stays_valid():
    case = CiCase("c", "bad\x00name\x1b", "failed", "t", message='a < b & "c"\n\x07second')

    document = junit_xml("s", [case])

    SCHEMA.validate(document)
    testcase = ET.fromstring(document).find("testsuite/testcase")  # noqa: S314 - our own output
    assert testcase is not None
    assert testcase.get("name") == "bad\\x00name\\x1b"
    failure = testcase.find("failure")
    assert failure is not None
    assert failure.get("message") == 'a < b & "c"'
    assert failure.text == 'a < b & "c"\n\\x07second'


def test_the_schema_rejects_what_ci_servers_would_not_read():
    # The gate can go red: a testcase with no name, and a misspelt attribute.
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        SCHEMA.validate('<testsuites><testsuite name="s" tests="1" failures="0" errors="0">'
                        '<testcase classname="c"/></testsuite></testsuites>')  # fmt: skip
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        SCHEMA.validate('<testsuites><testsuite name="s" tests="1" failures="0" errors="0">'
                        '<testcase name="n" tme="1"/></testsuite></testsuites>')  # fmt: skip


def test_a_skipped_case_is_skipped_in_junit():
    document = junit_xml("s", [CiCase("c", "n", "skipped", "n: not measured", message="why")])

    SCHEMA.validate(document)
    suite = next(iter(JUnitXml.fromstring(document)))
    (case,) = list(suite)
    assert isinstance(case.result[0], Skipped)
    assert not isinstance(case.result[0], Error)
    assert suite.skipped == 1


def test_annotations_escape_data_and_properties_byte_for_byte():
    case = CiCase(
        "c",
        "n",
        "failed",
        "run a:b, c",
        message="100% wrong\r\nsecond: line, here",
        file="runs/a,b:c.json",
        line=7,
    )
    warned = CiCase("c", "w", "passed", "w: 1 unsupported claim(s)", message='figure "45"',
                    file="w.json", warns="warning")  # fmt: skip
    quiet = CiCase("c", "q", "passed", "q", file="q.json")

    assert github_annotations([case, warned, quiet]) == [
        (
            "::error file=runs/a%2Cb%3Ac.json,line=7,title=run a%3Ab%2C c"
            "::100%25 wrong%0D%0Asecond: line, here"
        ),
        '::warning file=w.json,title=w%3A 1 unsupported claim(s)::figure "45"',
    ]


def test_run_annotations_point_at_the_trace_with_no_line():
    lines = github_annotations(_run_cases())

    grep, listing = _prop(TRACES / "grep-only.json"), _prop(TRACES / "listing-guess.json")
    assert lines == [
        f'::error file={grep},title={grep}%3A 1 unsupported claim(s)::figure "45 days"',
        f'::warning file={listing},title={listing}%3A 1 unsupported claim(s)::figure "45 days"',
        (
            "::error file=missing.json,title=missing.json%3A could not be graded::"
            "missing.json: cannot read it"
        ),
    ]


def _prop(path: Path) -> str:
    return str(path).replace(":", "%3A").replace(",", "%2C")


def test_the_summary_counts_every_case_and_lists_those_that_need_a_look():
    cases = [
        CiCase("c", "a|b", "failed", "t", message="x <y>\nz", file="s.toml", line=3),
        CiCase("c", "ok", "passed", "ok"),
        CiCase("c", "w", "passed", "w", message="m*", file="w.json", warns="warning"),
    ]

    assert github_summary("tracegrade grade s.toml", cases) == (
        "### tracegrade grade s.toml\n"
        "\n"
        "3 case(s): 2 passed, 1 failed, 0 errors, 0 skipped; 1 with a warning or notice.\n"
        "\n"
        "| result | case | where | why |\n"
        "| --- | --- | --- | --- |\n"
        "| failed | a&#124;b | s.toml:3 | x &#60;y&#62;<br>z |\n"
        "| passed (warning) | w | w.json | m&#42; |\n"
    )


def test_the_summary_lists_at_most_its_row_limit():
    cases = [CiCase("c", f"n{i}", "failed", "t") for i in range(SUMMARY_ROWS + 3)]

    summary = github_summary("h", cases)

    assert summary.count("| failed |") == SUMMARY_ROWS
    assert summary.endswith("... and 3 more (see the job's log).\n")


def test_a_passing_case_has_no_annotation_and_no_row():
    case = replace(CiCase("c", "n", "passed", "n"), output="block")

    assert github_annotations([case]) == []
    assert "| result |" not in github_summary("h", [case])


def _unescaped(text: str) -> str:
    """What the runner reads back (the toolkit's escapes, undone in reverse order)."""
    for escaped, char in (("%2C", ","), ("%3A", ":"), ("%0A", "\n"), ("%0D", "\r"), ("%25", "%")):
        text = text.replace(escaped, char)
    return text


@given(file=st.text(), title=st.text(min_size=1), message=st.text())
def test_an_annotation_is_one_line_that_reads_back_to_its_parts(
    file: str, title: str, message: str
):
    case = CiCase("c", "n", "failed", title, message=message, file=file, line=3)

    (line,) = github_annotations([case])

    assert "\n" not in line
    assert "\r" not in line
    head, _, data = line[2:].partition("::")
    level, _, properties = head.partition(" ")
    parts = dict(item.split("=", 1) for item in properties.split(","))
    assert level == "error"
    assert (_unescaped(parts["file"]), parts["line"], _unescaped(parts["title"])) == (
        file, "3", title,
    )  # fmt: skip
    assert _unescaped(data) == (message or title)


@given(name=st.text(), message=st.text(), output=st.text())
def test_any_text_makes_a_valid_junit_document(name: str, message: str, output: str):
    case = CiCase(name, name, "error", "t", message=message, output=output, file=name)

    SCHEMA.validate(junit_xml(name, [case], time=0.5))


def test_a_file_becomes_a_dotted_class_name_without_its_suffix():
    # Jenkins reads the part after the last dot as the class: "json" would be every run's.
    assert dotted("examples/traces/grep-only.json") == "examples.traces.grep-only"
    assert dotted("/srv/x/suite.toml") == "srv.x.suite"
    assert dotted("../suite.toml") == "suite"
    assert dotted("runs\\a.jsonl") == "runs.a"
    assert dotted("") == ""
