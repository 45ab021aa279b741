"""Recording what a panel's judge calls cost, in the cost ledger (role ``judge``).

The ledger (:mod:`tracegrade.cost`) writes to the store, so it is imported when a cost is
recorded: ``tracegrade.judges`` itself imports without the database layer.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from tracegrade.judges._scoring import RubricScore

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.cost import PriceTable
    from tracegrade.judges._panel import JudgeCall, PanelResult
    from tracegrade.store import AiCallRecord, Store

__all__ = ["record_judge_calls", "record_panel_cost"]


def record_judge_calls(
    calls: Iterable[JudgeCall],
    touchpoint: str | None,
    *,
    run_id: str | None = None,
    store: Store | None = None,
    prices: PriceTable | None = None,
) -> tuple[AiCallRecord, ...]:
    """Record judge calls with :func:`tracegrade.cost.record_ai_call`, role ``judge``.

    Inside a unit of ``tracegrade run`` the calls join the current run (and, when
    ``touchpoint`` is ``None``, the unit's touchpoint); outside one they go to ``store``,
    else to the default store (``TRACEGRADE_STORE_URL``, else ``.tracegrade/tracegrade.db``),
    opened once. A model the price table does not know is recorded unpriced (``cost_usd``
    ``None``), never as free.

    Returns:
        The recorded calls, in order.
    """
    from tracegrade.cost import (  # noqa: PLC0415 - see the module docstring
        STORE_URL_VARIABLE,
        Usage,
        current_run_id,
        record_ai_call,
    )
    from tracegrade.store import open_store  # noqa: PLC0415 - see the module docstring

    opened = None
    if store is None and current_run_id() is None:
        store = opened = open_store(os.environ.get(STORE_URL_VARIABLE) or None)
    try:
        return tuple(
            record_ai_call(
                touchpoint,
                call.model,
                Usage(
                    input_tokens=call.input_tokens,
                    output_tokens=call.output_tokens,
                    cached_input_tokens=call.cached_input_tokens,
                    cache_write_input_tokens=call.cache_write_input_tokens,
                    model=call.model,
                ),
                call.latency_seconds,
                role="judge",
                run_id=run_id,
                store=store,
                prices=prices,
                details={"judge": call.judge, "case": call.case, "repeat": call.repeat},
            )
            for call in calls
        )
    finally:
        if opened is not None:
            opened.close()


def record_panel_cost(
    panel: PanelResult | RubricScore,
    touchpoint: str | None,
    *,
    run_id: str | None = None,
    store: Store | None = None,
    prices: PriceTable | None = None,
) -> tuple[AiCallRecord, ...]:
    """Record the cost of every judge call of a panel (or of one rubric score), role ``judge``.

    Args:
        panel: What :func:`~tracegrade.judges.run_panel` (or
            :func:`~tracegrade.judges.score_tool_description`) returned.
        touchpoint: The touchpoint the judging served; ``None`` inside a run means the
            unit's touchpoint.
        run_id: The run the calls belong to (inside a run: the current one by default).
        store: Where to write outside a run (default: the default store).
        prices: The price table (default: the run's, else the packaged one).

    Returns:
        The recorded calls; unpriced ones have ``cost_usd`` ``None``.
    """
    calls = (panel.call,) if isinstance(panel, RubricScore) else panel.calls
    return record_judge_calls(calls, touchpoint, run_id=run_id, store=store, prices=prices)
