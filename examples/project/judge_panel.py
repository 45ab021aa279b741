"""A judge panel as a touchpoint suite: two scripted judges over the bundled example runs.

``tracegrade.toml`` names it as ``call = "examples.project.judge_panel:judge_panel"``. Each
repeat runs a :class:`~tracegrade.judges.FakeJudge` panel (two judges, two repeats each)
over the four runs of ``examples/traces``: two are control cases with a known answer, two
are open. A case passes when the panel reached a verdict (a control: its known answer) and
no vote cited something the run never observed. The judge calls go to the cost ledger with
role ``judge``: ``gpt-4o-mini`` is priced, ``local-judge-v1`` is reported as unpriced.

Swap the fakes for ``OpenAIJudge("gpt-4o-mini")`` or ``AnthropicJudge(...)`` (the
``judges`` extra) and the rest stays as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.evals import CaseOutcome
from tracegrade.judges import (
    SPLIT,
    CaseVerdict,
    FakeJudge,
    case_from_trace,
    record_panel_cost,
    run_panel,
)
from tracegrade.traces import read_trace

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.judges import JudgeRequest, PanelCase, ScriptedReply

TOUCHPOINT = "refund_answer_panel"
TRACES = Path(__file__).resolve().parents[1] / "traces"
CONTROLS = {"read-source": "supported", "listing-guess": "unsupported"}
"""Known answers: the run that read config.py is supported; the one that guessed from a
listing is not."""
OPEN = ("grep-only", "docs-and-source")

# What each scripted judge answers per case: (verdict, citations).
REVIEWER_A = {
    "read-source": ("supported", ["billing/config.py:4"]),
    "listing-guess": ("unsupported", ["f2.3"]),
    "grep-only": ("unsupported", ["f2.1"]),
    "docs-and-source": ("supported", ["billing/config.py:4", "f4.2"]),
}
REVIEWER_B = {
    "read-source": ("supported", ["f4.4"]),
    # The listing run never read config.py: citing its line 4 is a bad citation.
    "listing-guess": ("unsupported", ["billing/config.py:4"]),
    # Reads grep's copy as the source: a bad citation, and a split panel.
    "grep-only": ("supported", ["billing/config.py:4"]),
    "docs-and-source": ("supported", ["f4.1"]),
}


def _scripted(
    answers: dict[str, tuple[str, list[str]]],
) -> Callable[[JudgeRequest], ScriptedReply]:
    def reply(request: JudgeRequest) -> ScriptedReply:
        verdict, citations = answers[request.case]
        return {
            "verdict": verdict,
            "confidence": 0.8 if verdict == "supported" else 0.7,
            "citations": citations,
            "reasoning": f"scripted: {verdict}",
        }

    return reply


def panel_cases() -> list[PanelCase]:
    """The four example runs: two controls with known answers, two open cases."""
    names = [*CONTROLS, *OPEN]
    return [
        case_from_trace(read_trace(TRACES / f"{name}.json"), expected=CONTROLS.get(name))
        for name in names
    ]


def _outcome(case: CaseVerdict, repeat: int) -> CaseOutcome:
    problems = []
    if case.control and not case.correct:
        problems.append(f"panel said {case.verdict}, the known answer is {case.expected}")
    elif case.verdict == SPLIT:
        problems.append(f"panel split {case.counts}")
    if case.bad_citations:
        problems.append(f"cited what the run never observed: {', '.join(case.bad_citations)}")
    return CaseOutcome(
        case=f"{'control' if case.control else 'open'}/{case.case}",
        outcome="failed" if problems else "passed",
        repeat=repeat,
        detail="; ".join(problems),
    )


def judge_panel(repeat: int) -> list[CaseOutcome]:
    """Run the panel once (repeat ``repeat``) and record its judge calls' cost."""
    judges = [
        FakeJudge(_scripted(REVIEWER_A), name="reviewer-a", model="gpt-4o-mini"),
        FakeJudge(_scripted(REVIEWER_B), name="reviewer-b", model="local-judge-v1"),
    ]
    result = run_panel(judges, panel_cases(), repeats=2)
    record_panel_cost(result, TOUCHPOINT)
    return [_outcome(case, repeat) for case in result.cases]
