"""The in-memory store's received traces: the SQL part's behaviour in a dictionary."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from tracegrade.store._intake import ReceivedTraceRecord, clamp_limit
from tracegrade.store._records import validated

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

    def add_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Store a received trace; ``False`` (and nothing changed) when its id is stored."""
        checked = validated(record)
        state = self._intake()
        with state.lock:
            if checked.trace_id in state.traces:
                return False
            state.traces[checked.trace_id] = (len(state.traces), checked)
            return True

    def update_received_trace(self, record: ReceivedTraceRecord) -> bool:
        """Replace the stored trace with this id; ``False`` when no trace has that id."""
        checked = validated(record)
        state = self._intake()
        with state.lock:
            stored = state.traces.get(checked.trace_id)
            if stored is None:
                return False
            state.traces[checked.trace_id] = (stored[0], checked)
            return True

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
