"""Support of extracted claims: whole-word forms; read, named-only or unsupported."""

from __future__ import annotations

from tests.helpers.builders import (
    assistant,
    call,
    listing_body,
    make_trace,
    one_call,
    read_body,
    result,
    user,
)
from tracegrade.claims import AnswerClaim, extract_answer_claims, form_pattern, shown_in
from tracegrade.observations import observe
from tracegrade.support import support_answer_claims
from tracegrade.verdicts import NO_QUESTION, grade


def claim(*forms: str, kind: str = "id") -> AnswerClaim:
    return AnswerClaim(kind, forms[0], forms[0], 0, len(forms[0]), forms)  # type: ignore[arg-type]


def supported(
    item: AnswerClaim, body: object, tool: str = "read_file"
) -> tuple[str, tuple[str, ...]]:
    observations = observe(one_call(tool, body))
    (found,) = support_answer_claims([item], observations, {})
    return found.support, found.evidence


def test_a_form_in_a_returned_line_reads_the_claim() -> None:
    assert supported(claim("ZFA04Y"), read_body("a.txt", "x\nbooking zfa04y confirmed")) == (
        "read",
        ("f2.2",),
    )


def test_a_form_inside_a_longer_token_does_not_show_it() -> None:
    assert supported(claim("NOS-18"), read_body("a.txt", "ticket NOS-183"))[0] == "unsupported"
    assert supported(claim("25 countries"), read_body("a.txt", "125 countries"))[0] == (
        "unsupported"
    )


def test_any_form_shows_the_claim() -> None:
    item = claim("2024-03-03", "March 3, 2024", kind="date")
    assert supported(item, read_body("a.txt", "Signed on March 3, 2024."))[0] == "read"


def test_a_line_reads_its_own_source_name() -> None:
    assert supported(claim("config.ts", kind="path"), read_body("agent/src/config.ts", "x")) == (
        "read",
        ("f2.1",),
    )


def test_a_listed_name_only_names_the_claim() -> None:
    found = supported(
        claim("config.ts", kind="path"), listing_body(["src/config.ts"]), "list_files"
    )
    assert found == ("named-only", ("f2.1",))


def test_no_tool_shows_it() -> None:
    assert supported(claim("Obama", kind="name"), read_body("a.txt", "nothing")) == (
        "unsupported",
        (),
    )


def test_figures_take_the_evidence_the_figure_index_found() -> None:
    item = AnswerClaim("figure", "$5", "5", 3, 5, ("$5",))
    observations = observe(one_call("read_file", read_body("a.txt", "x")))
    (read,) = support_answer_claims([item], observations, {(3, 5, "5"): ("f2",)})
    (unsourced,) = support_answer_claims([item], observations, {})
    assert (read.support, read.evidence) == ("read", ("f2",))
    assert (unsourced.support, unsourced.evidence) == ("unsupported", ())


def test_whole_word_rules_of_a_form() -> None:
    assert form_pattern("NOS-18").search("see nos-18.") is not None
    assert form_pattern("NOS-18").search("NOS-183") is None
    assert form_pattern("(x)").search("a(x)b") is not None  # not word-edged: plain substring
    assert shown_in("Paris", ["I live in paris"])
    assert not shown_in("Paris", ["Parisian"])


def test_grade_with_no_question_extracts_and_grades_the_answers_figures() -> None:
    trace = make_trace(
        [
            user("What does the plan cost?"),
            call("c1", "read_file", {"path": "plan.md"}),
            result("c1", True, read_body("plan.md", "The plan costs $450 a month.")),
            assistant("It costs $450 a month, or $5,400 a year."),
        ]
    )
    graded = grade(trace)
    assert graded.question_id == NO_QUESTION.id
    assert (graded.answer, graded.provenance) == ("ungraded", "ungradable")
    assert [(c.kind, c.raw, c.support) for c in graded.extracted] == [
        ("figure", "$450", "read"),
        ("figure", "$5,400", "unsupported"),
    ]
    assert [c.raw for c in graded.unsupported_claims] == ["$5,400"]
    assert graded.grounded_share == 0.5


def test_a_figure_the_user_gave_is_given_and_not_counted() -> None:
    trace = make_trace(
        [
            user("My budget is $900; what does the plan cost?"),
            call("c1", "read_file", {"path": "plan.md"}),
            result("c1", True, read_body("plan.md", "The plan costs $450 a month.")),
            assistant("It costs $450, within your $900."),
        ]
    )
    graded = grade(trace)
    given = {c.raw: c.given for c in graded.extracted}
    assert given == {"$450": False, "$900": True}
    assert graded.unsupported_claims == ()
    assert graded.grounded_share == 1.0


def test_no_claims_means_no_grounded_share() -> None:
    graded = grade(one_call("read_file", read_body("a.txt", "x"), answer="done"))
    assert graded.extracted == ()
    assert graded.grounded_share is None


def test_a_question_without_auto_extracts_nothing() -> None:
    trace = one_call("read_file", read_body("a.txt", "x"), answer="It costs $5,400.")
    assert grade(trace, NO_QUESTION).extracted == ()
    assert [c.raw for c in grade(trace, NO_QUESTION, auto=True).extracted] == ["$5,400"]


def test_a_ranges_two_ends_are_graded_apart() -> None:
    trace = make_trace(
        [
            user("What does it cost?"),
            call("c1", "read_file", {"path": "plan.md"}),
            result("c1", True, read_body("plan.md", "From $5 a month.")),
            assistant("It costs $5-$10 a month."),
        ]
    )
    graded = grade(trace)
    assert [(c.text, c.support) for c in graded.extracted] == [
        ("5", "read"),
        ("10", "unsupported"),
    ]


def test_a_figure_in_a_sentence_that_guesses_is_hedged_like_every_other_kind() -> None:
    claims = extract_answer_claims("It is most likely a.py, with 45 days. It costs $5.")
    assert [(c.raw, c.hedged) for c in claims] == [("a.py", True), ("45 days", True), ("$5", False)]
