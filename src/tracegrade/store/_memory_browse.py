"""The in-memory store's browse queries: the same read models as ``BrowseSql``, no I/O."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from tracegrade.store._browse import (
    CaseResultPage,
    CaseResultRow,
    TouchpointRunPoint,
    bounded,
    history_points,
)

if TYPE_CHECKING:
    from tracegrade.store._records import (
        BaselineRecord,
        CaseKey,
        CaseResultRecord,
        Outcome,
        RunRecord,
    )

__all__ = ["BrowseMemory"]


class BrowseMemory:
    """Row ids and browse queries for :class:`InMemoryStore`.

    The fake keeps results in dictionaries without ids, so ids are given out here in the
    order results were stored, the first time a browse call sees them; once given, an id
    never changes (results are never deleted).
    """

    _lock: threading.Lock
    _runs: dict[str, RunRecord]
    _results: dict[str, dict[CaseKey, CaseResultRecord]]
    _baselines: dict[str, list[BaselineRecord]]

    _browse_lock: threading.Lock
    _row_ids: dict[tuple[str, CaseKey], int]
    _by_id: dict[int, tuple[str, CaseKey]]

    def __init__(self) -> None:
        super().__init__()  # the state is made on first use (see _browse_state)

    def _browse_state(self) -> None:
        # Set here, not only in __init__: the store's own __init__ may not call super().
        with self._lock:
            if not hasattr(self, "_browse_lock"):
                self._browse_lock = threading.Lock()
                self._row_ids = {}
                self._by_id = {}

    def _numbered(self) -> None:
        self._browse_state()
        with self._lock:
            stored = [(run_id, list(results)) for run_id, results in self._results.items()]
        with self._browse_lock:
            for run_id, keys in stored:
                for key in keys:
                    if (run_id, key) not in self._row_ids:
                        number = len(self._row_ids) + 1
                        self._row_ids[run_id, key] = number
                        self._by_id[number] = (run_id, key)

    def _rows(self, run_id: str) -> list[CaseResultRow]:
        self._numbered()
        with self._lock:
            results = list(self._results.get(run_id, {}).values())
        with self._browse_lock:
            rows = [CaseResultRow(id=self._row_ids[run_id, r.key], result=r) for r in results]
        return sorted(rows, key=lambda row: row.result.key)

    def case_result_page(
        self,
        run_id: str,
        *,
        touchpoint: str | None = None,
        outcome: Outcome | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> CaseResultPage:
        """A page of the run's case results (of one touchpoint, one outcome), by key."""
        offset, limit = bounded(offset, limit)
        chosen = [
            row
            for row in self._rows(run_id)
            if (touchpoint is None or row.result.touchpoint == touchpoint)
            and (outcome is None or row.result.outcome == outcome)
        ]
        return CaseResultPage(
            run_id=run_id,
            total=len(chosen),
            offset=offset,
            limit=limit,
            rows=tuple(chosen[offset : offset + limit]),
        )

    def get_case_result(self, result_id: int) -> CaseResultRow | None:
        """The case result with this row id, or ``None``."""
        self._numbered()
        with self._browse_lock:
            where = self._by_id.get(result_id)
        if where is None:
            return None
        with self._lock:
            result = self._results[where[0]][where[1]]
        return CaseResultRow(id=result_id, result=result)

    def run_outcome_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Per touchpoint of the run, how many results had each outcome."""
        counts: dict[str, dict[str, int]] = {}
        with self._lock:
            results = list(self._results.get(run_id, {}).values())
        for result in results:
            per = counts.setdefault(result.touchpoint, {})
            per[result.outcome] = per.get(result.outcome, 0) + 1
        return {name: dict(sorted(counts[name].items())) for name in sorted(counts)}

    def touchpoint_history(self, touchpoint: str, *, limit: int = 30) -> list[TouchpointRunPoint]:
        """The touchpoint's verdict in each finished run that judged it, newest first."""
        with self._lock:
            finished = [run for run in self._runs.values() if run.status == "finished"]
        finished.sort(key=lambda run: (run.started_at, run.run_id), reverse=True)
        return history_points(finished, touchpoint, limit)
