"""grade_turns: one grade per user turn, each against the evidence up to that turn's end."""

from __future__ import annotations

from tests.helpers.builders import (
    assistant,
    call,
    fixture_question,
    make_trace,
    read_body,
    result,
    user,
)
from tracegrade.verdicts import grade, grade_turns

SOURCE = "export const PORT = 4321;\nexport const HOST = 'db.internal';"


def _two_turns(last_reply: str | None) -> list[dict[str, object]]:
    frames: list[dict[str, object]] = [
        user(),
        call("c1", "read_file"),
        result("c1", True, read_body("src/server.ts", SOURCE)),
        assistant("src/server.ts sets it to 4321."),
        user("Which host does it use?"),
        call("c2", "read_file"),
        result("c2", True, read_body("config/db.ts", "host: db.internal")),
    ]
    if last_reply is not None:
        frames.append(assistant(last_reply))
    return frames


def test_each_turn_is_graded_against_the_evidence_before_its_end():
    trace = make_trace(_two_turns("It uses db.internal, per config/db.ts."))

    first, second = grade_turns(trace, fixture_question())

    assert (first.turn, second.turn) == (1, 2)
    assert first.final_answer == "src/server.ts sets it to 4321."
    assert (first.answer, first.provenance) == ("success", "grounded")
    assert first.observations < second.observations  # the second read came later
    assert second.final_answer == "It uses db.internal, per config/db.ts."
    assert second.answer == "failure"  # the port question's facts are not in this reply


def test_the_whole_run_grade_is_the_last_turn_grade():
    trace = make_trace(_two_turns("It uses db.internal."))

    *_, last = grade_turns(trace, fixture_question())

    assert last.model_copy(update={"turn": None}) == grade(trace, fixture_question())


def test_an_unanswered_last_turn_is_failure_and_says_so():
    trace = make_trace(_two_turns(None))

    whole = grade(trace, fixture_question())
    first, second = grade_turns(trace, fixture_question())

    assert (whole.final_answer, whole.reply, whole.answer) == ("", "interrupted", "failure")
    assert (first.reply, second.reply) == ("answered", "interrupted")


def test_turns_without_a_question_extract_each_reply_s_claims():
    trace = make_trace(_two_turns("It uses db.internal on port 5432."))

    first, second = grade_turns(trace)

    assert [(c.raw, c.support) for c in first.extracted] == [
        ("src/server.ts", "read"),
        ("4321", "read"),
    ]
    assert [c.raw for c in second.unsupported_claims] == ["5432"]
