"""The agent-quality gate's pure core: checking a run, diagnosing it, aggregating repeats."""

from __future__ import annotations

from typing import Any

import pytest

from tracegrade.contract import (
    GateCase,
    GateResult,
    GateRun,
    check_run,
    compare_gate,
    render_gate,
    run_gate,
    validate_grounding_contract,
)
from tracegrade.traces import AssistantFrame, ToolCallFrame, ToolResultFrame, Trace, UserFrame

DOC = "5.1 Payment default: cured within 10 Business Days after written notice."
GROUNDED = GateCase(
    name="acme",
    kind="grounded",
    question="cure period?",
    sources=("acme",),
    facts=("10 Business Days",),
    tools=("search", "read"),
)
BAIT = GateCase(name="delta", kind="bait", question="Delta loan amount?", tools=("search",))


def touch(ids: list[str], stages: list[tuple[str, list[str]]] | None = None) -> dict[str, Any]:
    return {
        "kind": "touch",
        "tool": "search",
        "query": "q",
        "result_ids": ids,
        "stages": [{"name": n, "result_ids": r} for n, r in stages or []],
    }


def read(key: str = "acme", end: int = len(DOC)) -> dict[str, Any]:
    return {
        "kind": "document_read",
        "resource_type": "loan_agreement",
        "resource_key": key,
        "title": "Term Loan",
        "total_chars": len(DOC),
        "body_served_range": [0, end],
    }


def trace(
    answer: str, *, search: Any = None, doc: Any = None, text: str = DOC, reads: bool | None = None
) -> Trace:
    frames: list[Any] = [
        UserFrame(content="q"),
        ToolCallFrame(id="s1", name="search", args={}),
        ToolResultFrame(id="s1", ok=True, result="results", artifact=search),
    ]
    if doc is not None or reads:
        frames += [
            ToolCallFrame(id="r1", name="read", args={}),
            ToolResultFrame(id="r1", ok=True, result=text, artifact=doc),
        ]
    frames.append(AssistantFrame(content=answer))
    return Trace(id="t", task="q", frames=tuple(frames))


def checked(case: GateCase, run: Trace, **kw: Any) -> Any:
    return check_run(case, run, validate_grounding_contract(run), **kw)


GOOD = "The cure period is 10 Business Days [acme]."


def test_a_grounded_run_passes() -> None:
    result = checked(GROUNDED, trace(GOOD, search=touch(["acme"]), doc=read()))
    assert result.passed, result.problems
    assert result.diagnosis is None
    assert result.tool_path == ("search", "read")


def test_a_document_dropped_at_rerank_names_the_stage() -> None:
    stages = [
        ("title-match", ["acme", "birch"]),
        ("fused-pool", ["acme", "birch"]),
        ("rerank", ["birch"]),
    ]
    run = trace(
        "It is 10 Business Days [birch].", search=touch(["birch"], stages), doc=read("birch")
    )
    result = checked(GROUNDED, run)
    assert not result.passed
    assert result.diagnosis.kind == "wrong-document-retrieved"
    assert result.diagnosis.stage == "rerank"
    assert result.diagnosis.frame == 2
    assert "acme dropped out at stage 'rerank' (it was in 'fused-pool')" in result.diagnosis.detail


def test_a_document_never_a_candidate_names_the_first_stage() -> None:
    stages = [("title-match", ["birch"]), ("rerank", ["birch"])]
    run = trace("nothing", search=touch(["birch"], stages), doc=read("birch"))
    diagnosis = checked(GROUNDED, run).diagnosis
    assert (diagnosis.kind, diagnosis.stage) == ("wrong-document-retrieved", "title-match")
    assert "never a candidate" in diagnosis.detail


def test_a_stripped_artifact_is_missing_read_provenance() -> None:
    result = checked(GROUNDED, trace(GOOD, search=None, doc=None, reads=True))
    assert not result.passed
    assert result.diagnosis.kind == "missing-read-provenance"
    assert any(p.startswith("cited-source-unbacked") for p in result.problems)


def test_an_unserved_claim_is_missing_read_provenance() -> None:
    run = trace(GOOD, search=touch(["acme"]), doc=read(end=20), text=DOC[:20])
    result = checked(GROUNDED, run)
    assert result.diagnosis.kind == "missing-read-provenance"
    assert result.diagnosis.detail.startswith("claim-not-served (frame 5)")
    assert result.diagnosis.frame == 5


def test_wrong_tool_routing() -> None:
    result = checked(GROUNDED, trace(GOOD, search=touch(["acme"])))
    assert result.diagnosis.kind == "wrong-tool-routing"
    assert result.diagnosis.detail == "expected the tools search, read in order; ran search"
    denied = GateCase(name="d", kind="bait", question="q", denied=("write",))
    result = checked(denied, trace("It is not in retrieved documents.", search=touch([])))
    assert result.problems == ("the guard should have blocked a write call, and did not",)


def test_a_bait_run_passes_only_when_it_says_absent_and_invents_nothing() -> None:
    assert checked(
        BAIT, trace("The amount is not in retrieved documents.", search=touch([]))
    ).passed
    invented = checked(BAIT, trace("The amount is $1,750,000.", search=touch([])))
    assert invented.diagnosis.kind == "genuinely-absent"
    assert invented.problems == (
        (
            "the asked-for figure is in no document, and the answer does not say"
            " 'not in retrieved documents'"
        ),
        "the answer states $1,750,000, which no tool result or the user gave",
    )


def test_a_model_shown_artifacts_fails_first() -> None:
    result = checked(GROUNDED, trace(GOOD, search=touch(["acme"]), doc=read()), artifacts_shown=2)
    assert result.diagnosis.kind == "artifact-shown-to-model"


def run_of(answers: dict[tuple[str, int], str]) -> Any:
    def run(case: GateCase, repeat: int) -> GateRun:
        return GateRun(trace(answers[case.name, repeat], search=touch(["acme"]), doc=read()))

    return run


def test_repeats_spread_and_variation() -> None:
    absent = "It is not in retrieved documents."
    answers = {("acme", 0): GOOD, ("acme", 1): "It is 12 days [acme].", ("acme", 2): GOOD}
    answers |= {("delta", r): absent for r in range(3)}
    result = run_gate([GROUNDED, BAIT], run_of(answers), repeats=3)
    acme, delta = result.cases
    assert acme.diagnosis is not None
    assert (acme.passed, acme.pass_rate, acme.distinct_answers) == (False, 2 / 3, 2)
    assert acme.diagnosis.kind == "varies-across-repeats"
    assert acme.diagnosis.detail.startswith("failed on repeat(s) 2 of 3: claim-not-served")
    assert delta.passed
    assert result.repeat_rates == (1.0, 0.5, 1.0)
    assert result.spread == 0.5
    assert result.rate == 5 / 6
    assert not result.passed


def test_delta_against_a_stored_result() -> None:
    absent = "It is not in retrieved documents."
    good = {("acme", 0): GOOD, ("delta", 0): absent}
    bad = {("acme", 0): "It is 12 days [acme].", ("delta", 0): absent}
    baseline = GateResult.model_validate_json(
        run_gate([GROUNDED, BAIT], run_of(good), repeats=1).model_dump_json()
    )
    current = run_gate([GROUNDED, BAIT], run_of(bad), repeats=1)
    delta = compare_gate(current, baseline)
    assert (delta.rate, delta.newly_failing, delta.newly_passing) == (-0.5, ("acme",), ())
    text = render_gate(current, delta)
    assert text.splitlines() == [
        "FAIL  acme   grounded  0/1 repeats  1 distinct answer(s)",
        (
            "      missing-read-provenance: claim-not-served (frame 5): figure 12 days not in"
            " the text served from acme; state only what the cited source served, or cite the"
            " source that served it"
        ),
        "PASS  delta  bait      1/1 repeats  1 distinct answer(s)",
        (
            "1 of 2 case(s) passed; run pass rate 50.0% over 1 repeat(s) (per repeat: 50%;"
            " spread 0.0%)"
        ),
        "rate -50.0% against the baseline; newly failing: acme",
    ]


def test_run_gate_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="repeats must be at least 1"):
        run_gate([GROUNDED], run_of({}), repeats=0)
    with pytest.raises(ValueError, match="unique"):
        run_gate([GROUNDED, GROUNDED], run_of({}), repeats=1)
