"""The legal assistant through its gate: green as shipped, red when the split is broken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("langgraph", reason="the example agent needs the 'langgraph' extra")

from langchain_core.messages import HumanMessage, ToolMessage

from examples.legal_assistant import gate
from examples.legal_assistant.cases import CASES
from examples.legal_assistant.graph import BUDGETS, build_agent
from tracegrade.contract import validate_grounding_contract
from tracegrade.contract.langgraph import GroundingSplit, read_transcript

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

    from tracegrade.guard.langgraph import ScriptedChatModel

NAMES = [case.name for case in CASES]
READING = [name for name in NAMES if name != "delta-loan-amount"]  # cases that cite a read


class Models:
    """Hands out scripted models and keeps them, to check every call they received."""

    def __init__(self) -> None:
        self.made: list[ScriptedChatModel] = []

    def __call__(self, case: Any) -> ScriptedChatModel:
        self.made.append(gate.scripted_model(case))
        return self.made[-1]

    def artifacts_received(self) -> int:
        assert self.made
        return sum(
            1
            for model in self.made
            for call in model.received
            for message in call
            if isinstance(message, ToolMessage) and message.artifact is not None
        )


def outcome(result: Any) -> dict[str, str | None]:
    return {c.name: None if c.passed else c.diagnosis.kind for c in result.cases}


def test_the_gate_passes_every_case_and_no_artifact_reaches_the_model() -> None:
    assert sum(c.kind == "grounded" for c in CASES) == sum(c.kind == "bait" for c in CASES) == 3
    models = Models()
    result = gate.run(repeats=2, model=models)
    assert outcome(result) == dict.fromkeys(NAMES)
    assert (result.rate, result.spread) == (1.0, 0.0)
    assert len(models.made) == 12
    assert models.artifacts_received() == 0


class StrippingSplit(GroundingSplit):
    """The split with its artifacts thrown away: content still capped, no proof kept."""

    def attach(self, message: ToolMessage) -> ToolMessage:
        return super().attach(message).model_copy(update={"artifact": None})


def test_the_gate_goes_red_when_artifacts_are_stripped() -> None:
    models = Models()
    result = gate.run(repeats=1, model=models, split=StrippingSplit(BUDGETS))
    assert outcome(result) == {
        name: None if name == "delta-loan-amount" else "missing-read-provenance" for name in NAMES
    }
    assert models.artifacts_received() == 0


def test_the_gate_goes_red_when_the_model_is_shown_artifacts() -> None:
    models = Models()
    result = gate.run(repeats=1, model=models, project=False)
    assert outcome(result) == dict.fromkeys(NAMES, "artifact-shown-to-model")
    assert models.artifacts_received() > 0


def test_the_gate_goes_red_on_a_partial_deep_read() -> None:
    models = Models()
    split = GroundingSplit({**BUDGETS, "read_knowledge_document": 700})
    result = gate.run(repeats=1, model=models, split=split)
    assert outcome(result) == {
        name: None if name == "delta-loan-amount" else "missing-read-provenance" for name in NAMES
    }
    details = {c.name: c.diagnosis.detail for c in result.cases if c.diagnosis}
    assert details["acme-payment-cure"].startswith("incomplete-deep-read (frame 6)")
    assert details["harbor-sale-notice"].startswith("claim-not-served (frame 7)")
    assert models.artifacts_received() == 0


def run_case(name: str) -> tuple[Any, Any, ScriptedChatModel]:
    case = next(c for c in CASES if c.name == name)
    model = gate.scripted_model(case)
    app, desk = build_agent(model)
    config: RunnableConfig = {"configurable": {"thread_id": name}}
    app.invoke({"messages": [HumanMessage(case.question)]}, config)
    return read_transcript(app.get_state(config)), desk, model


def test_the_cure_period_spreadsheet_is_written_from_read_sections() -> None:
    trace, desk, model = run_case("cure-periods-spreadsheet")
    assert [sheet["file_name"] for sheet in desk.written] == ["cure-periods.xlsx"]
    assert desk.written[0]["sheets"][0]["rows"] == [
        ["Acme Fabrication term loan", "10 Business Days"],
        ["Birch Logistics term loan", "5 Business Days"],
        ["Harbor View commercial mortgage", "30 days"],
    ]
    assert validate_grounding_contract(trace) == ()
    reads = [f.artifact for f in trace.frames if getattr(f, "artifact", None)][1:]
    assert [(a["resource_key"], a["read_evidence"]) for a in reads] == [
        ("loan-2023-acme", [[0, 1056]]),
        ("loan-2021-birch", [[0, 990]]),
        ("mortgage-2022-harbor", [[0, 1062]]),
    ]
    assert all(
        not isinstance(m, ToolMessage) or m.artifact is None for c in model.received for m in c
    )


def test_an_absent_loan_amount_is_blocked_and_reported() -> None:
    trace, desk, model = run_case("delta-loan-amount")
    assert desk.written == []
    denial = model.received[2][-1]
    assert isinstance(denial, ToolMessage)
    assert denial.status == "error"
    assert "$1,750,000" in denial.text
    assert "not in retrieved documents" in trace.final_answer
    assert all(
        not isinstance(m, ToolMessage) or m.artifact is None for c in model.received for m in c
    )


def test_the_command_line_reports_and_compares(tmp_path, capsys) -> None:
    saved = tmp_path / "result.json"
    assert gate.main(["--repeats", "1", "--save", str(saved)]) == 0
    first = capsys.readouterr().out.splitlines()
    assert first[-1] == "rate +0.0% against the baseline"  # the stored baseline.json
    assert first[-2] == (
        "6 of 6 case(s) passed; run pass rate 100.0% over 1 repeat(s) (per repeat: 100%;"
        " spread 0.0%)"
    )
    assert (
        gate.main(["--repeats", "1", "--baseline", str(saved), "--case", "acme-payment-cure"]) == 0
    )
    assert capsys.readouterr().out.splitlines()[-1] == (
        "rate +0.0% against the baseline; dropped: harbor-sale-notice,"
        " cure-periods-spreadsheet, delta-loan-amount, birch-interest-rate,"
        " cobalt-prepayment-fee"
    )


def test_a_bad_baseline_is_exit_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"cases": 3}', encoding="utf-8")
    assert gate.main(["--repeats", "1", "--baseline", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"gate: error: {bad}: not a readable gate result")


def test_a_bad_artifact_is_exit_2_naming_the_frame(monkeypatch, capsys) -> None:
    class BadSplit(GroundingSplit):
        def attach(self, message: ToolMessage) -> ToolMessage:
            served = super().attach(message)
            return served.model_copy(update={"artifact": {**served.artifact, "total_chars": -1}})

    real = gate.run_case
    monkeypatch.setattr(
        gate, "run_case", lambda *a, **k: real(*a, **{**k, "split": BadSplit(BUDGETS)})
    )
    assert gate.main(["--repeats", "1", "--case", "acme-payment-cure"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gate: error: frame 3: tool 'search_knowledge': artifact of call 's1'")
