"""validate_grounding_contract: per rule, the input that turns it red and one that stays green."""

from __future__ import annotations

import json

import pytest

from tests.contract.builders import (
    LEASE,
    LOAN,
    contract_trace,
    document_read,
    read_loan,
    tool_step,
    touch,
)
from tracegrade.contract import (
    ContractFailure,
    ContractRules,
    DocumentRead,
    Touch,
    collect_artifacts,
    validate_grounding_contract,
)
from tracegrade.errors import ArtifactError

HITS = [
    {"id": "r1", "title": "Loan Agreement", "snippet": "a principal amount of $1,500,000"},
    {"id": "r2", "title": "Lease", "snippet": "rent of $4,000 per month"},
]
WITH_SPACES = ContractRules(marker=r"\[([^\[\]]+)\]")


def search(artifact: bool = True) -> list[dict[str, object]]:
    return tool_step("s1", "search_documents", HITS, touch(["r1", "r2"]) if artifact else None)


def rules_of(failures: tuple[ContractFailure, ...]) -> list[str]:
    return [failure.rule for failure in failures]


# --- A clean run --------------------------------------------------------------------------------


def test_claims_served_by_the_documents_they_cite_pass():
    answer = (
        "The principal is $1,500,000 [loan-2023]. Interest is 5.25% per annum [loan-2023].\n"
        'An "Event of Default" occurs if any payment is late [loan-2023].'
    )

    assert validate_grounding_contract(contract_trace([read_loan()], answer)) == ()


def test_sentences_without_a_marker_are_not_claims():
    trace = contract_trace([read_loan()], "I read the agreement. The fee might be $9,999.")

    assert validate_grounding_contract(trace) == ()


def test_a_run_without_an_answer_has_no_claims():
    trace = contract_trace([read_loan()], "   ")

    assert validate_grounding_contract(trace) == ()


# --- cited-source-unbacked ----------------------------------------------------------------------


def test_a_cited_key_nothing_read_or_returned_is_unbacked():
    answer = "The principal is $1,500,000 [loan-2024]."

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert failures == (
        ContractFailure(
            rule="cited-source-unbacked",
            frame=3,
            claim="The principal is $1,500,000 [loan-2024].",
            source="loan-2024",
            detail=failures[0].detail,
        ),
    )
    assert "no document read or search result in this run has key, title or id" in (
        failures[0].detail
    )


def test_a_key_only_in_the_text_of_a_result_with_ids_is_unbacked():
    # The touch's text names r3, but its artifact does not: the ids are what back a citation.
    result = [*HITS, {"id": "r3", "snippet": "see also"}]
    step = tool_step("s1", "search_documents", result, touch(["r1", "r2"]))

    failures = validate_grounding_contract(contract_trace([step], "See also [r3]."))

    assert rules_of(failures) == ["cited-source-unbacked"]
    assert "frame 2" in failures[0].detail


def test_a_document_named_in_the_question_only_is_unbacked():
    trace = contract_trace([], "The loan is $1,500,000 [loan-2023].")

    assert rules_of(validate_grounding_contract(trace)) == ["cited-source-unbacked"]


# --- search results: ids back them, and their hit's text is what was served ---------------------


def test_a_search_result_id_backs_a_claim_its_hit_serves():
    trace = contract_trace([search()], "The principal is $1,500,000 [r1].")

    assert validate_grounding_contract(trace) == ()


def test_a_search_result_serves_only_its_own_hit():
    trace = contract_trace([search()], "The rent is $4,000 per month [r1].")

    failures = validate_grounding_contract(trace)

    assert rules_of(failures) == ["claim-not-served"]
    assert failures[0].source == "r1"
    assert "$4,000" in failures[0].detail


def test_a_search_result_in_plain_text_serves_the_whole_text():
    text = "[r1] Loan Agreement: a principal amount of $1,500,000\n[r2] Lease: rent of $4,000"
    step = tool_step("s1", "search_documents", text, touch(["r1", "r2"]))

    assert validate_grounding_contract(contract_trace([step], "Rent is $4,000 [r2].")) == ()


# --- search-without-ids -------------------------------------------------------------------------


def test_search_results_without_a_touch_artifact_cannot_be_cited():
    failures = validate_grounding_contract(
        contract_trace([search(artifact=False)], "The principal is $1,500,000 [r1].")
    )

    assert failures == (
        ContractFailure(
            rule="search-without-ids",
            frame=3,
            claim="The principal is $1,500,000 [r1].",
            source="r1",
            detail=failures[0].detail,
        ),
    )
    assert "frame 2" in failures[0].detail
    assert "search_documents" in failures[0].detail


def test_search_with_ids_stays_green():
    trace = contract_trace([search(artifact=True)], "The principal is $1,500,000 [r1].")

    assert rules_of(validate_grounding_contract(trace)) == []


# --- ambiguous-title ----------------------------------------------------------------------------


def test_two_documents_with_one_title_cannot_be_cited_by_title():
    steps = [read_loan("c1"), read_loan("c2", key="loan-2024")]
    trace = contract_trace(steps, "The principal is $1,500,000 [Loan Agreement].")

    failures = validate_grounding_contract(trace, WITH_SPACES)

    assert rules_of(failures) == ["ambiguous-title"]
    assert failures[0].frame == 5
    assert failures[0].source == "Loan Agreement"
    assert "loan-2023" in failures[0].detail
    assert "loan-2024" in failures[0].detail


def test_a_title_only_one_document_has_can_be_cited():
    steps = [read_loan("c1"), read_loan("c2")]  # the same document read twice
    trace = contract_trace(steps, "The principal is $1,500,000 [Loan Agreement].")

    assert validate_grounding_contract(trace, WITH_SPACES) == ()


def test_documents_sharing_a_title_can_be_cited_by_key():
    steps = [read_loan("c1"), read_loan("c2", key="loan-2024")]
    trace = contract_trace(steps, "The principal is $1,500,000 [loan-2024].")

    assert validate_grounding_contract(trace, WITH_SPACES) == ()


# --- incomplete-deep-read -----------------------------------------------------------------------


def test_a_deep_read_with_gaps_is_incomplete():
    deep = document_read(total=250, deep=[(0, 100), (150, 200)])
    step = tool_step("d1", "deep_read", LOAN[:100] + LOAN[150:200], deep)

    failures = validate_grounding_contract(contract_trace([step], "Done."))

    assert failures == (
        ContractFailure(
            rule="incomplete-deep-read",
            frame=2,
            claim=None,
            source="loan-2023",
            detail=failures[0].detail,
        ),
    )
    assert failures[0].detail.startswith(
        "deep read of 'loan-2023' served 0-100 and 150-200 of 250 chars: gaps 100-150, 200-250"
    )


def test_a_deep_read_that_served_nothing_is_incomplete():
    step = tool_step("d1", "deep_read", "", document_read(total=250, deep=[]))

    failures = validate_grounding_contract(contract_trace([step], "Done."))

    assert "served nothing of 250 chars: gaps 0-250" in failures[0].detail


def test_a_deep_read_covering_the_document_is_complete():
    step = tool_step("d1", "deep_read", LOAN, document_read(deep=[(0, len(LOAN))]))

    assert validate_grounding_contract(contract_trace([step], "Done.")) == ()


def test_a_partial_direct_read_is_not_a_deep_read():
    step = read_loan(served=(0, 100))

    assert validate_grounding_contract(contract_trace([step], "Done.")) == ()


# --- whole-document-claim-unread ----------------------------------------------------------------


def test_a_whole_document_claim_needs_a_complete_read():
    step = tool_step("c1", "read_document", LOAN[:100], document_read(served=(0, 100)))
    answer = 'The agreement does not mention a "guarantor" [loan-2023].'

    failures = validate_grounding_contract(contract_trace([step], answer))

    assert failures == (
        ContractFailure(
            rule="whole-document-claim-unread",
            frame=3,
            claim=answer,
            source="loan-2023",
            detail=failures[0].detail,
        ),
    )
    assert "0-100" in failures[0].detail


def test_a_whole_document_claim_after_a_complete_read_passes():
    # The quoted phrase is what the claim says is absent: it is not looked for.
    answer = 'The agreement does not mention a "guarantor" [loan-2023].'

    assert validate_grounding_contract(contract_trace([read_loan()], answer)) == ()


def test_a_whole_document_claim_on_a_search_snippet_fails():
    answer = "The loan agreement is silent on guarantors [r1]."

    failures = validate_grounding_contract(contract_trace([search()], answer))

    assert rules_of(failures) == ["whole-document-claim-unread"]
    assert failures[0].source == "r1"


def test_whole_document_phrases_are_configurable_and_case_insensitive():
    step = tool_step("c1", "read_document", LOAN[:100], document_read(served=(0, 100)))
    answer = "Guarantors: ABSENT FROM the agreement [loan-2023]."
    rules = ContractRules(whole_document=("absent from",))

    assert rules_of(validate_grounding_contract(contract_trace([step], answer), rules)) == [
        "whole-document-claim-unread"
    ]
    assert validate_grounding_contract(contract_trace([step], answer)) == ()


# --- claim-not-served ---------------------------------------------------------------------------


def test_a_figure_the_cited_document_does_not_hold_is_not_served():
    answer = "The principal is $2,000,000 [loan-2023]."

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert failures == (
        ContractFailure(
            rule="claim-not-served",
            frame=3,
            claim=answer,
            source="loan-2023",
            detail=failures[0].detail,
        ),
    )
    assert "$2,000,000" in failures[0].detail


def test_a_figure_is_compared_by_value_not_by_writing():
    answer = "The principal is $1.5 million, repayable within thirty (30) days [loan-2023]."

    assert validate_grounding_contract(contract_trace([read_loan()], answer)) == ()


def test_a_quoted_phrase_the_document_does_not_hold_is_not_served():
    answer = 'Late payment is a "Termination Event" [loan-2023].'

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert rules_of(failures) == ["claim-not-served"]
    assert '"Termination Event"' in failures[0].detail


def test_quoted_phrases_match_across_case_whitespace_and_curly_quotes():
    answer = "Late payment is an \u201cevent of \t default\u201d [loan-2023]."
    missing = "Late payment is an \u201cevent of \t failure\u201d [loan-2023]."

    assert validate_grounding_contract(contract_trace([read_loan()], answer)) == ()
    assert rules_of(validate_grounding_contract(contract_trace([read_loan()], missing))) == [
        "claim-not-served"
    ]


def test_an_ellipsis_in_a_quote_leaves_words_out():
    answer = 'The Borrower "shall repay ... within 30 days" [loan-2023].'
    reordered = 'The Borrower "within 30 days ... shall pay" [loan-2023].'

    assert validate_grounding_contract(contract_trace([read_loan()], answer)) == ()
    assert rules_of(validate_grounding_contract(contract_trace([read_loan()], reordered))) == [
        "claim-not-served"
    ]


def test_only_the_text_actually_served_counts():
    # The read served the first 100 characters; the rate is further on.
    served = LOAN[:100]
    step = tool_step("c1", "read_document", served, document_read(served=(0, 100)))

    failures = validate_grounding_contract(contract_trace([step], "Interest is 5.25% [loan-2023]."))

    assert rules_of(failures) == ["claim-not-served"]
    assert "5.25%" in failures[0].detail


def test_a_figure_served_by_another_document_does_not_support_the_claim():
    lease = tool_step("c2", "read_document", LEASE, document_read("lease-1", title="Lease"))
    answer = "Rent is $4,000 per month [loan-2023]."

    failures = validate_grounding_contract(contract_trace([read_loan(), lease], answer))

    assert rules_of(failures) == ["claim-not-served"]


def test_a_claim_citing_two_sources_may_take_each_figure_from_either():
    lease = tool_step("c2", "read_document", LEASE, document_read("lease-1", title="Lease"))
    answer = "The loan is $1,500,000 and the rent $4,000 [loan-2023][lease-1]."

    assert validate_grounding_contract(contract_trace([read_loan(), lease], answer)) == ()


def test_the_markers_own_digits_are_not_figures():
    read = tool_step("c1", "read_document", LOAN, document_read("contract-20231115"))

    trace = contract_trace([read], "Interest is 5.25% [contract-20231115].")

    assert validate_grounding_contract(trace) == ()


# --- claims: sentences, markers after the full stop, order ---------------------------------------


def test_a_marker_after_the_full_stop_belongs_to_the_sentence_before():
    answer = "Interest is 5.25%. [loan-2023] The principal is $2,000,000. [loan-2023]"

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert [failure.claim for failure in failures] == ["The principal is $2,000,000. [loan-2023]"]


def test_bullets_are_claims_of_their_own():
    answer = "Terms:\n- principal $1,500,000 [loan-2023]\n- rent $4,000 [loan-2023]"

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert [failure.claim for failure in failures] == ["- rent $4,000 [loan-2023]"]


def test_failures_come_in_frame_order_then_claim_order():
    deep = tool_step("d1", "deep_read", LOAN[:10], document_read(deep=[(0, 10)]))
    answer = "Rent is $4,000 [nowhere-doc]. The principal is $9 [loan-2023]."

    failures = validate_grounding_contract(contract_trace([deep], answer))

    assert [(f.frame, f.rule, f.source) for f in failures] == [
        (2, "incomplete-deep-read", "loan-2023"),
        (3, "cited-source-unbacked", "nowhere-doc"),
        (3, "claim-not-served", "loan-2023"),
    ]
    assert validate_grounding_contract(contract_trace([deep], answer)) == failures


# --- collect_artifacts --------------------------------------------------------------------------


def test_collect_artifacts_lists_every_artifact_with_its_frame_and_tool():
    trace = contract_trace([search(), tool_step("x1", "clock", "12:00"), read_loan("c1")], "Ok.")

    collected = collect_artifacts(trace)

    assert [(frame, tool) for frame, tool, _ in collected] == [
        (2, "search_documents"),
        (6, "read_document"),
    ]
    assert isinstance(collected[0][2], Touch)
    assert isinstance(collected[1][2], DocumentRead)


@pytest.mark.parametrize("check", [collect_artifacts, validate_grounding_contract])
def test_an_invalid_artifact_names_its_frame(check):
    bad = tool_step("c9", "read_document", LOAN, document_read(served=(0, 99999)))
    trace = contract_trace([search(), bad], "Ok.")

    with pytest.raises(ArtifactError) as caught:
        check(trace)

    assert caught.value.frame == 4
    assert caught.value.tool == "read_document"
    assert str(caught.value).startswith("frame 4: tool 'read_document': artifact of call 'c9'")


def test_abbreviations_and_ellipses_do_not_end_a_sentence():
    answer = "Some terms, e.g. the rate... are set: principal $2,000,000 [loan-2023]."

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert [failure.claim for failure in failures] == [answer]


def test_a_marker_on_a_line_of_its_own_belongs_to_the_line_before():
    answer = "The principal is $2,000,000.\n[loan-2023]"

    failures = validate_grounding_contract(contract_trace([read_loan()], answer))

    assert [failure.claim for failure in failures] == ["The principal is $2,000,000. [loan-2023]"]


def test_a_search_result_given_as_a_json_string_is_read_per_hit():
    step = tool_step("s1", "search_documents", json.dumps({"hits": HITS}), touch(["r1", "r2"]))

    good = validate_grounding_contract(contract_trace([step], "Principal: $1,500,000 [r1]."))
    bad = validate_grounding_contract(contract_trace([step], "Rent: $4,000 per month [r1]."))

    assert good == ()
    assert rules_of(bad) == ["claim-not-served"]


def test_the_guards_denial_artifact_is_not_a_grounding_artifact():
    denial = tool_step("w1", "create_spreadsheet", "Blocked.", {"tracegrade_guard": {"a": 1}})
    other = tool_step("w1", "create_spreadsheet", "Blocked.", {"guard": {"a": 1}})

    assert collect_artifacts(contract_trace([denial], "Ok.")) == []
    with pytest.raises(ArtifactError):
        collect_artifacts(contract_trace([other], "Ok."))
