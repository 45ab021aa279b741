"""The runner's cost meter: holds each unit's calls, stores them, and enforces --cost-limit.

The eval runner hands every call a unit recorded to :meth:`CostMeter.hold`, and calls
:meth:`CostMeter.flush` when the unit is done: the calls are stored (before the unit's
case results, so a unit's cost is never lost) and added to what the run has spent. Once
the spend exceeds the limit, :meth:`CostMeter.check` raises :class:`CostLimitReached`,
which stops the executor: no new unit starts, finished units stay stored, and the run
can be resumed.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from tracegrade.cost._summary import format_usd

if TYPE_CHECKING:
    from collections.abc import Hashable

    from tracegrade.store import AiCallRecord, Store

__all__ = ["CostLimitReached", "CostMeter"]


class CostLimitReached(Exception):  # noqa: N818 - a stop signal, not an error
    """The run's recorded cost exceeded its limit; the runner stops starting units.

    Attributes:
        limit: The limit, in US dollars.
        spent: What the run's priced calls cost so far.
    """

    def __init__(self, limit: float, spent: float) -> None:
        self.limit = limit
        self.spent = spent
        super().__init__(self.reason)

    @property
    def reason(self) -> str:
        """``cost limit $X reached ($Y spent)``."""
        return f"cost limit {format_usd(self.limit)} reached ({format_usd(self.spent)} spent)"


class CostMeter:
    """Holds calls per unit until the unit is done, and tracks the run's spend.

    Args:
        store: Where calls are stored.
        limit: Stop once the spend exceeds this many US dollars; ``None`` never stops.
        spent: What the run spent before (a resumed run's stored calls).
    """

    def __init__(self, store: Store, limit: float | None, spent: float = 0.0) -> None:
        self._store, self.limit, self.spent = store, limit, spent
        self._lock = threading.Lock()
        self._held: dict[Hashable, list[AiCallRecord]] = {}

    def hold(self, unit: Hashable, call: AiCallRecord) -> None:
        """Keep a unit's call until the unit is done."""
        with self._lock:
            self._held.setdefault(unit, []).append(call)

    def flush(self, unit: Hashable) -> None:
        """Store the unit's calls in one transaction and add their cost to the spend."""
        with self._lock:
            calls = self._held.pop(unit, [])
        if not calls:
            return
        self._store.add_ai_calls(calls)
        with self._lock:
            self.spent += sum(call.cost_usd for call in calls if call.cost_usd is not None)

    @property
    def exceeded(self) -> bool:
        """Whether the spend is over the limit (to the nano-dollar: float sums drift)."""
        return self.limit is not None and round(self.spent, 9) > self.limit

    @property
    def stop_reason(self) -> str:
        """``cost limit $X reached ($Y spent)``, with what is spent now."""
        return CostLimitReached(self.limit or 0.0, self.spent).reason

    def check(self) -> None:
        """Raise :class:`CostLimitReached` when the spend is over the limit."""
        if self.limit is not None and self.exceeded:
            raise CostLimitReached(self.limit, self.spent)
