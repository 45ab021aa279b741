"""Figures in final answers: reported with their support, and checkable as predictions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.helpers.builders import assistant, call, fixture_question, make_trace, result, user
from tracegrade.claims import Fact, Question
from tracegrade.verdicts import Expectation, check, grade

if TYPE_CHECKING:
    from tracegrade.traces import Trace


def _run(answer: str, tool_text: str, *, ok: bool = True) -> Trace:
    body = (
        {"ok": True, "file": "loan.md", "lines": 1, "content": tool_text}
        if ok
        else {"ok": False, "error": tool_text}
    )
    return make_trace(
        [
            user("What did the loan cost? Budget was 2,000,000."),
            call("c1", "read_file", {"path": "loan.md"}),
            result("c1", ok, body),
            assistant(answer),
        ]
    )


def test_each_figure_of_the_answer_is_read_or_unsupported_with_its_frame():
    trace = _run("It cost $1.5 million over 30 days, under the $2 million budget, in 2024.",
                 "Loan of 1,500,000 dollars, repaid within thirty (30) days.")  # fmt: skip
    graded = grade(trace, fixture_question())

    assert [(f.raw, f.kind, f.support, f.evidence) for f in graded.figures] == [
        ("$1.5 million", "money", "read", ("f2",)),
        ("30 days", "period", "read", ("f2",)),
        ("$2 million", "money", "read", ("f0",)),  # the human message is a source
        ("2024", "number", "unsupported", ()),
    ]
    assert [f.raw for f in graded.unsourced_figures] == ["2024"]


def test_a_failed_result_sources_only_what_its_call_did_not_say():
    trace = make_trace(
        [
            user("Pay the loan."),
            call("c1", "pay", {"amount": "$1.5 million"}),
            result(
                "c1", False, {"ok": False, "error": "$1.5 million is over the $1.2 million limit"}
            ),
            assistant("Paying $1.5 million failed: the limit is $1.2 million."),
        ]
    )
    graded = grade(trace, fixture_question())
    assert [(f.raw, f.support) for f in graded.figures] == [
        ("$1.5 million", "unsupported"),
        ("$1.2 million", "read"),
    ]


def test_unsourced_figures_are_a_prediction_compared_as_a_set():
    trace = _run("It cost $1.5 million in 2024 and 2025.", "Loan of $1.5 million.")
    graded = grade(trace, fixture_question())

    assert check(graded, Expectation(unsourced=("2025", "2024"))) == ()
    assert check(graded, Expectation(unsourced=())) == ("unsourced: expected [], got [2024,2025]",)


def test_an_amount_a_tool_returned_as_a_json_value_is_read():
    reservation = {
        "ok": True,
        "reservation_id": "4WQ150",
        "flights": [{"flight_number": "HAT170", "price": 466.75}, {"price": "280"}],
        "total_baggages": 3,
    }
    trace = make_trace(
        [
            user("What did my flights cost?"),
            call("c1", "get_reservation_details", {"reservation_id": "4WQ150"}),
            result("c1", True, reservation),
            assistant("Your flights cost $466.75 and $280.00; bags are $3 each."),
        ]
    )
    graded = grade(trace, fixture_question(), strict=False)
    assert [(f.raw, f.support, f.evidence) for f in graded.figures] == [
        ("$466.75", "read", ("f2",)),
        ("$280.00", "read", ("f2",)),
        ("$3", "unsupported", ()),  # a count of bags is not an amount
    ]


def test_a_fact_that_is_a_figure_is_read_by_the_figure_rules():
    question = Question(
        id="refund",
        facts=(Fact(id="total", text="$1,072"), Fact(id="price", text="$466.75")),
    )
    trace = make_trace(
        [
            user("What is my refund? It should be $466.75."),
            call("c1", "get_reservation_details", {"reservation_id": "4WQ150"}),
            result("c1", True, {"ok": True, "total": "1,072.00 USD"}),
            assistant("Your refund is $1,072 in all, $466.75 of it for the flight."),
        ]
    )
    graded = grade(trace, question, strict=False)
    # The figure check and the fact check agree: $1,072 is read, $466.75 only said by the user.
    assert [(f.raw, f.support) for f in graded.figures] == [("$1,072", "read"), ("$466.75", "read")]
    assert [(c.id, c.support, c.evidence) for c in graded.claims] == [
        ("total", "read", ("f2",)),
        ("price", "unsupported", ()),  # a fact is read only when a tool returned it
    ]
    assert graded.unread == ("price",)

    priced = make_trace(
        [
            user("What is my refund?"),
            call("c1", "get_reservation_details", {"reservation_id": "4WQ150"}),
            result("c1", True, {"ok": True, "flights": [{"price": 466.75}], "total": 1072}),
            assistant("Your refund is $1,072 in all, $466.75 of it for the flight."),
        ]
    )
    assert grade(priced, question, strict=False).unread == ()
