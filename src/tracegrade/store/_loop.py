"""The improvement loop's part of the store: signals, proposals, file blobs, rubric scores.

:class:`LoopStore` is the sub-protocol :class:`~tracegrade.store.Store` includes;
:class:`SqlLoop` implements it in SQL (``SqlStore`` and ``InMemoryStore`` are assembled
from it).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Literal, Protocol

import sqlalchemy as sa
from pydantic import Field

from tracegrade.errors import InputError
from tracegrade.store._records import (
    JsonObject,
    UtcDatetime,
    _Record,
    as_utc,
    utc_now,
    validated,
)
from tracegrade.store._schema import file_blobs, proposals, rubric_scores, signals
from tracegrade.store._sql_base import SqlBase

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

__all__ = [
    "DraftedBy",
    "LoopStore",
    "ProposalRecord",
    "ProposalStatus",
    "RubricScoreRecord",
    "SignalRecord",
    "SqlLoop",
]

DraftedBy = Literal["person", "judge"]
"""Who wrote a proposal's change: a person, or a judge drafting for a person to approve."""

ProposalStatus = Literal["proposed", "approved", "rejected", "applied"]
"""``proposed`` → ``approved`` or ``rejected``; ``approved`` → ``applied``; nothing else."""

_NEXT: dict[str, frozenset[str]] = {
    "proposed": frozenset({"approved", "rejected"}),
    "approved": frozenset({"applied"}),
    "rejected": frozenset(),
    "applied": frozenset(),
}
_SHA256 = r"^[0-9a-f]{64}$"


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else as_utc(value)


class SignalRecord(_Record):
    """Something that went wrong with a touchpoint: the raw material of patterns.

    Attributes:
        id: The store's id; ``None`` until stored.
        touchpoint: The touchpoint it is about.
        kind: ``gate_failure``, ``guard_block``, ``contract_failure`` or ``feedback``.
        fingerprint: What identifies the problem; signals with equal fingerprints form
            one pattern.
        payload: The details (rule, tool, diagnosis, message), as JSON.
        run_id: The run it came from, if any.
        processed: A proposal answered it.
        recorded_at: When it was recorded.
    """

    id: int | None = None
    touchpoint: str = Field(min_length=1, max_length=200)
    kind: str = Field(min_length=1, max_length=64)
    fingerprint: str = Field(min_length=1, max_length=200)
    payload: JsonObject = Field(default_factory=dict)
    run_id: str | None = None
    processed: bool = False
    recorded_at: UtcDatetime = Field(default_factory=utc_now)


class ProposalRecord(_Record):
    """A change to one file of a touchpoint, waiting for (or past) a person's decision.

    Attributes:
        id: The store's id; ``None`` until stored.
        touchpoint: The touchpoint whose file it changes.
        file: The file, as the touchpoint's contract names it.
        base_sha256: The file's sha256 when the change was proposed.
        proposed_sha256: The sha256 of the proposed content (kept in the file blobs).
        diff: A unified diff from the base to the proposed content, for display.
        rationale: Why.
        author: Who proposed it (a person, or the judge that drafted it).
        drafted_by: ``person`` or ``judge``; either way only a person approves.
        pattern: The fingerprint of the pattern it answers, if any.
        signal_ids: The signals it answers.
        status: ``proposed``, ``approved``, ``rejected`` or ``applied``.
        created_at: When it was proposed.
        decided_at: When a person approved or rejected it.
        decided_by: The person who approved or rejected it (kept once applied).
        applied_version: The touchpoint version applying it recorded.
        applied_by: The person who applied it (or ``auto``, for a graduated auto-apply).
        applied_at: When it was applied.
    """

    id: int | None = None
    touchpoint: str = Field(min_length=1, max_length=200)
    file: str = Field(min_length=1, max_length=500)
    base_sha256: str = Field(pattern=_SHA256)
    proposed_sha256: str = Field(pattern=_SHA256)
    diff: str
    rationale: str
    author: str = Field(min_length=1, max_length=200)
    drafted_by: DraftedBy
    pattern: str | None = None
    signal_ids: list[int] = Field(default_factory=list)
    status: ProposalStatus = "proposed"
    created_at: UtcDatetime = Field(default_factory=utc_now)
    decided_at: UtcDatetime | None = None
    decided_by: str | None = None
    applied_version: str | None = None
    applied_by: str | None = None
    applied_at: UtcDatetime | None = None


class RubricScoreRecord(_Record):
    """A judge rubric's scores of one touchpoint version.

    Attributes:
        touchpoint: The touchpoint scored.
        version: Its version.
        rubric: The rubric's name.
        judge: The judge (or panel) that scored it.
        scores: The scores, as JSON.
        recorded_at: When they were recorded.
    """

    touchpoint: str = Field(min_length=1, max_length=200)
    version: str = Field(min_length=1, max_length=200)
    rubric: str = Field(min_length=1, max_length=200)
    judge: str = Field(min_length=1, max_length=200)
    scores: JsonObject
    recorded_at: UtcDatetime = Field(default_factory=utc_now)


class LoopStore(Protocol):
    """Signals, proposals, file blobs and rubric scores: the improvement loop's storage."""

    def add_signal(self, signal: SignalRecord) -> int:
        """Store a signal (its ``id`` is ignored) and return its new id."""
        ...

    def signals(
        self, touchpoint: str | None = None, *, processed: bool | None = None
    ) -> list[SignalRecord]:
        """The signals (of one touchpoint, processed or not if given), oldest first."""
        ...

    def mark_signals_processed(self, ids: Sequence[int]) -> None:
        """Mark signals processed; an unknown id is an ``InputError`` and marks none."""
        ...

    def add_proposal(self, proposal: ProposalRecord) -> int:
        """Store a proposal (its ``id`` is ignored) and return its new id."""
        ...

    def get_proposal(self, proposal_id: int) -> ProposalRecord | None:
        """The proposal, or ``None`` when no proposal has that id."""
        ...

    def proposals(
        self, touchpoint: str | None = None, *, status: str | None = None
    ) -> list[ProposalRecord]:
        """The proposals (of one touchpoint, in one status if given), newest first."""
        ...

    def update_proposal(
        self,
        proposal_id: int,
        *,
        status: ProposalStatus,
        decided_by: str,
        applied_version: str | None = None,
    ) -> ProposalRecord:
        """Move a proposal on: ``proposed`` → ``approved``/``rejected``, ``approved`` → ``applied``.

        Approving or rejecting sets ``decided_by`` and ``decided_at``; applying needs
        ``applied_version`` and keeps the approval's ``decided_by``. Any other move, or an
        unknown id, is an ``InputError`` naming the proposal and its status.
        """
        ...

    def put_file_blob(self, sha256: str, content: str) -> None:
        """Keep a file's content under its sha256 (of the UTF-8 bytes); idempotent.

        A ``sha256`` that is not the content's is an ``InputError``.
        """
        ...

    def file_blob(self, sha256: str) -> str | None:
        """The content kept under ``sha256``, or ``None``."""
        ...

    def add_rubric_score(self, score: RubricScoreRecord) -> None:
        """Store a rubric's scores of a touchpoint version."""
        ...

    def rubric_scores(self, touchpoint: str) -> list[RubricScoreRecord]:
        """The touchpoint's rubric scores, newest first."""
        ...


# -- errors and checks both stores share ------------------------------------------------


def unknown_signals(ids: Sequence[int]) -> InputError:
    """Some signal ids are not stored."""
    shown = ", ".join(str(each) for each in sorted(ids))
    return InputError(
        f"no signal with id {shown} in the store",
        fix="pass ids that `tracegrade signals list` shows",
    )


def unknown_proposal(proposal_id: int) -> InputError:
    """No proposal has this id."""
    return InputError(
        f"no proposal {proposal_id} in the store",
        fix="pass an id that `tracegrade proposals list` shows",
    )


def check_move(
    proposal: ProposalRecord, status: str, decided_by: str, applied_version: str | None
) -> None:
    """Raise unless ``proposal`` may move to ``status`` with these arguments."""
    if status not in _NEXT[proposal.status]:
        allowed = sorted(_NEXT[proposal.status])
        then = f"it can only become {' or '.join(allowed)}" if allowed else "that is final"
        raise InputError(
            f"proposal {proposal.id} is {proposal.status}; it cannot become {status}",
            fix=f"{then}; propose the change again to start over",
        )
    if not decided_by.strip():
        raise InputError(
            f"proposal {proposal.id}: who decides must be named", fix="pass a person's name"
        )
    if status == "applied" and not applied_version:
        raise InputError(
            f"proposal {proposal.id}: applying it needs the version it recorded",
            fix="pass applied_version",
        )


def moved(status: str, decided_by: str, version: str | None) -> dict[str, Any]:
    """The column values a checked move writes."""
    if status == "applied":
        return {
            "status": status,
            "applied_version": version,
            "applied_by": decided_by,
            "applied_at": utc_now(),
        }
    return {"status": status, "decided_by": decided_by, "decided_at": utc_now()}


def check_blob(sha256: str, content: str) -> None:
    """Raise unless ``sha256`` is the sha256 of ``content``'s UTF-8 bytes."""
    actual = hashlib.sha256(content.encode("utf-8")).hexdigest()
    if actual != sha256:
        raise InputError(
            f"file blob {sha256[:12]}… does not match its content (sha256 {actual[:12]}…)",
            fix="store a file's content under the sha256 of its UTF-8 bytes",
        )


# -- SQL ----------------------------------------------------------------------------------


def _row_signal(row: sa.Row[Any]) -> SignalRecord:
    return SignalRecord(
        id=row.id,
        touchpoint=row.touchpoint,
        kind=row.kind,
        fingerprint=row.fingerprint,
        payload=row.payload,
        run_id=row.run_id,
        processed=row.processed,
        recorded_at=as_utc(row.recorded_at),
    )


def _row_proposal(row: sa.Row[Any]) -> ProposalRecord:
    values = dict(row._mapping)  # the row's public mapping view
    values["created_at"] = as_utc(row.created_at)
    values["decided_at"] = _utc(row.decided_at)
    values["applied_at"] = _utc(row.applied_at)
    return ProposalRecord.model_validate(values)


def _row_rubric(row: sa.Row[Any]) -> RubricScoreRecord:
    values = dict(row._mapping)  # the row's public mapping view
    del values["id"]
    values["recorded_at"] = as_utc(row.recorded_at)
    return RubricScoreRecord.model_validate(values)


class SqlLoop(SqlBase):
    """The improvement loop's tables in SQL: the :class:`LoopStore` part of ``SqlStore``."""

    def add_signal(self, signal: SignalRecord) -> int:
        """Store a signal (its ``id`` is ignored) and return its new id."""
        values = validated(signal).model_dump(exclude={"id"})
        with self._write() as connection:
            new_id: int = connection.execute(
                sa.insert(signals).values(**values).returning(signals.c.id)
            ).scalar_one()
            return new_id

    def signals(
        self, touchpoint: str | None = None, *, processed: bool | None = None
    ) -> list[SignalRecord]:
        """The signals (of one touchpoint, processed or not if given), oldest first."""
        query = sa.select(signals).order_by(signals.c.recorded_at, signals.c.id)
        if touchpoint is not None:
            query = query.where(signals.c.touchpoint == touchpoint)
        if processed is not None:
            query = query.where(signals.c.processed == processed)
        with self._read() as connection:
            return [_row_signal(row) for row in connection.execute(query)]

    def mark_signals_processed(self, ids: Sequence[int]) -> None:
        """Mark signals processed; an unknown id is an ``InputError`` and marks none."""
        wanted = set(ids)
        if not wanted:
            return
        with self._write() as connection:
            known = set(
                connection.execute(
                    sa.select(signals.c.id).where(signals.c.id.in_(wanted))
                ).scalars()
            )
            if wanted - known:
                raise unknown_signals(sorted(wanted - known))
            connection.execute(
                sa.update(signals).where(signals.c.id.in_(wanted)).values(processed=True)
            )

    def add_proposal(self, proposal: ProposalRecord) -> int:
        """Store a proposal (its ``id`` is ignored) and return its new id."""
        values = validated(proposal).model_dump(exclude={"id"})
        with self._write() as connection:
            new_id: int = connection.execute(
                sa.insert(proposals).values(**values).returning(proposals.c.id)
            ).scalar_one()
            return new_id

    def get_proposal(self, proposal_id: int) -> ProposalRecord | None:
        """The proposal, or ``None`` when no proposal has that id."""
        query = sa.select(proposals).where(proposals.c.id == proposal_id)
        with self._read() as connection:
            row = connection.execute(query).one_or_none()
            return None if row is None else _row_proposal(row)

    def proposals(
        self, touchpoint: str | None = None, *, status: str | None = None
    ) -> list[ProposalRecord]:
        """The proposals (of one touchpoint, in one status if given), newest first."""
        query = sa.select(proposals).order_by(proposals.c.created_at.desc(), proposals.c.id.desc())
        if touchpoint is not None:
            query = query.where(proposals.c.touchpoint == touchpoint)
        if status is not None:
            query = query.where(proposals.c.status == status)
        with self._read() as connection:
            return [_row_proposal(row) for row in connection.execute(query)]

    def update_proposal(
        self,
        proposal_id: int,
        *,
        status: ProposalStatus,
        decided_by: str,
        applied_version: str | None = None,
    ) -> ProposalRecord:
        """Move a proposal on (see :meth:`LoopStore.update_proposal`)."""
        with self._write() as connection:
            row = connection.execute(
                sa.select(proposals).where(proposals.c.id == proposal_id)
            ).one_or_none()
            if row is None:
                raise unknown_proposal(proposal_id)
            current = _row_proposal(row)
            check_move(current, status, decided_by, applied_version)
            # The status in the WHERE makes the move atomic on PostgreSQL too: of two
            # concurrent approvals, the second updates nothing.
            updated = connection.execute(
                sa.update(proposals)
                .where(proposals.c.id == proposal_id, proposals.c.status == current.status)
                .values(**moved(status, decided_by, applied_version))
                .returning(proposals)
            ).one_or_none()
            if updated is None:
                raise InputError(
                    f"proposal {proposal_id} changed status while it was being {status}",
                    fix="show it again and decide on its current status",
                )
            return _row_proposal(updated)

    def put_file_blob(self, sha256: str, content: str) -> None:
        """Keep a file's content under its sha256 (of the UTF-8 bytes); idempotent."""
        check_blob(sha256, content)
        with self._write() as connection:
            self._insert_new(
                connection, file_blobs, ["sha256"], {"sha256": sha256, "content": content}
            )

    def file_blob(self, sha256: str) -> str | None:
        """The content kept under ``sha256``, or ``None``."""
        query = sa.select(file_blobs.c.content).where(file_blobs.c.sha256 == sha256)
        with self._read() as connection:
            content: str | None = connection.execute(query).scalar_one_or_none()
            return content

    def add_rubric_score(self, score: RubricScoreRecord) -> None:
        """Store a rubric's scores of a touchpoint version."""
        values = validated(score).model_dump()
        with self._write() as connection:
            connection.execute(sa.insert(rubric_scores).values(**values))

    def rubric_scores(self, touchpoint: str) -> list[RubricScoreRecord]:
        """The touchpoint's rubric scores, newest first."""
        query = (
            sa.select(rubric_scores)
            .where(rubric_scores.c.touchpoint == touchpoint)
            .order_by(rubric_scores.c.recorded_at.desc(), rubric_scores.c.id.desc())
        )
        with self._read() as connection:
            return [_row_rubric(row) for row in connection.execute(query)]
