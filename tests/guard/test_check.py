"""check_tool_call(): the runtime figure gate, its sources and its one error message."""

from __future__ import annotations

from typing import Any

import pytest

from tracegrade.guard import (
    NOT_IN_DOCUMENTS,
    GuardHistory,
    GuardPolicy,
    check_tool_call,
    parse_policy,
)
from tracegrade.traces import (
    AssistantFrame,
    Frame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
)

POLICY = parse_policy(
    {
        "sources": {"calculators": ["run_calculation"]},
        "tools": {
            "create_spreadsheet": {"scan": ["sheets[*].rows[*][*]"]},
            "send_certificate": {"scan": ["amount"]},
        },
    }
)


def sheet(*cells: Any, title: str = "Loan 2023") -> ToolCallFrame:
    return ToolCallFrame(
        id="w1",
        name="create_spreadsheet",
        args={
            "file_name": "loan-2023.xlsx",
            "sheets": [{"header": [title], "rows": [list(cells)]}],
        },
    )


def lookup(call_id: str, result: Any, tool: str = "search_documents") -> list[Frame]:
    return [
        ToolCallFrame(id=call_id, name=tool, args={"query": "loan"}),
        ToolResultFrame(id=call_id, ok=True, result=result),
    ]


def test_a_figure_returned_by_a_tool_is_sourced_in_another_written_form():
    history: list[Frame] = [
        UserFrame(content="Summarise the loan."),
        *lookup("s1", "The loan is $1.5 million."),
    ]

    decision = check_tool_call(sheet("Principal", "$1,500,000"), history, POLICY)

    assert decision.action == "allow"
    assert decision.checked == 1
    assert decision.evidence == ("f2",)
    assert decision.message is None


def test_a_figure_no_tool_returned_is_denied_with_one_message_naming_tool_and_figures():
    history: list[Frame] = [
        UserFrame(content="Summarise the loan."),
        *lookup("s1", "The loan is $1.5 million."),
    ]

    decision = check_tool_call(
        sheet("$1,500,000", "$2,750,000", "cure period: 30 days"), history, POLICY
    )

    assert decision.action == "deny"
    assert [(u.figure.raw, u.location) for u in decision.unsourced] == [
        ("$2,750,000", "sheets[0].rows[0][1]"),
        ("30 days", "sheets[0].rows[0][2]"),
    ]
    assert decision.message is not None
    assert decision.message.startswith("create_spreadsheet was not run: 2 figures")
    assert "$2,750,000 (sheets[0].rows[0][1])" in decision.message
    assert "30 days" in decision.message
    assert "run_calculation" in decision.message
    assert f'"{NOT_IN_DOCUMENTS}"' in decision.message


def test_the_human_message_is_a_source():
    history: list[Frame] = [UserFrame(content="Refund them 2,500 euros please.")]
    assert check_tool_call(sheet("2500"), history, POLICY).allowed


def test_assistant_prose_is_never_a_source():
    history: list[Frame] = [
        UserFrame(content="Write the sheet."),
        AssistantFrame(content="The total is $4,200."),
    ]
    decision = check_tool_call(sheet("$4,200"), history, POLICY)
    assert not decision.allowed


def test_the_pending_calls_own_arguments_are_never_a_source():
    # The title (outside the scanned slice) says 2023; the cell must still be sourced.
    history: list[Frame] = [UserFrame(content="Write the sheet.")]
    decision = check_tool_call(sheet("2023", title="Figures for 2023"), history, POLICY)
    assert [u.figure.raw for u in decision.unsourced] == ["2023"]


def test_values_outside_the_scanned_slices_are_never_checked():
    history: list[Frame] = [UserFrame(content="Write the sheet.")]
    decision = check_tool_call(sheet("Principal", title="Loan 2023 §8.22"), history, POLICY)
    assert decision.allowed
    assert decision.checked == 0


def test_the_system_prompt_counts_only_when_the_policy_opts_in():
    history: list[Frame] = [
        SystemFrame(content="Certificates are $50 per passenger."),
        UserFrame(content="Hi"),
    ]
    call = ToolCallFrame(id="c9", name="send_certificate", args={"user_id": "u_1234", "amount": 50})
    opted_in = GuardPolicy.model_validate({**POLICY.model_dump(), "sources": {"system": True}})

    assert not check_tool_call(call, history, POLICY).allowed
    assert check_tool_call(call, history, opted_in).allowed


def test_a_bare_number_in_a_scanned_slice_is_a_figure_whatever_its_size():
    history: list[Frame] = [UserFrame(content="Send the certificate.")]
    call = ToolCallFrame(id="c9", name="send_certificate", args={"amount": 50})
    decision = check_tool_call(call, history, POLICY)
    assert [(u.figure.value, u.location) for u in decision.unsourced] == [("50", "amount")]


def test_a_derived_figure_counts_once_a_calculator_returned_it():
    history: list[Frame] = [
        UserFrame(content="Add the two fees."),
        *lookup("s1", {"fees": [{"amount": 1200}, {"amount": 3400}]}),
    ]
    total = sheet("Total", "$4,600")
    assert not check_tool_call(total, history, POLICY).allowed

    history += lookup("k1", {"result": 4600}, tool="run_calculation")
    assert check_tool_call(total, history, POLICY).allowed


def test_a_guarded_tools_own_result_does_not_source_the_next_write():
    first = sheet("Total", "$9,999")
    echo = ToolResultFrame(id="w1", ok=True, result={"written": [["Total", "$9,999"]], "id": 4242})
    history: list[Frame] = [UserFrame(content="Write it."), first, echo]
    assert not check_tool_call(sheet("$9,999"), history, POLICY).allowed
    # What the write adds (a new sheet id) is still something a tool returned.
    assert check_tool_call(sheet(4242), history, POLICY).allowed


def test_a_tool_the_policy_does_not_guard_is_allowed_unchecked():
    call = ToolCallFrame(id="x", name="search_documents", args={"query": "$7,777,777"})
    decision = check_tool_call(call, [UserFrame(content="go")], POLICY)
    assert (decision.action, decision.checked) == ("allow", 0)


def test_a_failed_tool_result_is_not_a_source():
    # Errors echo the failed call's arguments ("amount $2,000 exceeds ..."); counting them
    # would let a retry of an invented figure source itself.
    history: list[Frame] = [
        ToolCallFrame(id="a", name="transfer", args={"amount": "$2,000"}),
        ToolResultFrame(id="a", ok=False, result={"ok": False, "error": "amount $2,000 too high"}),
    ]
    assert not check_tool_call(sheet("$2,000"), history, POLICY).allowed


def test_an_incremental_history_decides_like_a_rebuilt_one():
    frames: list[Frame] = [UserFrame(content="Build the sheet.")]
    for index in range(50):
        frames += lookup(f"s{index}", f"Invoice {index}: amount ${1000 + index:,}")
    history = GuardHistory(POLICY)
    for frame in frames:
        history.add(frame)

    for cells in (("$1,049",), ("$1,050",), ("$1,000", "$1,025")):
        call = sheet(*cells)
        incremental = check_tool_call(call, history, POLICY)
        rebuilt = check_tool_call(call, frames, POLICY)
        assert incremental == rebuilt
    assert check_tool_call(sheet("$1,049"), history).allowed
    assert not check_tool_call(sheet("$1,050"), history).allowed


def test_frames_without_a_policy_is_a_usage_error():
    with pytest.raises(TypeError, match="needs a policy"):
        check_tool_call(sheet("1"), [UserFrame(content="x")])


TRANSFER = parse_policy({"tools": {"transfer_to_human_agents": {"scan": ["summary"]}}})
# A tau-bench airline reservation as get_reservation_details returns it: a JSON string.
RESERVATION = (
    '{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT170", "date": "2024-05-22",'
    ' "price": 466.75}, {"flight_number": "HAT022", "price": 280}], "total_baggages": 3,'
    ' "payment_history": [{"payment_id": "gift_card_3576581", "amount": 746.75}]}'
)


def transfer(summary: str) -> ToolCallFrame:
    return ToolCallFrame(id="t1", name="transfer_to_human_agents", args={"summary": summary})


def test_a_summary_amount_the_tool_returned_as_a_json_number_is_sourced():
    history = lookup("r1", RESERVATION, tool="get_reservation_details")
    summary = "User wants a refund of $466.75 and $280 (paid $746.75) on reservation 4WQ150."
    decision = check_tool_call(transfer(summary), history, TRANSFER)
    assert decision.allowed, decision.message
    assert decision.evidence == ("f1",)


def test_a_summary_amount_only_a_count_or_id_holds_is_denied():
    history = lookup("r1", RESERVATION, tool="get_reservation_details")
    decision = check_tool_call(
        transfer("Refund $3 per bag and $170 for HAT170."), history, TRANSFER
    )
    assert not decision.allowed
    assert [item.figure.raw for item in decision.unsourced] == ["$3", "$170"]
