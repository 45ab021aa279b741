"""SPEC 11.2 (grade.test.ts) ported: provenance, support, unread and answer grades."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.builders import (
    COPY_MATCH,
    STANDARD_ANSWER,
    TRUTH_MATCH,
    assistant,
    call,
    command_body,
    compaction,
    failed_body,
    fixture_question,
    listing_body,
    make_trace,
    one_call,
    read_body,
    result,
    search_body,
    search_trace,
    user,
)
from tracegrade.claims import Fact, Question
from tracegrade.verdicts import Expectation, Sighting, check, grade

if TYPE_CHECKING:
    from tracegrade.verdicts import Grade

SEARCH = "search_files"


def claim_support(graded: Grade) -> dict[str, str]:
    return {claim.id: claim.support for claim in graded.claims}


# Provenance -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matches", "expected"),
    [
        pytest.param([TRUTH_MATCH], "grounded", id="truth-only"),
        pytest.param([TRUTH_MATCH, COPY_MATCH], "undecidable", id="truth-and-copy"),
        pytest.param([COPY_MATCH, TRUTH_MATCH], "undecidable", id="copy-then-truth"),
        pytest.param([COPY_MATCH], "from-copy", id="copy-only"),
        pytest.param([], "unevidenced", id="no-matches"),
    ],
)
def test_provenance_follows_truth_and_copy_sightings(matches, expected) -> None:
    assert grade(search_trace(matches), fixture_question()).provenance == expected


@pytest.mark.parametrize(
    ("truth_file", "tell"),
    [(None, None), ("src/server.ts", None), (None, "4321")],
    ids=["neither", "no-tell", "no-truth-file"],
)
def test_question_without_truth_file_or_tell_is_ungradable(truth_file, tell) -> None:
    question = fixture_question(truth_file=truth_file, tell=tell)
    graded = grade(search_trace([TRUTH_MATCH, COPY_MATCH]), question)
    assert graded.provenance == "ungradable"
    assert graded.truth == ()
    assert graded.copies == ()


def test_truth_only_and_truth_plus_copy_both_succeed_with_different_provenance() -> None:
    alone = grade(search_trace([TRUTH_MATCH]), fixture_question())
    copied = grade(search_trace([TRUTH_MATCH, COPY_MATCH]), fixture_question())
    assert (alone.answer, copied.answer) == ("success", "success")
    assert (alone.provenance, copied.provenance) == ("grounded", "undecidable")


def test_sightings_carry_observation_frame_file_line_and_text() -> None:
    graded = grade(search_trace([TRUTH_MATCH, COPY_MATCH]), fixture_question())
    assert graded.truth == (
        Sighting(
            observation="f2.1",
            frame=2,
            file="src/server.ts",
            line=1,
            text="export const PORT = 4321;",
        ),
    )
    assert graded.copies == (
        Sighting(
            observation="f2.2",
            frame=2,
            file="README.md",
            line=9,
            text="The server listens on 4321, set in src/server.ts.",
        ),
    )


def test_sightings_count_per_observation_not_per_distinct_line() -> None:
    # The same copy line returned by two searches counts twice (SPEC 7, 13.6).
    trace = make_trace(
        [
            user(),
            call("c1", SEARCH),
            result("c1", True, search_body([COPY_MATCH])),
            call("c2", SEARCH),
            result("c2", True, search_body([COPY_MATCH, COPY_MATCH])),
            assistant(STANDARD_ANSWER),
        ]
    )
    graded = grade(trace, fixture_question())
    assert [s.observation for s in graded.copies] == ["f2.1", "f4.1", "f4.2"]
    assert graded.provenance == "from-copy"


def test_tell_is_matched_case_insensitively() -> None:
    question = fixture_question(tell="port = 4321")
    assert grade(search_trace([TRUTH_MATCH]), question).provenance == "grounded"


def test_truth_file_equality_is_exact() -> None:
    dotted = {**TRUTH_MATCH, "file": "./src/server.ts"}
    upper = {**TRUTH_MATCH, "file": "SRC/server.ts"}
    assert grade(search_trace([dotted]), fixture_question()).provenance == "from-copy"
    assert grade(search_trace([upper]), fixture_question()).provenance == "from-copy"


def test_shell_output_of_the_truth_line_is_a_copy() -> None:
    body = command_body("grep -rn PORT src", "src/server.ts:1:export const PORT = 4321;\n")
    graded = grade(one_call("run_command", body), fixture_question())
    assert graded.provenance == "from-copy"
    assert [(s.file, s.line) for s in graded.copies] == [("$ grep -rn PORT src", 1)]


def test_provenance_does_not_depend_on_the_answer() -> None:
    trace = make_trace([user(), call("c1", SEARCH), result("c1", True, search_body([TRUTH_MATCH]))])
    graded = grade(trace, fixture_question())
    assert graded.provenance == "grounded"
    assert graded.answer == "failure"


def test_read_file_of_the_truth_file_is_grounded() -> None:
    body = read_body("src/server.ts", "import x from 'y'\nexport const PORT = 4321;\n")
    graded = grade(one_call("read_file", body), fixture_question())
    assert graded.provenance == "grounded"
    assert [(s.observation, s.line) for s in graded.truth] == [("f2.2", 2)]


# Support and unread ---------------------------------------------------------------------------


def test_truth_line_alone_reads_both_facts_the_file_through_the_path_rule() -> None:
    graded = grade(search_trace([TRUTH_MATCH]), fixture_question())
    assert "src/server.ts" not in TRUTH_MATCH["text"]  # only the path rule can read it
    assert claim_support(graded) == {"file": "read", "value": "read"}
    assert [(c.id, c.in_answer, c.evidence) for c in graded.claims] == [
        ("file", True, ("f2.1",)),
        ("value", True, ("f2.1",)),
    ]
    assert graded.unread == ()


def test_truth_and_copy_cite_both_observations() -> None:
    graded = grade(search_trace([TRUTH_MATCH, COPY_MATCH]), fixture_question())
    assert {c.id: set(c.evidence) for c in graded.claims} == {
        "file": {"f2.1", "f2.2"},
        "value": {"f2.1", "f2.2"},
    }


def test_listing_only_names_the_file_and_leaves_the_value_unsupported() -> None:
    body = listing_body(["src/server.ts", "README.md"])
    graded = grade(one_call("list_files", body, "Probably src/server.ts."), fixture_question())
    assert claim_support(graded) == {"file": "named-only", "value": "unsupported"}
    assert [c.evidence for c in graded.claims] == [("f2.1",), ()]
    assert [c.in_answer for c in graded.claims] == [True, False]
    assert graded.answer == "partial"
    assert graded.unread == ("file",)
    assert graded.provenance == "unevidenced"
    assert graded.observations == 2


def test_no_matches_with_the_standard_answer_leaves_both_facts_unread_in_order() -> None:
    graded = grade(search_trace([]), fixture_question())
    assert graded.unread == ("file", "value")
    assert claim_support(graded) == {"file": "unsupported", "value": "unsupported"}
    assert graded.answer == "success"
    assert graded.observations == 0


def test_no_matches_and_an_answer_naming_nothing_has_no_unread_claims() -> None:
    graded = grade(search_trace([], answer="I could not find it."), fixture_question())
    assert graded.unread == ()
    assert graded.answer == "failure"


def test_support_is_decided_even_for_facts_missing_from_the_answer() -> None:
    graded = grade(search_trace([TRUTH_MATCH], answer="It is 4321."), fixture_question())
    assert claim_support(graded) == {"file": "read", "value": "read"}
    assert [c.in_answer for c in graded.claims] == [False, True]
    assert graded.unread == ()


def test_read_beats_named_only() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            result("c1", True, listing_body(["src/server.ts"])),
            call("c2", SEARCH),
            result("c2", True, search_body([TRUTH_MATCH])),
            assistant(STANDARD_ANSWER),
        ]
    )
    graded = grade(trace, fixture_question())
    assert claim_support(graded)["file"] == "read"
    assert graded.claims[0].evidence == ("f4.1",)


def test_prompt_arguments_and_summaries_are_not_evidence() -> None:
    trace = make_trace(
        [
            user("The port is 4321 in src/server.ts, confirm it."),
            call("c1", "read_file", {"path": "src/server.ts", "expect": "4321"}),
            compaction("Found src/server.ts with PORT = 4321."),
            assistant(STANDARD_ANSWER),
        ],
        task="src/server.ts 4321",
    )
    graded = grade(trace, fixture_question())
    assert claim_support(graded) == {"file": "unsupported", "value": "unsupported"}
    assert graded.unread == ("file", "value")
    assert graded.provenance == "unevidenced"


def test_a_write_is_not_evidence() -> None:
    body = {"ok": True, "file": "src/server.ts", "bytes": 25, "created": True}
    graded = grade(one_call("write_file", body), fixture_question())
    assert claim_support(graded) == {"file": "unsupported", "value": "unsupported"}


# Answer grade ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        pytest.param(STANDARD_ANSWER, "success", id="every-fact"),
        pytest.param("SRC/SERVER.TS, port 4321", "success", id="case-insensitive"),
        pytest.param("It listens on 4321.", "partial", id="some-facts"),
        pytest.param("I do not know.", "failure", id="no-fact"),
        pytest.param("", "failure", id="empty"),
        pytest.param(" \n\t\ufeff", "failure", id="blank-js-whitespace"),
    ],
)
def test_answer_grade(answer, expected) -> None:
    assert grade(search_trace([TRUTH_MATCH], answer), fixture_question()).answer == expected


def test_question_without_facts_is_ungraded() -> None:
    question = Question(id="file-count", prompt="How many files?")
    graded = grade(search_trace([TRUTH_MATCH]), question)
    assert graded.answer == "ungraded"
    assert graded.claims == ()
    assert graded.unread == ()
    assert graded.provenance == "ungradable"


def test_a_failed_tool_call_caps_a_full_answer_at_partial() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "read_file"),
            result("c1", False, failed_body("ENOENT: no such file")),
            call("c2", SEARCH),
            result("c2", True, search_body([TRUTH_MATCH])),
            assistant(STANDARD_ANSWER),
        ]
    )
    assert grade(trace, fixture_question()).answer == "partial"


def test_a_failed_tool_call_does_not_lift_a_failure() -> None:
    trace = make_trace(
        [user(), call("c1", SEARCH), result("c1", False, failed_body()), assistant("No idea.")]
    )
    assert grade(trace, fixture_question()).answer == "failure"


def test_a_denied_call_without_result_does_not_cap_the_answer() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "run_command", {"command": "cat src/server.ts"}),
            {"type": "approval", "tool": "run_command", "decision": "deny"},
            call("c2", SEARCH),
            result("c2", True, search_body([TRUTH_MATCH])),
            assistant(STANDARD_ANSWER),
        ]
    )
    graded = grade(trace, fixture_question())
    assert graded.answer == "success"
    assert graded.tools == ("run_command", SEARCH)


def test_answer_is_the_last_non_blank_assistant_message() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", SEARCH),
            result("c1", True, search_body([TRUTH_MATCH])),
            assistant(STANDARD_ANSWER),
            assistant("Actually I am not sure."),
            assistant("  \n"),
        ]
    )
    graded = grade(trace, fixture_question())
    assert graded.answer == "failure"
    assert graded.final_answer == "Actually I am not sure."


# The grade record -----------------------------------------------------------------------------


def test_grade_record_fields() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", SEARCH),
            result("c1", True, search_body([TRUTH_MATCH, COPY_MATCH])),
            assistant("  The port:\n\n  src/server.ts\u00a0sets\t4321.  "),
        ],
        id="run-7",
        outcome="partial",
    )
    graded = grade(trace, fixture_question())
    assert graded.trace_id == "run-7"
    assert graded.question_id == "port"
    assert graded.tools == (SEARCH,)
    assert graded.observations == 2
    assert graded.recorded_outcome == "partial"
    assert graded.answer == "success"  # recomputed, not copied from the trace's outcome
    assert graded.final_answer == "The port: src/server.ts sets 4321."


# check() --------------------------------------------------------------------------------------


def test_check_lists_mismatches_in_order_answer_provenance_unread() -> None:
    graded = grade(search_trace([TRUTH_MATCH, COPY_MATCH]), fixture_question())
    expectation = Expectation(answer="partial", provenance="grounded", unread=("value", "file"))
    assert check(graded, expectation) == (
        "answer: expected partial, got success",
        "provenance: expected grounded, got undecidable",
        "unread: expected [file,value], got []",
    )


def test_check_compares_unread_as_sorted_sets() -> None:
    graded = grade(search_trace([]), fixture_question())
    assert graded.unread == ("file", "value")
    matching = Expectation(answer="success", provenance="unevidenced", unread=("value", "file"))
    assert check(graded, matching) == ()
    assert check(graded, Expectation(unread=("value",))) == (
        "unread: expected [value], got [file,value]",
    )


def test_check_renders_unread_lists_without_spaces() -> None:
    graded = grade(search_trace([]), fixture_question()).model_copy(update={"unread": ("c",)})
    assert check(graded, Expectation(unread=("b", "a"))) == ("unread: expected [a,b], got [c]",)


def test_check_skips_fields_left_out_of_the_expectation() -> None:
    graded = grade(search_trace([COPY_MATCH]), fixture_question())
    assert check(graded, Expectation()) == ()
    assert check(graded, Expectation(provenance="from-copy")) == ()
    assert check(graded, Expectation(answer="failure")) == (
        "answer: expected failure, got success",
    )


def test_check_gate_goes_red_on_empty_expected_unread() -> None:
    graded = grade(search_trace([]), fixture_question())
    assert check(graded, Expectation(unread=())) == ("unread: expected [], got [file,value]",)


def test_fact_texts_are_plain_substrings() -> None:
    question = Question(
        id="q",
        facts=(Fact(id="n", text="250"),),
        truth_file="config.ts",
        tell="250",
    )
    trace = search_trace([{"file": "config.ts", "line": 3, "text": "limit = 2500"}], "It is 2500.")
    graded = grade(trace, question)
    assert graded.answer == "success"
    assert graded.claims[0].support == "read"
    assert graded.provenance == "grounded"


def test_grades_round_trip_through_validation() -> None:
    # A stored grade must read back as the same value, from Python and from JSON.
    cases = [
        search_trace([TRUTH_MATCH, COPY_MATCH]),
        one_call("list_files", listing_body(["src/server.ts"]), "Probably src/server.ts."),
    ]
    for trace in cases:
        graded = grade(trace, fixture_question())
        assert type(graded).model_validate(graded.model_dump()) == graded
        assert type(graded).model_validate_json(graded.model_dump_json()) == graded
