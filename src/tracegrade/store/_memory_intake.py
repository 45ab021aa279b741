"""The in-memory store's received traces: the SQL part's behaviour in a dictionary."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tracegrade.store._intake import ReceivedTraceRecord, clamp_limit, merged

if TYPE_CHECKING:
    from tracegrade.store._intake import Merge

__all__ = ["MemoryIntake"]

_STATE_LOCK = threading.Lock()  # guards the lazy creation of a store's intake state


@dataclass
class _IntakeState:
    lock: threading.Lock = field(default_factory=threading.Lock)
    # By trace id: the order it was first stored (breaks ties of received_at, as the SQL
    # store's row id does) and the record.
    traces: dict[str, tuple[int, ReceivedTraceRecord]] = field(default_factory=dict)


class MemoryIntake:
    """Received traces held in a dictionary by trace id (a part of ``InMemoryStore``)."""

    _intake_state: _IntakeState | None = None

    def _intake(self) -> _IntakeState:
        # Made on first use: the store's own __init__ may not call super().__init__().
        if self._intake_state is None:
            with _STATE_LOCK:
                if self._intake_state is None:
                    self._intake_state = _IntakeState()
        return self._intake_state

    def merge_received_trace(self, trace_id: str, merge: Merge) -> tuple[ReceivedTraceRecord, bool]:
        """Store ``merge(stored)`` under ``trace_id``, one merge at a time; it, and if new."""
        state = self._intake()
        with state.lock:
            stored = state.traces.get(trace_id)
            record = merged(trace_id, None if stored is None else stored[1], merge)
            order = len(state.traces) if stored is None else stored[0]
            state.traces[trace_id] = (order, record)
            return record, stored is None

    def received_traces(
        self, touchpoint: str | None = None, *, limit: int = 100
    ) -> list[ReceivedTraceRecord]:
        """The newest received traces (of one touchpoint if given), newest first."""
        state = self._intake()
        with state.lock:
            stored = list(state.traces.values())
        chosen = [
            (order, record)
            for order, record in stored
            if touchpoint is None or record.touchpoint == touchpoint
        ]
        chosen.sort(key=lambda item: (item[1].received_at, item[0]), reverse=True)
        return [record for _, record in chosen[: clamp_limit(limit)]]

    def get_received_trace(self, trace_id: str) -> ReceivedTraceRecord | None:
        """The received trace with this id, or ``None``."""
        state = self._intake()
        with state.lock:
            stored = state.traces.get(trace_id)
        return None if stored is None else stored[1]
