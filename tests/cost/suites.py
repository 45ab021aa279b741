"""Suite functions that make (recorded) model calls, importable by worker processes."""

from __future__ import annotations

from tracegrade.cost import Usage, record_ai_call
from tracegrade.evals import CaseOutcome

MILLION = 1_000_000


def agent_and_judge(repeat: int) -> list[CaseOutcome]:
    """Per repeat: 2 agent calls at $0.15, 1 unpriced agent call, 1 judge call at $0.80."""
    record_ai_call(None, "gpt-4o-mini", Usage(MILLION, 0), 0.1)
    record_ai_call(None, "openai/gpt-4o-mini-2024-07-18", Usage(MILLION, 0), 0.1)
    record_ai_call(None, "house-llm-7b", Usage(500, 50), 0.1)
    record_ai_call(None, "claude-3-5-haiku-20241022", Usage(MILLION, 0), 0.2, role="judge")
    return [CaseOutcome(case="c1", outcome="passed"), CaseOutcome(case="c2", outcome="passed")]


def ten_cents(repeat: int) -> list[CaseOutcome]:
    """One gpt-4.1-nano call of a million input tokens ($0.10) per repeat."""
    record_ai_call(None, "gpt-4.1-nano", Usage(MILLION, 0), 0.1)
    return [CaseOutcome(case="c1", outcome="passed")]


def unpriced_only(repeat: int) -> list[CaseOutcome]:
    """One call of a model no table prices."""
    record_ai_call(None, "house-llm-7b", Usage(100, 10), 0.1)
    return [CaseOutcome(case="c1", outcome="passed")]


def ten_cents_slowly(repeat: int) -> list[CaseOutcome]:
    """As :func:`ten_cents`, taking 0.3 s after the call; marks that it started.

    The mark is a file in ``$TRACEGRADE_TEST_MARKS``: a unit that started made its (paid)
    call, so a stop must keep its result and its cost.
    """
    import os  # noqa: PLC0415 - only this suite needs them
    import time  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    Path(os.environ["TRACEGRADE_TEST_MARKS"], f"{repeat}.started").touch()
    record_ai_call(None, "gpt-4.1-nano", Usage(MILLION, 0), 0.1)
    time.sleep(0.3)
    return [CaseOutcome(case="c1", outcome="passed")]
