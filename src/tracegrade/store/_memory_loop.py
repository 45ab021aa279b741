"""``MemoryLoop``: the improvement loop's part of the in-memory store, behaving as the SQL one."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tracegrade.store._loop import (
    ProposalRecord,
    ProposalStatus,
    RubricScoreRecord,
    SignalRecord,
    check_blob,
    check_move,
    moved,
    unknown_proposal,
    unknown_signals,
)
from tracegrade.store._records import validated

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["MemoryLoop"]

_STATE_LOCK = threading.Lock()  # guards the lazy creation of a store's loop state


@dataclass
class _LoopState:
    lock: threading.Lock = field(default_factory=threading.Lock)
    signals: dict[int, SignalRecord] = field(default_factory=dict)
    proposals: dict[int, ProposalRecord] = field(default_factory=dict)
    blobs: dict[str, str] = field(default_factory=dict)
    rubric_scores: list[RubricScoreRecord] = field(default_factory=list)
    next_signal: int = 1
    next_proposal: int = 1


class MemoryLoop:
    """Signals, proposals, file blobs and rubric scores held in dictionaries; thread-safe."""

    _loop_state: _LoopState | None = None

    def __init__(self) -> None:
        super().__init__()
        self._loop_state = _LoopState()

    @property
    def _loop(self) -> _LoopState:
        # Created on first use as well, so a subclass whose __init__ skips super() works.
        if self._loop_state is None:
            with _STATE_LOCK:
                if self._loop_state is None:
                    self._loop_state = _LoopState()
        return self._loop_state

    def add_signal(self, signal: SignalRecord) -> int:
        """Store a signal (its ``id`` is ignored) and return its new id."""
        state = self._loop
        with state.lock:
            new_id = state.next_signal
            state.next_signal += 1
            state.signals[new_id] = validated(signal.model_copy(update={"id": new_id}))
            return new_id

    def signals(
        self, touchpoint: str | None = None, *, processed: bool | None = None
    ) -> list[SignalRecord]:
        """The signals (of one touchpoint, processed or not if given), oldest first."""
        with self._loop.lock:
            chosen = [
                signal
                for signal in self._loop.signals.values()
                if (touchpoint is None or signal.touchpoint == touchpoint)
                and (processed is None or signal.processed == processed)
            ]
        return sorted(chosen, key=lambda signal: (signal.recorded_at, signal.id or 0))

    def mark_signals_processed(self, ids: Sequence[int]) -> None:
        """Mark signals processed; an unknown id is an ``InputError`` and marks none."""
        state = self._loop
        with state.lock:
            missing = set(ids) - set(state.signals)
            if missing:
                raise unknown_signals(sorted(missing))
            for each in set(ids):
                state.signals[each] = state.signals[each].model_copy(update={"processed": True})

    def add_proposal(self, proposal: ProposalRecord) -> int:
        """Store a proposal (its ``id`` is ignored) and return its new id."""
        state = self._loop
        with state.lock:
            new_id = state.next_proposal
            state.next_proposal += 1
            state.proposals[new_id] = validated(proposal.model_copy(update={"id": new_id}))
            return new_id

    def get_proposal(self, proposal_id: int) -> ProposalRecord | None:
        """The proposal, or ``None`` when no proposal has that id."""
        with self._loop.lock:
            return self._loop.proposals.get(proposal_id)

    def proposals(
        self, touchpoint: str | None = None, *, status: str | None = None
    ) -> list[ProposalRecord]:
        """The proposals (of one touchpoint, in one status if given), newest first."""
        with self._loop.lock:
            chosen = [
                proposal
                for proposal in self._loop.proposals.values()
                if (touchpoint is None or proposal.touchpoint == touchpoint)
                and (status is None or proposal.status == status)
            ]
        return sorted(chosen, key=lambda p: (p.created_at, p.id or 0), reverse=True)

    def update_proposal(
        self,
        proposal_id: int,
        *,
        status: ProposalStatus,
        decided_by: str,
        applied_version: str | None = None,
    ) -> ProposalRecord:
        """Move a proposal on (see :meth:`LoopStore.update_proposal`)."""
        state = self._loop
        with state.lock:
            current = state.proposals.get(proposal_id)
            if current is None:
                raise unknown_proposal(proposal_id)
            check_move(current, status, decided_by, applied_version)
            updated = validated(
                current.model_copy(update=moved(status, decided_by, applied_version))
            )
            state.proposals[proposal_id] = updated
            return updated

    def put_file_blob(self, sha256: str, content: str) -> None:
        """Keep a file's content under its sha256 (of the UTF-8 bytes); idempotent."""
        check_blob(sha256, content)
        with self._loop.lock:
            self._loop.blobs.setdefault(sha256, content)

    def file_blob(self, sha256: str) -> str | None:
        """The content kept under ``sha256``, or ``None``."""
        with self._loop.lock:
            return self._loop.blobs.get(sha256)

    def add_rubric_score(self, score: RubricScoreRecord) -> None:
        """Store a rubric's scores of a touchpoint version."""
        checked = validated(score)
        with self._loop.lock:
            self._loop.rubric_scores.append(checked)

    def rubric_scores(self, touchpoint: str) -> list[RubricScoreRecord]:
        """The touchpoint's rubric scores, newest first."""
        with self._loop.lock:
            chosen = [
                (index, score)
                for index, score in enumerate(self._loop.rubric_scores)
                if score.touchpoint == touchpoint
            ]
        chosen.sort(key=lambda item: (item[1].recorded_at, item[0]), reverse=True)
        return [score for _, score in chosen]
