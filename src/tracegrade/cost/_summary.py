"""A run's cost split agent vs judge, and how money is shown (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.store import AiCallRecord

__all__ = [
    "CostBreakdown",
    "CostTotals",
    "cost_breakdown",
    "describe_breakdown",
    "describe_totals",
    "format_usd",
    "priced_total",
]


class CostTotals(BaseModel):
    """Calls summed: tokens, the priced cost, and how many calls had no price.

    Attributes:
        calls: How many calls.
        input_tokens: Their input tokens.
        output_tokens: Their output tokens.
        cost_usd: The sum over the priced calls; ``None`` when no call was priced.
        unpriced_calls: Calls whose model has no price (left out of ``cost_usd``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    unpriced_calls: int = 0


class CostBreakdown(BaseModel):
    """What the agent's and the judges' model calls cost.

    Attributes:
        agent: Calls the agent under test made.
        judge: Calls judges made to grade it.
        total: Both.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    agent: CostTotals = CostTotals()
    judge: CostTotals = CostTotals()
    total: CostTotals = CostTotals()


def priced_total(costs: Iterable[float | None]) -> float | None:
    """The sum of the known costs; ``None`` when none is known (never a stand-in zero)."""
    known = [cost for cost in costs if cost is not None]
    return sum(known) if known else None


def _totals(calls: list[AiCallRecord]) -> CostTotals:
    return CostTotals(
        calls=len(calls),
        input_tokens=sum(call.input_tokens for call in calls),
        output_tokens=sum(call.output_tokens for call in calls),
        cost_usd=priced_total(call.cost_usd for call in calls),
        unpriced_calls=sum(call.cost_usd is None for call in calls),
    )


def cost_breakdown(calls: Iterable[AiCallRecord]) -> CostBreakdown:
    """Sum calls by role (pure); unpriced calls are counted, not added as zero."""
    chosen = list(calls)
    return CostBreakdown(
        agent=_totals([call for call in chosen if call.role == "agent"]),
        judge=_totals([call for call in chosen if call.role == "judge"]),
        total=_totals(chosen),
    )


def format_usd(cost: float | None) -> str:
    """``$1.23``, ``$0.0042`` (four decimals under a dollar), or ``unpriced`` for ``None``."""
    if cost is None:
        return "unpriced"
    return f"${cost:,.2f}" if cost >= 1 else f"${cost:.4f}"


def describe_totals(totals: CostTotals) -> str:
    """``$0.0123 (12 calls)``, ``$0.0100 (12 calls, 2 unpriced)``, ``unpriced (3 calls)``."""
    if not totals.calls:
        return "no calls"
    plural = "s" if totals.calls != 1 else ""
    unpriced = f", {totals.unpriced_calls} unpriced" if totals.unpriced_calls else ""
    if totals.cost_usd is None:
        return f"unpriced ({totals.calls} call{plural})"
    return f"{format_usd(totals.cost_usd)} ({totals.calls} call{plural}{unpriced})"


def describe_breakdown(breakdown: CostBreakdown) -> str:
    """``agent $0.0123 (12 calls), judge no calls; total $0.0123, 2 calls unpriced``."""
    total = breakdown.total
    unpriced = total.unpriced_calls
    note = f", {unpriced} call{'s' if unpriced != 1 else ''} unpriced" if unpriced else ""
    return (
        f"agent {describe_totals(breakdown.agent)}, judge {describe_totals(breakdown.judge)};"
        f" total {format_usd(total.cost_usd)}{note}"
    )
