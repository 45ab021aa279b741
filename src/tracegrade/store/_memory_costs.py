"""``MemoryCosts``: the cost ledger's part of the in-memory store, behaving as the SQL one."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from tracegrade.store._costs import AiCallRecord, CostRollup, RollupKey, matches, rollup_calls
from tracegrade.store._records import validated

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

__all__ = ["MemoryCosts"]

_STATE_LOCK = threading.Lock()  # guards the lazy creation of a store's ledger


class _Ledger:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[AiCallRecord] = []


class MemoryCosts:
    """The cost ledger in a list; its state is created on first use."""

    def __init__(self) -> None:
        super().__init__()
        self._ledger()

    def _ledger(self) -> _Ledger:
        with _STATE_LOCK:
            ledger: _Ledger | None = self.__dict__.get("_cost_ledger")
            if ledger is None:
                ledger = self.__dict__["_cost_ledger"] = _Ledger()
            return ledger

    def add_ai_calls(self, calls: Sequence[AiCallRecord]) -> int:
        """Store the calls at once (all or none); return how many were stored."""
        checked = [validated(call) for call in calls]
        ledger = self._ledger()
        with ledger.lock:
            ledger.calls.extend(checked)
        return len(checked)

    def ai_calls(
        self,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[AiCallRecord]:
        """The calls (of a run, of a touchpoint, recorded at or after ``since``), oldest first."""
        ledger = self._ledger()
        with ledger.lock:
            chosen = [call for call in ledger.calls if matches(call, run_id, touchpoint, since)]
        # Stable: calls recorded at the same moment keep the order they were stored in.
        return sorted(chosen, key=lambda call: call.recorded_at)

    def cost_rollup(
        self,
        by: RollupKey,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[CostRollup]:
        """The filtered calls summed per group (:func:`rollup_calls`), sorted by key."""
        return rollup_calls(self.ai_calls(run_id=run_id, touchpoint=touchpoint, since=since), by)
