"""The ``Store`` protocol: what the runner, the CLI and the web UI need from a results store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from tracegrade.store._browse import BrowseStore
from tracegrade.store._costs import CostStore
from tracegrade.store._intake import ReceivedTraceStore
from tracegrade.store._loop import LoopStore
from tracegrade.store._shadow import ShadowStore

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from tracegrade.store._records import (
        BaselineRecord,
        CaseKey,
        CaseResultRecord,
        JsonObject,
        Outcome,
        RunRecord,
        RunStatus,
        TouchpointVersionRecord,
    )


class Store(CostStore, ReceivedTraceStore, BrowseStore, LoopStore, ShadowStore, Protocol):
    """Runs, case results, baselines and touchpoint versions, written one transaction a call.

    Every write is atomic: a process killed mid-write leaves either the whole row or none.
    Implementations: :class:`SqlStore` (SQLite or PostgreSQL) and :class:`InMemoryStore`
    (the same SQL on SQLite in memory).
    Errors: :class:`~tracegrade.errors.InputError` for a call the stored data refuses
    (an unknown run, a duplicate run id), :class:`~tracegrade.errors.InfrastructureError`
    when the database cannot be reached.
    """

    def start_run(self, run: RunRecord) -> None:
        """Store a new run; an existing ``run_id`` is an ``InputError``."""
        ...

    def resume_run(self, run_id: str) -> RunRecord:
        """Mark a stored run ``running`` again (clearing ``finished_at``) and return it."""
        ...

    def add_case_result(self, result: CaseResultRecord) -> bool:
        """Store one case result; ``False`` (and the first one kept) when its key was stored."""
        ...

    def add_case_results(self, results: Sequence[CaseResultRecord]) -> int:
        """Store case results in one transaction; return how many were newly stored.

        Idempotent per key like :meth:`add_case_result`: a result whose key is stored, or
        appears earlier in ``results``, is skipped (the first one kept). All or nothing: a
        result that is invalid or names an unknown run stores none of the batch.
        """
        ...

    def finished_cases(self, run_id: str) -> frozenset[CaseKey]:
        """The keys of every case result stored for the run: what a resumed run skips."""
        ...

    def finish_run(
        self,
        run_id: str,
        *,
        status: Literal["finished", "killed"] = "finished",
        summary: JsonObject | None = None,
        finished_at: datetime | None = None,
    ) -> RunRecord:
        """Set the run's final status, summary (kept when ``None``) and end time; return it."""
        ...

    def get_run(self, run_id: str) -> RunRecord | None:
        """The run, or ``None`` when no run has that id."""
        ...

    def list_runs(
        self, *, limit: int | None = None, offset: int = 0, status: RunStatus | None = None
    ) -> list[RunRecord]:
        """Runs newest start first: every one, or a page (``limit`` after ``offset``).

        ``status`` keeps only the runs in that state. Pages keep pages cheap: each run carries
        its whole report in ``summary``.
        """
        ...

    def case_results(self, run_id: str, touchpoint: str | None = None) -> list[CaseResultRecord]:
        """The run's case results (of one touchpoint if given), sorted by key."""
        ...

    def outcomes_by_repeat(self, run_id: str, touchpoint: str) -> dict[tuple[int, Outcome], int]:
        """How many of the touchpoint's results in the run ended each way, per repeat.

        What judging a touchpoint needs, without reading every result's payload.
        """
        ...

    def promote_baseline(
        self,
        run_id: str,
        touchpoint: str | None = None,
        *,
        promoted_at: datetime | None = None,
    ) -> list[BaselineRecord]:
        """Make a finished run the baseline of each of its touchpoints (or of one); atomic."""
        ...

    def baseline(self, touchpoint: str) -> BaselineRecord | None:
        """The touchpoint's current baseline (the newest promotion), or ``None``."""
        ...

    def baseline_history(self, touchpoint: str) -> list[BaselineRecord]:
        """Every baseline the touchpoint had, newest first."""
        ...

    def record_touchpoint_version(self, version: TouchpointVersionRecord) -> bool:
        """Record a touchpoint version; ``False`` when that version was already recorded.

        The same version with other file hashes is an ``InputError``: files changed
        without a version bump.
        """
        ...

    def touchpoint_versions(self, touchpoint: str) -> list[TouchpointVersionRecord]:
        """Every recorded version of the touchpoint, newest first."""
        ...

    def close(self) -> None:
        """Release connections; the store is not used afterwards."""
        ...
