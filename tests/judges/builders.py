"""Shared builders for the judges tests: replies, verdict JSON, the example traces."""

from __future__ import annotations

import json
from pathlib import Path

from tracegrade.judges import (
    ANSWER_SUPPORT_RUBRIC,
    JudgeReply,
    PanelCase,
    Rubric,
    case_from_trace,
    verdict_request,
)
from tracegrade.traces import Trace, read_trace

REPO = Path(__file__).resolve().parents[2]
TRACES = REPO / "examples" / "traces"


def example_trace(name: str) -> Trace:
    """One of the bundled example traces (examples/traces/NAME.json)."""
    return read_trace(TRACES / f"{name}.json")


def example_case(name: str, expected: str | None = None) -> PanelCase:
    return case_from_trace(example_trace(name), expected=expected)


def verdict(
    value: str = "supported",
    confidence: float = 0.9,
    citations: list[str] | None = None,
    reasoning: str = "the tool output shows it",
) -> dict[str, object]:
    return {
        "verdict": value,
        "confidence": confidence,
        "citations": citations or [],
        "reasoning": reasoning,
    }


def reply(
    text: str | dict[str, object],
    *,
    judge: str = "judge-a",
    case: str = "case-1",
    rubric: Rubric = ANSWER_SUPPORT_RUBRIC,
) -> JudgeReply:
    """A reply to a verdict request, with the given raw text (a dict is sent as JSON)."""
    raw = text if isinstance(text, str) else json.dumps(text)
    request = verdict_request(case, "material", rubric)
    return JudgeReply(judge=judge, request=request, text=raw, model="test-model")
