"""Signals: builders from the engine's results, fingerprints, and patterns (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tracegrade.contract import ContractFailure
from tracegrade.errors import InputError
from tracegrade.guard import check_tool_call, parse_policy
from tracegrade.proposals import (
    case_signal,
    contract_signal,
    find_patterns,
    fingerprint,
    guard_signal,
    record_signal,
)
from tracegrade.store import CaseResultRecord, SignalRecord, Store
from tracegrade.traces import ToolCallFrame, UserFrame

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


def result(detail: str, case: str = "c1", run: str = "run-1") -> CaseResultRecord:
    return CaseResultRecord(
        run_id=run,
        touchpoint="tp",
        case_id=case,
        outcome="failed",
        payload={"unit": "u", "detail": detail},
    )


def test_a_gate_failure_is_identified_by_its_diagnosis_with_numbers_masked() -> None:
    first = case_signal(result("answer cites no source (frame 3)", "a", "run-1"), "gate")
    second = case_signal(result("answer cites no source (frame 12)", "b", "run-2"), "callable")
    other = case_signal(result("answer was too long", "a"), "gate")
    assert first.kind == second.kind == "gate_failure"
    assert first.payload["diagnosis"] == "answer cites no source (frame #)"
    assert first.fingerprint == second.fingerprint  # other case, run and frame: same problem
    assert other.fingerprint != first.fingerprint
    assert (first.touchpoint, first.run_id, first.payload["case"]) == ("tp", "run-1", "a")


def test_a_guard_suite_failure_is_identified_by_its_tool() -> None:
    one = case_signal(result("create_spreadsheet: unsourced $4,000, 12%"), "guard")
    two = case_signal(result("create_spreadsheet: unsourced 7"), "guard")
    other = case_signal(result("send_certificate: unsourced 7"), "guard")
    assert (one.kind, one.payload["tool"]) == ("guard_block", "create_spreadsheet")
    assert one.fingerprint == two.fingerprint != other.fingerprint


def test_a_contract_suite_failure_is_identified_by_its_rules() -> None:
    detail = "claim-not-served: [k1] was not served; cited-source-unbacked: [k2] unread"
    signal = case_signal(result(detail), "contract")
    again = case_signal(result("cited-source-unbacked: x; claim-not-served: y", "c9"), "contract")
    assert signal.kind == "contract_failure"
    assert signal.payload["rule"] == "cited-source-unbacked,claim-not-served"
    assert signal.fingerprint == again.fingerprint


def test_a_blocked_guard_call_becomes_a_signal_with_its_tool_and_figures() -> None:
    policy = parse_policy({"tools": {"send_certificate": {"scan": ["amount"]}}})
    call = ToolCallFrame(id="w1", name="send_certificate", args={"amount": "$9,999"})
    decision = check_tool_call(call, [UserFrame(content="Send the certificate.")], policy)
    signal = guard_signal("certificates", decision, run_id="run-7")
    assert (signal.kind, signal.run_id) == ("guard_block", "run-7")
    assert signal.payload["tool"] == "send_certificate"
    assert signal.payload["figures"] == ["$9,999"]
    assert signal.fingerprint == fingerprint("guard_block", {"tool": "send_certificate"})
    allowed = check_tool_call(
        ToolCallFrame(id="w2", name="send_certificate", args={"amount": "n/a"}), [], policy
    )
    with pytest.raises(InputError, match="nothing to signal"):
        guard_signal("certificates", allowed)


def test_a_contract_violation_becomes_a_signal_identified_by_its_rule() -> None:
    failure = ContractFailure(
        rule="incomplete-deep-read", frame=4, claim=None, source="doc-1", detail="read 10%"
    )
    signal = contract_signal("search", failure)
    later = contract_signal(
        "search",
        ContractFailure(rule="incomplete-deep-read", frame=9, claim=None, source="d2", detail="?"),
    )
    assert (signal.kind, signal.payload["rule"], signal.payload["frame"]) == (
        "contract_failure",
        "incomplete-deep-read",
        4,
    )
    assert signal.fingerprint == later.fingerprint


def test_record_signal_stores_it_and_refuses_bad_kinds(store: Store) -> None:
    number = record_signal(store, "tp", "feedback", {"message": "wrong fee"}, run_id="r1")
    stored = store.signals("tp")
    assert [s.id for s in stored] == [number]
    assert stored[0].fingerprint == fingerprint("feedback", {"message": "wrong fee"})
    given = record_signal(store, "tp", "feedback", {"message": "x"}, fingerprint="mine")
    assert store.signals("tp")[-1].id == given
    assert store.signals("tp")[-1].fingerprint == "mine"
    with pytest.raises(InputError, match="unknown signal kind 'bug'"):
        record_signal(store, "tp", "bug", {"message": "x"})  # type: ignore[arg-type]
    with pytest.raises(InputError, match="needs a message"):
        record_signal(store, "tp", "feedback", {"message": " "})
    assert len(store.signals()) == 2


def signal(
    number: int, touchpoint: str, print_: str, minutes: int, **extra: object
) -> SignalRecord:
    return SignalRecord.model_validate(
        {
            "id": number,
            "touchpoint": touchpoint,
            "kind": "gate_failure",
            "fingerprint": print_,
            "payload": {"n": number},
            "recorded_at": T0 + timedelta(minutes=minutes),
            **extra,
        }
    )


def test_patterns_group_open_signals_most_frequent_first() -> None:
    signals = [
        signal(1, "b", "x", 5),
        signal(2, "a", "y", 1),
        signal(3, "b", "x", 2),
        signal(4, "a", "z", 3),
        signal(5, "b", "x", 9, processed=True),
        signal(6, "a", "y", 4),
    ]
    patterns = find_patterns(signals)
    assert [(p.touchpoint, p.fingerprint, p.count, p.signal_ids) for p in patterns] == [
        ("a", "y", 2, (2, 6)),
        ("b", "x", 2, (3, 1)),
        ("a", "z", 1, (4,)),
    ]
    b = patterns[1]
    assert (b.first_seen, b.last_seen, b.example) == (
        T0 + timedelta(minutes=2),
        T0 + timedelta(minutes=5),
        {"n": 1},
    )
    assert find_patterns(reversed(signals)) == patterns  # order of input does not matter
    assert find_patterns([]) == []
