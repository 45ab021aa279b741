"""``InMemoryStore``: the store's fake, with the SQL store's behaviour and no I/O."""

from __future__ import annotations

import threading
from collections import Counter
from typing import TYPE_CHECKING, Literal

from tracegrade.store import _problems
from tracegrade.store._memory_browse import BrowseMemory
from tracegrade.store._memory_costs import MemoryCosts
from tracegrade.store._memory_intake import MemoryIntake
from tracegrade.store._memory_loop import MemoryLoop
from tracegrade.store._memory_shadow import MemoryShadow
from tracegrade.store._records import (
    BaselineRecord,
    CaseKey,
    CaseResultRecord,
    JsonObject,
    Outcome,
    RunRecord,
    RunStatus,
    TouchpointVersionRecord,
    build_baselines,
    utc_now,
    validated,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime


class InMemoryStore(MemoryCosts, MemoryIntake, BrowseMemory, MemoryLoop, MemoryShadow):
    """A :class:`Store` held in dictionaries; thread-safe, gone when the process ends.

    Use it in tests of code that writes results, and wherever nothing needs to outlive
    the process.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, RunRecord] = {}
        self._results: dict[str, dict[CaseKey, CaseResultRecord]] = {}
        self._baselines: dict[str, list[BaselineRecord]] = {}
        self._versions: dict[str, list[TouchpointVersionRecord]] = {}

    def _run(self, run_id: str) -> RunRecord:
        run = self._runs.get(run_id)
        if run is None:
            raise _problems.unknown_run(run_id)
        return run

    def start_run(self, run: RunRecord) -> None:
        """Store a new run; an existing ``run_id`` is an ``InputError``."""
        with self._lock:
            if run.run_id in self._runs:
                raise _problems.run_exists(run.run_id)
            self._runs[run.run_id] = validated(run)
            self._results[run.run_id] = {}

    def resume_run(self, run_id: str) -> RunRecord:
        """Mark a stored run ``running`` again (clearing ``finished_at``) and return it."""
        with self._lock:
            run = self._run(run_id).model_copy(update={"status": "running", "finished_at": None})
            self._runs[run_id] = run
            return run

    def add_case_result(self, result: CaseResultRecord) -> bool:
        """Store one case result; ``False`` (and the first one kept) when its key was stored."""
        with self._lock:
            self._run(result.run_id)
            stored = self._results[result.run_id]
            if result.key in stored:
                return False
            stored[result.key] = validated(result)
            return True

    def add_case_results(self, results: Sequence[CaseResultRecord]) -> int:
        """Store case results at once, skipping stored keys; how many were newly stored."""
        checked = [validated(result) for result in results]  # before anything is stored
        with self._lock:
            for result in checked:
                self._run(result.run_id)
            added = 0
            for result in checked:
                stored = self._results[result.run_id]
                if result.key not in stored:
                    stored[result.key] = result
                    added += 1
            return added

    def finished_cases(self, run_id: str) -> frozenset[CaseKey]:
        """The keys of every case result stored for the run."""
        with self._lock:
            return frozenset(self._results.get(run_id, {}))

    def finish_run(
        self,
        run_id: str,
        *,
        status: Literal["finished", "killed"] = "finished",
        summary: JsonObject | None = None,
        finished_at: datetime | None = None,
    ) -> RunRecord:
        """Set the run's final status, summary (kept when ``None``) and end time; return it."""
        with self._lock:
            run = self._run(run_id)
            changes: dict[str, object] = {
                "status": status,
                "finished_at": finished_at or utc_now(),
                "summary": run.summary if summary is None else summary,
            }
            # Validate through the model so both stores normalise values the same way.
            run = RunRecord.model_validate({**run.model_dump(), **changes})
            self._runs[run_id] = run
            return run

    def get_run(self, run_id: str) -> RunRecord | None:
        """The run, or ``None`` when no run has that id."""
        with self._lock:
            return self._runs.get(run_id)

    def list_runs(
        self, *, limit: int | None = None, offset: int = 0, status: RunStatus | None = None
    ) -> list[RunRecord]:
        """Runs newest start first: every one, or a page (``limit`` after ``offset``)."""
        with self._lock:
            runs = [run for run in self._runs.values() if status in (None, run.status)]
        runs.sort(key=lambda run: (run.started_at, run.run_id), reverse=True)
        return runs[offset : None if limit is None else offset + limit]

    def case_results(self, run_id: str, touchpoint: str | None = None) -> list[CaseResultRecord]:
        """The run's case results (of one touchpoint if given), sorted by key."""
        with self._lock:
            results = list(self._results.get(run_id, {}).values())
        chosen = [r for r in results if touchpoint is None or r.touchpoint == touchpoint]
        return sorted(chosen, key=lambda result: result.key)

    def outcomes_by_repeat(self, run_id: str, touchpoint: str) -> dict[tuple[int, Outcome], int]:
        """How many of the touchpoint's results in the run ended each way, per repeat."""
        with self._lock:
            results = list(self._results.get(run_id, {}).values())
        return dict(Counter((r.repeat, r.outcome) for r in results if r.touchpoint == touchpoint))

    def promote_baseline(
        self,
        run_id: str,
        touchpoint: str | None = None,
        *,
        promoted_at: datetime | None = None,
    ) -> list[BaselineRecord]:
        """Make a finished run the baseline of each of its touchpoints (or of one); atomic."""
        with self._lock:
            run = self._run(run_id)
            if run.status != "finished":
                raise _problems.not_finished(run_id, run.status)
            if run.lane == _problems.SHADOW_LANE:
                raise _problems.shadow_baseline(run_id)
            baselines = build_baselines(
                run_id,
                self._results[run_id].values(),
                touchpoint=touchpoint,
                promoted_at=promoted_at or utc_now(),
            )
            if not baselines:
                raise _problems.nothing_to_promote(run_id, touchpoint)
            for baseline in baselines:
                self._baselines.setdefault(baseline.touchpoint, []).append(baseline)
            return baselines

    def baseline(self, touchpoint: str) -> BaselineRecord | None:
        """The touchpoint's current baseline (the newest promotion), or ``None``."""
        history = self.baseline_history(touchpoint)
        return history[0] if history else None

    def baseline_history(self, touchpoint: str) -> list[BaselineRecord]:
        """Every baseline the touchpoint had, newest first."""
        with self._lock:
            history = list(enumerate(self._baselines.get(touchpoint, [])))
        history.sort(key=lambda item: (item[1].promoted_at, item[0]), reverse=True)
        return [baseline for _, baseline in history]

    def record_touchpoint_version(self, version: TouchpointVersionRecord) -> bool:
        """Record a touchpoint version; ``False`` when that version was already recorded."""
        with self._lock:
            recorded = self._versions.setdefault(version.touchpoint, [])
            for earlier in recorded:
                if earlier.version == version.version:
                    if earlier.hashes != version.hashes:
                        raise _problems.hashes_changed(version.touchpoint, version.version)
                    return False
            recorded.append(validated(version))
            return True

    def touchpoint_versions(self, touchpoint: str) -> list[TouchpointVersionRecord]:
        """Every recorded version of the touchpoint, newest first."""
        with self._lock:
            history = list(enumerate(self._versions.get(touchpoint, [])))
        history.sort(key=lambda item: (item[1].recorded_at, item[0]), reverse=True)
        return [version for _, version in history]

    def close(self) -> None:
        """Nothing to release."""
