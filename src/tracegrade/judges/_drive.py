"""Drivers of the panel flow: one call at a time, or each case's calls concurrently."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tracegrade.judges._panel import panel_flow
from tracegrade.judges._rubrics import ANSWER_SUPPORT_RUBRIC, Rubric

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.judges._cases import PanelCase
    from tracegrade.judges._model import AsyncJudge, Judge, JudgeReply
    from tracegrade.judges._panel import PanelCall, PanelResult

__all__ = ["arun_panel", "run_panel"]


def run_panel(
    judges: Sequence[Judge],
    cases: Sequence[PanelCase],
    *,
    repeats: int = 1,
    rubric: Rubric = ANSWER_SUPPORT_RUBRIC,
) -> PanelResult:
    """Run K judges x N repeats over every case, one call at a time.

    Args:
        judges: The panel; names must be unique.
        cases: Open and control cases (:func:`~tracegrade.judges.case_from_trace`).
        repeats: Calls per judge and case.
        rubric: What the judges decide.

    Raises:
        InputError: See :func:`~tracegrade.judges.panel_flow`.
        JudgeOutputError: A judge's reply is malformed; nothing is defaulted.
        InfrastructureError: A provider failed for a reason worth retrying.
    """
    flow = panel_flow([judge.name for judge in judges], cases, repeats=repeats, rubric=rubric)
    try:
        batch = next(flow)
        while True:
            batch = flow.send([judges[call.judge].complete(call.request) for call in batch])
    except StopIteration as stop:
        result: PanelResult = stop.value
        return result


async def arun_panel(
    judges: Sequence[AsyncJudge],
    cases: Sequence[PanelCase],
    *,
    repeats: int = 1,
    rubric: Rubric = ANSWER_SUPPORT_RUBRIC,
    concurrency: int = 8,
) -> PanelResult:
    """:func:`run_panel` with each case's K x N calls in flight together (at most ``concurrency``).

    The result is the one :func:`run_panel` gives for the same replies.

    Raises:
        ValueError: ``concurrency`` is below 1.
        InputError: See :func:`~tracegrade.judges.panel_flow`.
        JudgeOutputError: A judge's reply is malformed; nothing is defaulted.
        InfrastructureError: A provider failed for a reason worth retrying.
    """
    if concurrency < 1:
        msg = f"concurrency must be at least 1, got {concurrency}"
        raise ValueError(msg)
    limit = asyncio.Semaphore(concurrency)

    async def ask(call: PanelCall) -> JudgeReply:
        async with limit:
            return await judges[call.judge].acomplete(call.request)

    flow = panel_flow([judge.name for judge in judges], cases, repeats=repeats, rubric=rubric)
    try:
        batch = next(flow)
        while True:
            batch = flow.send(await asyncio.gather(*(ask(call) for call in batch)))
    except StopIteration as stop:
        result: PanelResult = stop.value
        return result
