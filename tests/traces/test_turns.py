"""Turns and the final answer: the last turn's reply, never an earlier turn's in its place."""

from __future__ import annotations

from tests.helpers.builders import assistant, call, make_trace, read_body, result, user


def test_one_turn_keeps_the_reference_rule_last_non_blank_reply():
    trace = make_trace([user(), assistant("Looking."), assistant("It is 4321."), assistant("  ")])

    assert trace.turns == ((0, 4),)
    assert trace.final_answer == "It is 4321."
    assert trace.reply_status == "answered"


def test_a_later_turn_answers_even_when_an_earlier_one_said_more():
    trace = make_trace([user(), assistant("Port 4321."), user("And the host?"), assistant("local")])

    assert trace.turns == ((0, 2), (2, 4))
    assert trace.final_answer == "local"


def test_a_last_turn_with_no_reply_is_interrupted_not_the_previous_reply():
    trace = make_trace(
        [
            user(),
            assistant("Port 4321."),
            user("Transfer me, please."),
            call("c1", "read_file"),
            result("c1", True, read_body("a.txt", "x")),
        ]
    )

    assert trace.final_answer == ""
    assert trace.reply_status == "interrupted"


def test_a_last_turn_with_only_blank_replies_is_empty():
    trace = make_trace([user(), assistant("Port 4321."), user("Sure?"), assistant(" \n")])

    assert (trace.final_answer, trace.reply_status) == ("", "empty")


def test_a_closing_message_opens_no_turn_so_the_reply_before_it_answers():
    trace = make_trace(
        [user(), assistant("Done: it is 4321."), user("Thanks! ###STOP###"), user("   ")]
    )

    assert trace.turn_starts == (0,)
    assert (trace.final_answer, trace.reply_status) == ("Done: it is 4321.", "answered")


def test_a_run_with_no_user_message_is_one_turn_from_its_first_frame():
    trace = make_trace([assistant("Hello."), assistant("It is 4321.")])

    assert trace.turns == ((0, 2),)
    assert trace.final_answer == "It is 4321."


def test_what_came_before_the_first_user_message_belongs_to_the_first_turn():
    trace = make_trace([assistant("Hi, how can I help?"), user(), assistant("4321"), user("ok?")])

    assert trace.turns == ((0, 3), (3, 4))
    assert trace.reply_status == "interrupted"
