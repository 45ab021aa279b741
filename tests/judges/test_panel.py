"""Panels: strict plurality (a tie is split), stability, mean confidence, controls, usage."""

from __future__ import annotations

import asyncio

import pytest

from tests.judges.builders import example_case, verdict
from tracegrade.errors import InputError, JudgeOutputError
from tracegrade.judges import (
    SPLIT,
    FakeJudge,
    JudgeReply,
    PanelCase,
    Rubric,
    arun_panel,
    panel_flow,
    plurality,
    run_panel,
)

THREE_WAY = Rubric("three-way", "Pick one.", ("good", "bad", "ugly"))


@pytest.mark.parametrize(
    ("votes", "expected"),
    [
        (["good"], "good"),
        (["good", "good", "bad"], "good"),
        (["good", "bad"], SPLIT),
        (["good", "good", "bad", "bad"], SPLIT),
        (["good", "good", "bad", "bad", "ugly"], SPLIT),  # top two tie: no strict plurality
        (["good", "good", "bad", "ugly"], "good"),  # a plurality, not a majority
        ([], SPLIT),
    ],
)
def test_plurality_is_strict(votes, expected) -> None:
    assert plurality(votes) == expected


def _judge(name: str, verdicts: list[str], confidence: float = 0.8) -> FakeJudge:
    return FakeJudge([verdict(v, confidence) for v in verdicts], name=name, model=f"{name}-model")


def test_k_judges_by_n_repeats_per_case_give_verdict_votes_and_stability() -> None:
    cases = [PanelCase("c1", "first"), PanelCase("c2", "second")]
    # Calls go case by case, repeat by repeat, judge by judge.
    a = _judge("a", ["supported", "supported", "unsupported", "unsupported"], 0.9)
    b = _judge("b", ["supported", "unsupported", "unsupported", "unsupported"], 0.5)
    c = _judge("c", ["supported", "supported", "supported", "unsupported"], 0.7)
    result = run_panel([a, b, c], cases, repeats=2)
    first, second = result.cases
    assert first.verdict == "supported"
    assert first.counts == {"supported": 5, "unsupported": 1}
    assert first.stability == 2
    assert [(v.judge, v.repeat, v.verdict) for v in first.votes] == [
        ("a", 0, "supported"),
        ("b", 0, "supported"),
        ("c", 0, "supported"),
        ("a", 1, "supported"),
        ("b", 1, "unsupported"),
        ("c", 1, "supported"),
    ]
    assert second.verdict == "unsupported"
    assert second.counts == {"supported": 1, "unsupported": 5}
    assert first.mean_confidence == pytest.approx((0.9 + 0.5 + 0.7) / 3)
    assert result.unstable_cases == 2
    assert result.split_cases == 0
    assert len(result.calls) == 12
    assert [len(judge.requests) for judge in (a, b, c)] == [4, 4, 4]
    assert a.requests[0].case == "c1"
    assert a.requests[2].case == "c2"


def test_a_unanimous_case_has_stability_1_and_a_tie_is_split() -> None:
    cases = [PanelCase("agreed", "x"), PanelCase("tied", "y")]
    a = _judge("a", ["supported", "supported"])
    b = _judge("b", ["supported", "unsupported"])
    result = run_panel([a, b], cases)
    agreed, tied = result.cases
    assert (agreed.verdict, agreed.stability) == ("supported", 1)
    assert (tied.verdict, tied.stability) == (SPLIT, 2)
    assert result.split_cases == 1
    assert result.unstable_cases == 1


def test_control_accuracy_counts_a_split_control_as_wrong() -> None:
    cases = [
        PanelCase("right", "x", expected="supported"),
        PanelCase("wrong", "y", expected="supported"),
        PanelCase("split", "z", expected="unsupported"),
        PanelCase("open", "w"),
    ]
    a = _judge("a", ["supported", "unsupported", "unsupported", "supported"])
    b = _judge("b", ["supported", "unsupported", "supported", "supported"])
    result = run_panel([a, b], cases)
    assert [(c.case, c.control, c.correct) for c in result.cases] == [
        ("right", True, True),
        ("wrong", True, False),
        ("split", True, False),
        ("open", False, None),
    ]
    assert result.controls == 3
    assert result.controls_correct == 1
    assert result.control_accuracy == pytest.approx(1 / 3)


def test_no_controls_means_no_accuracy_rather_than_zero() -> None:
    result = run_panel([_judge("a", ["supported"])], [PanelCase("open", "x")])
    assert result.controls == 0
    assert result.control_accuracy is None


def test_every_call_keeps_its_usage_for_the_cost_ledger() -> None:
    a = FakeJudge([verdict()], name="a", model="gpt-4o-mini", input_tokens=120, output_tokens=30)
    b = FakeJudge([verdict()], name="b", model="local-judge-v1", latency_seconds=0.25)
    result = run_panel([a, b], [PanelCase("c", "material")])
    first, second = result.calls
    assert (first.judge, first.model, first.case, first.repeat) == ("a", "gpt-4o-mini", "c", 0)
    assert (first.input_tokens, first.output_tokens) == (120, 30)
    assert second.model == "local-judge-v1"
    assert second.latency_seconds == 0.25
    assert second.input_tokens > 0  # estimated from the prompt's length


def test_a_malformed_reply_stops_the_panel_loudly() -> None:
    good = _judge("good", ["supported", "supported"])
    bad = FakeJudge([verdict(), '{"verdict": "supported"}'], name="bad")
    with pytest.raises(JudgeOutputError, match=r"case c2: judge 'bad': the reply lacks"):
        run_panel([good, bad], [PanelCase("c1", "x"), PanelCase("c2", "y")])


def test_a_verdict_outside_the_rubric_set_is_not_counted_as_a_vote() -> None:
    judge = FakeJudge([verdict("bad")], name="a")
    with pytest.raises(JudgeOutputError, match="verdict 'bad' is not one of supported"):
        run_panel([judge], [PanelCase("c", "x")])
    assert (
        run_panel([FakeJudge([verdict("bad")], name="a")], [PanelCase("c", "x")], rubric=THREE_WAY)
        .cases[0]
        .verdict
        == "bad"
    )


@pytest.mark.parametrize(
    ("judges", "cases", "repeats", "message"),
    [
        ([], [PanelCase("c", "x")], 1, "at least one judge and one repeat"),
        (["a"], [PanelCase("c", "x")], 0, "at least one judge and one repeat"),
        (["a", "a"], [PanelCase("c", "x")], 1, "judges a appear twice"),
        (["a"], [PanelCase("c", "x"), PanelCase("c", "y")], 1, "case ids c appear twice"),
        (["a"], [PanelCase("c", "x", expected="maybe")], 1, "expects 'maybe'"),
    ],
)
def test_a_panel_that_cannot_run_is_bad_input(judges, cases, repeats, message) -> None:
    with pytest.raises(InputError, match=message):
        run_panel([FakeJudge([], name=n) for n in judges], cases, repeats=repeats)


def test_a_scripted_judge_that_runs_out_says_how_many_it_had() -> None:
    with pytest.raises(InputError, match="has 1 scripted replies and was asked for reply 2"):
        run_panel([_judge("a", ["supported"])], [PanelCase("c", "x")], repeats=2)


def test_the_flow_is_pure_and_yields_each_cases_calls_together() -> None:
    cases = [example_case("read-source", expected="supported"), example_case("grep-only")]
    flow = panel_flow(["x", "y"], cases, repeats=2)
    asked = []
    text = '{"verdict": "supported", "confidence": 1, "citations": [], "reasoning": ""}'
    batch = next(flow)
    try:
        while True:
            asked.append([(c.judge, c.repeat, c.request.case) for c in batch])
            batch = flow.send([JudgeReply("any", call.request, text, "m") for call in batch])
    except StopIteration as stop:
        result = stop.value
    assert asked == [
        [
            (0, 0, "read-source"),
            (1, 0, "read-source"),
            (0, 1, "read-source"),
            (1, 1, "read-source"),
        ],
        [(0, 0, "grep-only"), (1, 0, "grep-only"), (0, 1, "grep-only"), (1, 1, "grep-only")],
    ]
    assert [(v.judge, v.repeat) for v in result.cases[0].votes] == [
        ("x", 0),
        ("y", 0),
        ("x", 1),
        ("y", 1),
    ]
    assert result.control_accuracy == 1.0


def test_a_driver_that_drops_a_reply_is_caught() -> None:
    flow = panel_flow(["x", "y"], [PanelCase("c", "x")])
    batch = next(flow)
    text = '{"verdict": "supported", "confidence": 1, "citations": [], "reasoning": ""}'
    with pytest.raises(ValueError, match="case 'c': 2 calls were asked, 1 replies sent"):
        flow.send([JudgeReply("any", batch[0].request, text, "m")])


def _script() -> list[FakeJudge]:
    return [
        _judge("a", ["supported", "supported", "unsupported", "supported"], 0.9),
        _judge("b", ["supported", "unsupported", "unsupported", "unsupported"], 0.4),
    ]


def test_the_async_driver_gives_what_the_sync_one_gives() -> None:
    cases = [PanelCase("c1", "x", expected="supported"), PanelCase("c2", "y")]
    sync = run_panel(_script(), cases, repeats=2)
    concurrent = asyncio.run(arun_panel(_script(), cases, repeats=2))
    assert concurrent == sync
    assert [c.verdict for c in sync.cases] == ["supported", "unsupported"]


class CountingJudge:
    """An async judge that records how many of its calls were in flight at once."""

    def __init__(self, name: str, flight: list[int]) -> None:
        self.name = name
        self.flight = flight

    async def acomplete(self, request):
        self.flight[0] += 1
        self.flight[1] = max(self.flight[1], self.flight[0])
        await asyncio.sleep(0)  # let the other calls of the case start
        self.flight[0] -= 1
        text = '{"verdict": "supported", "confidence": 1, "citations": [], "reasoning": ""}'
        return JudgeReply(self.name, request, text, "m")


@pytest.mark.parametrize(("concurrency", "most"), [(8, 6), (2, 2), (1, 1)])
def test_the_async_driver_keeps_a_cases_calls_in_flight_together(concurrency, most) -> None:
    flight = [0, 0]  # now, most
    judges = [CountingJudge(name, flight) for name in ("a", "b", "c")]
    result = asyncio.run(
        arun_panel(judges, [PanelCase("c", "x")], repeats=2, concurrency=concurrency)
    )
    assert flight[1] == most
    assert result.cases[0].counts == {"supported": 6}


def test_the_async_driver_needs_some_concurrency() -> None:
    with pytest.raises(ValueError, match="concurrency must be at least 1"):
        asyncio.run(arun_panel(_script(), [PanelCase("c", "x")], concurrency=0))
