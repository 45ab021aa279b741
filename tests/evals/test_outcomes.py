"""Suite results become case outcomes: command reports (JUnit XML, JSON) and the built-in kinds."""

from __future__ import annotations

import json

import pytest

from tests.helpers.builders import (
    TELL,
    TRUTH_FILE,
    assistant,
    call,
    fixture_question,
    make_trace,
    one_call,
    read_body,
    result,
    user,
)
from tracegrade.contract import CaseResult, ContractFailure, Diagnosis, GateResult, RunResult
from tracegrade.errors import SuiteError
from tracegrade.evals import (
    CaseOutcome,
    contract_outcomes,
    gate_outcomes,
    metric_for,
    parse_command_output,
    replay_outcomes,
    suite_outcomes,
)
from tracegrade.guard import parse_policy, replay
from tracegrade.suites import CaseResult as SuiteCaseResult
from tracegrade.verdicts import Expectation, grade

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="evals" tests="5">
    <testcase classname="evals.test_search" name="test_refund" time="0.1"/>
    <testcase classname="evals.test_search" name="test_policy">
      <failure message="expected 45 days">AssertionError</failure>
    </testcase>
    <testcase classname="evals.test_search" name="test_broken">
      <error>RuntimeError: boom
more</error>
    </testcase>
    <testcase classname="evals.test_search" name="test_later">
      <skipped message="not yet"/>
    </testcase>
    <testcase name="bare"/>
  </testsuite>
</testsuites>
"""


def test_junit_xml():
    outcomes = parse_command_output(JUNIT, "junit", repeat=2)
    assert outcomes == (
        CaseOutcome(case="evals.test_search.test_refund", outcome="passed", repeat=2),
        CaseOutcome(
            case="evals.test_search.test_policy",
            outcome="failed",
            repeat=2,
            detail="expected 45 days",
        ),
        CaseOutcome(
            case="evals.test_search.test_broken",
            outcome="error",
            repeat=2,
            detail="RuntimeError: boom",
        ),
        CaseOutcome(case="bare", outcome="passed", repeat=2),
    )
    m = metric_for("command", outcomes)
    assert (m.passed, m.measured, m.errors) == (2, 4, 1)


def test_a_single_testsuite_root_works():
    text = '<testsuite><testcase name="a"/></testsuite>'
    assert [o.case for o in parse_command_output(text, "junit")] == ["a"]


@pytest.mark.parametrize(
    ("text", "message"),
    [("<testsuites>", "not valid JUnit XML"), ("<html/>", "root element is <html>")],
)
def test_bad_junit(text: str, message: str):
    with pytest.raises(SuiteError, match=message) as caught:
        parse_command_output(text, "junit", source="out.xml")
    assert caught.value.path == "out.xml"


def test_simple_json():
    text = json.dumps(
        {
            "cases": [
                {"id": "a", "passed": True},
                {"id": "b", "passed": False, "detail": "wrong figure"},
                {"id": "c", "outcome": "infra"},
            ]
        }
    )
    assert parse_command_output(text, "json") == (
        CaseOutcome(case="a", outcome="passed"),
        CaseOutcome(case="b", outcome="failed", detail="wrong figure"),
        CaseOutcome(case="c", outcome="infra"),
    )


def test_pytest_json_report():
    text = json.dumps(
        {
            "summary": {"passed": 1},
            "tests": [
                {"nodeid": "t.py::a", "outcome": "passed"},
                {"nodeid": "t.py::b", "outcome": "failed"},
                {"nodeid": "t.py::c", "outcome": "skipped"},
                {"nodeid": "t.py::d", "outcome": "xfailed"},
                {"nodeid": "t.py::e", "outcome": "error"},
            ],
        }
    )
    outcomes = parse_command_output(text, "json")
    assert [(o.case, o.outcome) for o in outcomes] == [
        ("t.py::a", "passed"),
        ("t.py::b", "failed"),
        ("t.py::d", "passed"),
        ("t.py::e", "error"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "neither a 'cases' nor a 'tests' list"),
        ('{"cases": [{"id": "a"}]}', r"cases\[0\] needs a string 'id' and a boolean 'passed'"),
        ('{"cases": [{"passed": true}]}', r"cases\[0\] needs"),
        ('{"tests": [{"nodeid": "a", "outcome": "weird"}]}', r"tests\[0\] needs"),
    ],
)
def test_bad_json(text: str, message: str):
    with pytest.raises(SuiteError, match=message) as caught:
        parse_command_output(text, "json", source="python run_evals.py")
    assert caught.value.path == "python run_evals.py"
    assert "pytest-json-report" in str(caught.value)


def _run(case: str, repeat: int, *, passed: bool) -> RunResult:
    diagnosis = None if passed else Diagnosis(kind="genuinely-absent", detail="no source")
    return RunResult(
        case=case,
        repeat=repeat,
        passed=passed,
        problems=() if passed else ("missing fact",),
        diagnosis=diagnosis,
        answer="",
        tool_path=(),
    )


def test_gate_outcomes_are_one_per_case_run():
    runs = (_run("a", 0, passed=True), _run("a", 1, passed=False))
    result = GateResult(
        repeats=2, cases=(CaseResult(name="a", kind="grounded", runs=runs, diagnosis=None),)
    )
    outcomes = gate_outcomes(result)
    assert [(o.case, o.repeat, o.outcome, o.detail) for o in outcomes] == [
        ("a", 0, "passed", ""),
        ("a", 1, "failed", "no source"),
    ]
    assert metric_for("gate", outcomes).value == result.rate


def test_suite_outcomes_measure_only_cases_with_a_prediction():
    graded = grade(one_call("read_file", read_body(TRUTH_FILE, TELL)), fixture_question())
    results = [
        SuiteCaseResult(run="holds.json", grade=graded, expect=Expectation(answer=graded.answer)),
        SuiteCaseResult(
            run="breaks.json",
            grade=graded,
            expect=Expectation(answer="failure"),
            mismatches=("answer: expected failure, got success",),
        ),
        SuiteCaseResult(run="unpredicted.json", grade=graded),
    ]
    assert suite_outcomes(results, repeat=1) == (
        CaseOutcome(case="holds.json", outcome="passed", repeat=1),
        CaseOutcome(
            case="breaks.json",
            outcome="failed",
            repeat=1,
            detail="answer: expected failure, got success",
        ),
    )


def test_replay_outcomes_are_one_per_guarded_write_call():
    policy = parse_policy({"tools": {"send_certificate": {"scan": ["amount"]}}})
    trace = make_trace(
        [
            user("Send a certificate for $1,500."),
            call("c1", "send_certificate", {"amount": "$1,500"}),
            result("c1", True, "sent"),
            call("c2", "send_certificate", {"amount": "$9,999"}),
            result("c2", True, "sent"),
            assistant("Done."),
        ]
    )
    outcomes = replay_outcomes("run.json", replay(trace, policy))
    assert [(o.case, o.outcome) for o in outcomes] == [
        ("run.json#frame1", "passed"),
        ("run.json#frame3", "failed"),
    ]
    assert outcomes[1].detail == "send_certificate: unsourced $9,999"


def test_contract_outcomes_are_one_per_trace():
    failure = ContractFailure(
        rule="cited-source-unbacked", frame=3, claim=None, source="doc-1", detail="never read"
    )
    assert contract_outcomes("a.json", []) == CaseOutcome(case="a.json", outcome="passed")
    assert contract_outcomes("b.json", [failure]) == CaseOutcome(
        case="b.json", outcome="failed", detail="cited-source-unbacked: never read"
    )
