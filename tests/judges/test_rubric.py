"""The tool-description rubric: strict parsing, scoring with a judge, storing per version."""

from __future__ import annotations

import json

import pytest

from tracegrade.errors import JudgeOutputError
from tracegrade.judges import (
    TOOL_DESCRIPTION_RUBRIC,
    FakeJudge,
    JudgeReply,
    ScoringRubric,
    parse_rubric_score,
    rubric_score_record,
    score_tool_description,
    scoring_request,
)

DESCRIPTION = (
    "Read a file of the repository and return its lines. Use it after list_files, to read"
    " the content of a file you found. path: the file's path relative to the repository root."
    " Changes nothing. Fails with ok=false when the file does not exist."
)
SCORES = {"purpose": 3, "when_to_use": 2, "arguments": 2, "side_effects": 3, "failure_modes": 1}


def _reply(text: str | dict[str, object], rubric: ScoringRubric = TOOL_DESCRIPTION_RUBRIC):
    raw = text if isinstance(text, str) else json.dumps(text)
    request = scoring_request("read_file", "Tool: read_file", rubric)
    return JudgeReply("rubric-judge", request, raw, "gpt-4o-mini", 200, 40, 0.5)


def test_a_well_formed_score_parses_in_the_rubric_order() -> None:
    shuffled = dict(reversed(SCORES.items()))
    score = parse_rubric_score(
        _reply({"scores": shuffled, "notes": "say how"}), TOOL_DESCRIPTION_RUBRIC
    )
    assert list(score.scores) == list(TOOL_DESCRIPTION_RUBRIC.keys)
    assert score.scores == SCORES
    assert (score.total, score.maximum, score.weakest) == (11, 15, ("failure_modes",))
    assert (score.touchpoint, score.judge, score.rubric) == (
        "read_file",
        "rubric-judge",
        "tool-description",
    )
    assert (score.call.model, score.call.input_tokens, score.call.output_tokens) == (
        "gpt-4o-mini",
        200,
        40,
    )


def test_the_request_asks_for_every_criterion_on_the_scale() -> None:
    request = scoring_request("read_file", "text")
    assert request.schema == "rubric-score"
    system = request.messages[0].content
    for key, question in TOOL_DESCRIPTION_RUBRIC.criteria:
        assert f"- {key}: {question}" in system
    scores = request.json_schema["properties"]["scores"]  # type: ignore[index]
    assert scores["required"] == list(TOOL_DESCRIPTION_RUBRIC.keys)
    assert scores["properties"]["arguments"] == {"type": "integer", "enum": [0, 1, 2, 3]}


@pytest.mark.parametrize(
    ("text", "problem", "message"),
    [
        ("scores: 3", "not JSON", "the reply is not JSON"),
        ({"scores": SCORES}, "missing field", "the reply lacks notes"),
        ({"scores": SCORES, "notes": "", "total": 11}, "extra field", "unexpected keys total"),
        ({"scores": [3, 2, 2, 3, 1], "notes": ""}, "scores not an object", "is not an object"),
        (
            {"scores": {k: v for k, v in SCORES.items() if k != "side_effects"}, "notes": ""},
            "missing criterion",
            "scores lack side_effects",
        ),
        ({"scores": {**SCORES, "tone": 2}, "notes": ""}, "extra field", "unknown criteria tone"),
        (
            {"scores": {**SCORES, "arguments": 4}, "notes": ""},
            "score off the scale",
            "arguments = 4 is not one of 0, 1, 2, 3",
        ),
        (
            {"scores": {**SCORES, "arguments": 2.5}, "notes": ""},
            "score off the scale",
            "arguments = 2.5",
        ),
        (
            {"scores": {**SCORES, "purpose": True}, "notes": ""},
            "score off the scale",
            "purpose = True",
        ),
        (
            {"scores": {**SCORES, "purpose": "3"}, "notes": ""},
            "score off the scale",
            "purpose = '3'",
        ),
        ({"scores": SCORES, "notes": None}, "notes not text", "notes None is not a string"),
    ],
)
def test_malformed_scores_raise_naming_judge_touchpoint_and_problem(text, problem, message) -> None:
    with pytest.raises(JudgeOutputError) as raised:
        parse_rubric_score(_reply(text), TOOL_DESCRIPTION_RUBRIC)
    assert raised.value.problem == problem
    assert str(raised.value).startswith("case read_file: judge 'rubric-judge': ")
    assert message in str(raised.value)


def test_score_tool_description_shows_the_judge_the_description() -> None:
    judge = FakeJudge([{"scores": SCORES, "notes": "name the error shape"}], name="j")
    score = score_tool_description(judge, "read_file", DESCRIPTION)
    assert score.notes == "name the error shape"
    (request,) = judge.requests
    assert request.case == "read_file"
    assert DESCRIPTION in request.messages[1].content


def test_a_score_is_stored_per_touchpoint_version(store) -> None:
    judge = FakeJudge(
        [
            {"scores": SCORES, "notes": "v1"},
            {"scores": {**SCORES, "failure_modes": 3}, "notes": "v2"},
        ],
        name="j",
        model="gpt-4o-mini",
    )
    store.add_rubric_score(
        rubric_score_record(score_tool_description(judge, "read_file", "old"), "v1")
    )
    store.add_rubric_score(
        rubric_score_record(score_tool_description(judge, "read_file", "new"), "v2")
    )
    newest, oldest = store.rubric_scores("read_file")
    assert (newest.version, oldest.version) == ("v2", "v1")
    assert (newest.rubric, newest.judge) == ("tool-description", "j")
    assert newest.scores["scores"] == {**SCORES, "failure_modes": 3}
    assert (newest.scores["total"], newest.scores["maximum"]) == (13, 15)
    assert oldest.scores["notes"] == "v1"
    assert oldest.scores["model"] == "gpt-4o-mini"
    assert store.rubric_scores("other") == []


def test_a_scoring_rubric_needs_distinct_criteria_and_a_scale() -> None:
    with pytest.raises(ValueError, match="distinct criteria"):
        ScoringRubric("r", "x", (("a", "?"), ("a", "?")))
    with pytest.raises(ValueError, match="ascending scale"):
        ScoringRubric("r", "x", (("a", "?"),), scale=(3, 1))
