"""FakeJudge, the request a verdict asks for, and what a judge is shown of a run."""

from __future__ import annotations

import json

import pytest

from tests.judges.builders import example_case, example_trace
from tracegrade.judges import (
    ANSWER_SUPPORT_RUBRIC,
    FakeJudge,
    Rubric,
    case_from_trace,
    render_trace,
    verdict_request,
)


def test_a_scripted_string_is_sent_as_is_and_a_mapping_as_its_json() -> None:
    judge = FakeJudge(["not json at all", {"verdict": "supported"}], name="f", model="m")
    first = judge.complete(verdict_request("a", "x"))
    second = judge.complete(verdict_request("b", "y"))
    assert first.text == "not json at all"
    assert json.loads(second.text) == {"verdict": "supported"}
    assert (first.judge, first.model) == ("f", "m")
    assert [request.case for request in judge.requests] == ["a", "b"]


def test_a_function_script_answers_each_request() -> None:
    judge = FakeJudge(lambda request: f"reply to {request.case}", input_tokens=7, output_tokens=3)
    reply = judge.complete(verdict_request("case-9", "x"))
    assert reply.text == "reply to case-9"
    assert (reply.input_tokens, reply.output_tokens, reply.latency_seconds) == (7, 3, 0.0)


def test_the_verdict_request_names_the_closed_set_and_the_schema() -> None:
    request = verdict_request("c", "material")
    assert request.choices == ("supported", "unsupported")
    assert request.schema == "verdict"
    assert request.rubric == "answer-support"
    system, user = request.messages
    assert system.role == "system"
    assert ANSWER_SUPPORT_RUBRIC.instructions in system.content
    assert '"verdict": "supported | unsupported"' in system.content
    assert (user.role, user.content) == ("user", "material")
    assert request.json_schema["additionalProperties"] is False


@pytest.mark.parametrize(
    ("verdicts", "message"),
    [
        (("yes",), "at least two distinct verdicts"),
        (("yes", "yes"), "at least two distinct verdicts"),
        (("yes", "split"), "may not use the verdict 'split'"),
    ],
)
def test_a_rubric_needs_two_verdicts_and_may_not_use_split(verdicts, message) -> None:
    with pytest.raises(ValueError, match=message):
        Rubric("r", "x", verdicts)


def test_a_run_is_shown_with_ids_and_file_lines_to_cite() -> None:
    text = render_trace(example_trace("read-source"))
    assert text.startswith("Task: Which file sets the refund window")
    assert "[f2.3] name: billing/config.py" in text
    assert "[f4.4] billing/config.py:4: REFUND_WINDOW_DAYS = 45" in text
    assert text.endswith("so refunds are accepted for 45 days.")


def test_a_case_from_a_trace_is_a_control_only_with_a_known_answer() -> None:
    control = example_case("read-source", expected="supported")
    open_case = case_from_trace(example_trace("grep-only"), id="grep")
    assert (control.id, control.control, control.expected) == ("read-source", True, "supported")
    assert (open_case.id, open_case.control) == ("grep", False)
    assert open_case.citations is not None
    assert open_case.citations.check("f2.1").observed
