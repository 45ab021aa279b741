"""``MemoryShadow``: the thinnest in-memory twin of :class:`~tracegrade.store.SqlShadow`.

Only so that ``InMemoryStore`` still satisfies the ``Store`` protocol; the SQL part is the
one tested (the in-memory store is being retired).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from tracegrade.store._records import utc_now, validated
from tracegrade.store._shadow import (
    ShadowComparisonRecord,
    WatchRecord,
    WatchStatus,
    closed_watch,
    unknown_watch,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["MemoryShadow"]


class MemoryShadow:
    """Shadow comparisons and watches in lists."""

    _shadow_lock = threading.Lock()
    _comparisons: list[ShadowComparisonRecord]
    _watches: list[WatchRecord]

    def _lists(self) -> tuple[list[ShadowComparisonRecord], list[WatchRecord]]:
        if not hasattr(self, "_comparisons"):
            self._comparisons, self._watches = [], []
        return self._comparisons, self._watches

    def add_shadow_comparison(self, record: ShadowComparisonRecord) -> int:
        """Store a shadow comparison and return its new id."""
        with self._shadow_lock:
            kept, _ = self._lists()
            kept.append(validated(record).model_copy(update={"id": len(kept) + 1}))
            return len(kept)

    def shadow_comparisons(
        self, *, proposal_id: int | None = None, touchpoint: str | None = None
    ) -> list[ShadowComparisonRecord]:
        """Stored comparisons, newest first."""
        kept, _ = self._lists()
        return [
            each
            for each in reversed(kept)
            if proposal_id in {None, each.proposal_id} and touchpoint in {None, each.touchpoint}
        ]

    def add_watch(self, record: WatchRecord) -> int:
        """Start a watch and return its new id."""
        with self._shadow_lock:
            _, kept = self._lists()
            kept.append(validated(record).model_copy(update={"id": len(kept) + 1}))
            return len(kept)

    def watches(
        self, touchpoint: str | None = None, *, status: WatchStatus | None = None
    ) -> list[WatchRecord]:
        """Watches, newest first."""
        _, kept = self._lists()
        return [
            each
            for each in reversed(kept)
            if touchpoint in {None, each.touchpoint} and status in {None, each.status}
        ]

    def update_watch(
        self,
        watch_id: int,
        *,
        runs: Sequence[str],
        status: WatchStatus,
        reason: str,
        rolled_back_to: str | None = None,
        rolled_back_by: str | None = None,
    ) -> WatchRecord:
        """Record a watched run; a closed watch is final."""
        with self._shadow_lock:
            _, kept = self._lists()
            if not 1 <= watch_id <= len(kept):
                raise unknown_watch(watch_id)
            current = kept[watch_id - 1]
            if current.status != "watching":
                raise closed_watch(watch_id, current.status)
            kept[watch_id - 1] = current.model_copy(
                update={
                    "runs": list(runs),
                    "status": status,
                    "reason": reason,
                    "rolled_back_to": rolled_back_to,
                    "rolled_back_by": rolled_back_by,
                    "closed_at": None if status == "watching" else utc_now(),
                }
            )
            return kept[watch_id - 1]
