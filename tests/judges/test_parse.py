"""parse_verdict: a well-formed reply parses; every malformed form raises, naming judge and case."""

from __future__ import annotations

import pytest

from tests.judges.builders import reply, verdict
from tracegrade.errors import InputError, JudgeOutputError
from tracegrade.judges import JudgeVerdict, parse_verdict


def test_a_well_formed_reply_parses_to_its_fields() -> None:
    parsed = parse_verdict(reply(verdict("unsupported", 0.25, ["billing/config.py:4", "f4.4"])))
    assert parsed == JudgeVerdict(
        verdict="unsupported",
        confidence=0.25,
        citations=("billing/config.py:4", "f4.4"),
        reasoning="the tool output shows it",
    )


@pytest.mark.parametrize("confidence", [0, 1, 0.0, 1.0])
def test_confidence_bounds_are_inclusive_and_integers_count(confidence) -> None:
    assert parse_verdict(reply(verdict(confidence=confidence))).confidence == float(confidence)


def test_surrounding_whitespace_is_still_one_json_object() -> None:
    text = '\n  {"verdict": "supported", "confidence": 0.5, "citations": [], "reasoning": ""}\n'
    assert parse_verdict(reply(text)).verdict == "supported"


MALFORMED = [
    pytest.param("", "not JSON", "the reply is empty", id="empty"),
    pytest.param("Supported.", "not JSON", "the reply is not JSON", id="prose"),
    pytest.param(
        '```json\n{"verdict": "supported"}\n```', "not JSON", "is not JSON", id="code-fence"
    ),
    pytest.param('["supported", 0.9]', "not JSON", "JSON list, not an object", id="array"),
    pytest.param(
        '{"verdict": "supported", "confidence": NaN, "citations": [], "reasoning": ""}',
        "not JSON",
        "NaN is not JSON",
        id="nan",
    ),
    pytest.param(
        '{"verdict": "supported", "verdict": "unsupported", "confidence": 0.5,'
        ' "citations": [], "reasoning": ""}',
        "duplicate key",
        "the key 'verdict' appears twice",
        id="duplicate-key",
    ),
    pytest.param(
        {"verdict": "supported", "confidence": 0.5, "citations": []},
        "missing field",
        "the reply lacks reasoning",
        id="missing-field",
    ),
    pytest.param(
        {**verdict(), "score": 3, "extra": True},
        "extra field",
        "unexpected keys extra, score",
        id="extra-field",
    ),
    pytest.param(
        verdict("maybe"),
        "verdict outside the set",
        "verdict 'maybe' is not one of supported, unsupported",
        id="verdict-outside-set",
    ),
    pytest.param(
        verdict("split"),
        "verdict outside the set",
        "verdict 'split' is not one of",
        id="split-is-reserved",
    ),
    pytest.param(
        {**verdict(), "verdict": None},
        "verdict outside the set",
        "verdict None is not one of",
        id="verdict-null",
    ),
    pytest.param(
        verdict(confidence=1.5),
        "confidence out of range",
        "confidence 1.5 is not a number from 0 to 1",
        id="confidence-above-1",
    ),
    pytest.param(
        verdict(confidence=-0.1),
        "confidence out of range",
        "confidence -0.1 is not a number from 0 to 1",
        id="confidence-below-0",
    ),
    pytest.param(
        {**verdict(), "confidence": "0.9"},
        "confidence out of range",
        "confidence '0.9' is not a number",
        id="confidence-string",
    ),
    pytest.param(
        {**verdict(), "confidence": True},
        "confidence out of range",
        "confidence True is not a number",
        id="confidence-bool",
    ),
    pytest.param(
        {**verdict(), "citations": "billing/config.py:4"},
        "citations not strings",
        "citations 'billing/config.py:4' is not a list of strings",
        id="citations-string",
    ),
    pytest.param(
        {**verdict(), "citations": ["f4.4", 4]},
        "citations not strings",
        "is not a list of strings",
        id="citations-number",
    ),
    pytest.param(
        {**verdict(), "reasoning": ["a", "b"]},
        "reasoning not text",
        "reasoning ['a', 'b'] is not a string",
        id="reasoning-list",
    ),
]


@pytest.mark.parametrize(("text", "problem", "message"), MALFORMED)
def test_malformed_output_raises_naming_judge_case_and_problem(text, problem, message) -> None:
    with pytest.raises(JudgeOutputError) as raised:
        parse_verdict(reply(text, judge="strict-judge", case="grep-only"))
    error = raised.value
    assert error.problem == problem
    assert error.judge == "strict-judge"
    assert error.case == "grep-only"
    shown = str(error)
    assert shown.startswith("case grep-only: judge 'strict-judge': ")
    assert message in shown
    assert "nothing was scored from this reply" in shown


def test_the_error_is_bad_input_with_exit_code_2() -> None:
    with pytest.raises(InputError) as raised:
        parse_verdict(reply("nope"))
    assert raised.value.exit_code == 2
    assert isinstance(raised.value, ValueError)


def test_a_long_malformed_reply_is_shown_cut() -> None:
    with pytest.raises(JudgeOutputError) as raised:
        parse_verdict(reply("x" * 500))
    assert "x" * 80 + "..." in str(raised.value)
    assert "x" * 81 not in str(raised.value)
