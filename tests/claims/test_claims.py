"""Claims (SPEC 2, 6): one per fact, in question order, with in_answer by plain containment."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.helpers.builders import fixture_question
from tracegrade.claims import Claim, Fact, Question, extract_claims


def test_one_claim_per_fact_in_question_order() -> None:
    claims = extract_claims("It is 4321.", fixture_question())
    assert claims == (
        Claim(id="file", text="src/server.ts", in_answer=False),
        Claim(id="value", text="4321", in_answer=True),
    )
    assert all(claim.origin == "fact" for claim in claims)


def test_in_answer_is_case_insensitive_substring() -> None:
    claims = extract_claims("see SRC/Server.TS line 1: port 43210", fixture_question())
    assert [claim.in_answer for claim in claims] == [True, True]


def test_no_facts_no_claims() -> None:
    assert extract_claims("anything", Question(id="q")) == ()


def test_empty_answer_contains_no_fact() -> None:
    assert [c.in_answer for c in extract_claims("", fixture_question())] == [False, False]


def test_fixture_question_matches_spec_11_2() -> None:
    question = fixture_question()
    assert [(fact.id, fact.text) for fact in question.facts] == [
        ("file", "src/server.ts"),
        ("value", "4321"),
    ]
    assert (question.truth_file, question.tell) == ("src/server.ts", "4321")


def test_fact_ids_must_be_unique() -> None:
    with pytest.raises(ValidationError, match="twice"):
        Question(id="q", facts=(Fact(id="a", text="x"), Fact(id="a", text="y")))


def test_fact_text_must_not_be_empty() -> None:
    with pytest.raises(ValidationError):
        Fact(id="a", text="")


def test_a_fact_that_is_a_figure_is_in_the_answer_in_any_written_form() -> None:
    question = Question(
        id="q",
        facts=(
            Fact(id="total", text="$1,072"),
            Fact(id="window", text="30 days"),
            Fact(id="phrase", text="total $1,072"),  # not a figure alone: plain containment
        ),
    )
    claims = extract_claims("You paid 1072 dollars within thirty (30) days.", question)
    assert [claim.in_answer for claim in claims] == [True, True, False]
    assert [claim.figure and claim.figure.key for claim in claims] == ["1072", "30 days", None]
    assert [c.in_answer for c in extract_claims("You paid $1,073.", question)] == [False] * 3
