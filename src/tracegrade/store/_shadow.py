"""Shadow trials and auto-apply watches: the store's part for proposals that prove themselves.

A **shadow comparison** is what trying a proposal measured (``tracegrade proposals try``):
its two shadow runs and the comparison as JSON (``tracegrade.evals.ShadowComparison``).
A **watch** follows a proposal applied without a person (``apply --auto``): the next
``runs_to_watch`` runs of its touchpoint are compared with the level measured before, and a
drop beyond the allowed one rolls the touchpoint back; the watch keeps who or what did it.
:class:`ShadowStore` is the sub-protocol; :class:`SqlShadow` the SQL part of ``SqlStore``.
Migration 0003 creates the tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

import sqlalchemy as sa
from pydantic import Field

from tracegrade.errors import InputError
from tracegrade.store._records import JsonObject, UtcDatetime, _Record, as_utc, utc_now, validated
from tracegrade.store._schema import METADATA
from tracegrade.store._sql_base import SqlBase

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "ShadowComparisonRecord",
    "ShadowStore",
    "SqlShadow",
    "WatchRecord",
    "WatchStatus",
    "shadow_comparisons",
    "watches",
]

WatchStatus = Literal["watching", "kept", "rolled_back"]
"""``watching`` until ``runs_to_watch`` runs held (``kept``) or one dropped (``rolled_back``)."""

_NAME = 200

shadow_comparisons = sa.Table(
    "shadow_comparisons",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("proposal_id", sa.Integer(), nullable=False),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("base_run", sa.String(_NAME), nullable=False),
    sa.Column("proposed_run", sa.String(_NAME), nullable=False),
    sa.Column("verdict", sa.String(16), nullable=False),
    sa.Column("comparison", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint(
        "verdict IN ('better', 'worse', 'noise')", name="ck_shadow_comparisons_verdict"
    ),
    sa.Index("ix_shadow_comparisons_proposal_id", "proposal_id"),
)

watches = sa.Table(
    "auto_apply_watches",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("proposal_id", sa.Integer(), nullable=False),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("prior_version", sa.String(_NAME), nullable=False),
    sa.Column("applied_version", sa.String(_NAME), nullable=False),
    sa.Column("reference", sa.Float(), nullable=True),
    sa.Column("allowed_drop", sa.Float(), nullable=False),
    sa.Column("runs_to_watch", sa.Integer(), nullable=False),
    sa.Column("runs", sa.JSON(), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("reason", sa.Text(), nullable=False),
    sa.Column("rolled_back_to", sa.String(_NAME), nullable=True),
    sa.Column("rolled_back_by", sa.String(_NAME), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint(
        "status IN ('watching', 'kept', 'rolled_back')", name="ck_auto_apply_watches_status"
    ),
    sa.Index("ix_auto_apply_watches_touchpoint", "touchpoint", "status"),
)


class ShadowComparisonRecord(_Record):
    """A stored shadow trial of a proposal.

    Attributes:
        id: The store's id; ``None`` until stored.
        proposal_id: The proposal tried.
        touchpoint: Its touchpoint.
        base_run: The shadow run of the base version.
        proposed_run: The shadow run of the proposed version.
        verdict: ``better``, ``worse`` or ``noise``.
        comparison: The whole comparison (``ShadowComparison`` as JSON).
        created_at: When it was stored.
    """

    id: int | None = None
    proposal_id: int
    touchpoint: str = Field(min_length=1, max_length=_NAME)
    base_run: str = Field(min_length=1, max_length=_NAME)
    proposed_run: str = Field(min_length=1, max_length=_NAME)
    verdict: Literal["better", "worse", "noise"]
    comparison: JsonObject
    created_at: UtcDatetime = Field(default_factory=utc_now)


class WatchRecord(_Record):
    """The watch over a proposal applied without a person.

    Attributes:
        id: The store's id; ``None`` until stored.
        proposal_id: The proposal applied.
        touchpoint: Its touchpoint.
        prior_version: The version before it (what a rollback restores).
        applied_version: The version applying it recorded.
        reference: The metric measured before the change (the shadow run's base).
        allowed_drop: ``baseline.max_drop + variance_band`` of the touchpoint.
        runs_to_watch: How many runs are watched.
        runs: The runs watched so far, oldest first.
        status: See :data:`WatchStatus`.
        reason: One line: why it is in that status.
        rolled_back_to: The version the rollback recorded, if it rolled back.
        rolled_back_by: Who or what rolled back.
        created_at: When the watch began.
        closed_at: When it was kept or rolled back.
    """

    id: int | None = None
    proposal_id: int
    touchpoint: str = Field(min_length=1, max_length=_NAME)
    prior_version: str = Field(min_length=1, max_length=_NAME)
    applied_version: str = Field(min_length=1, max_length=_NAME)
    reference: float | None
    allowed_drop: float = Field(ge=0.0)
    runs_to_watch: int = Field(ge=1)
    runs: list[str] = Field(default_factory=list)
    status: WatchStatus = "watching"
    reason: str = ""
    rolled_back_to: str | None = None
    rolled_back_by: str | None = None
    created_at: UtcDatetime = Field(default_factory=utc_now)
    closed_at: UtcDatetime | None = None


class ShadowStore(Protocol):
    """Shadow comparisons and auto-apply watches."""

    def add_shadow_comparison(self, record: ShadowComparisonRecord) -> int:
        """Store a shadow comparison (its ``id`` is ignored) and return its new id."""
        ...

    def shadow_comparisons(
        self, *, proposal_id: int | None = None, touchpoint: str | None = None
    ) -> list[ShadowComparisonRecord]:
        """Stored comparisons (of one proposal or touchpoint if given), newest first."""
        ...

    def add_watch(self, record: WatchRecord) -> int:
        """Start a watch (its ``id`` is ignored) and return its new id."""
        ...

    def watches(
        self, touchpoint: str | None = None, *, status: WatchStatus | None = None
    ) -> list[WatchRecord]:
        """Watches (of one touchpoint, in one status if given), newest first."""
        ...

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
        """Record a watched run; a closed watch is final (``InputError`` if moved again)."""
        ...


def unknown_watch(watch_id: int) -> InputError:
    return InputError(f"no auto-apply watch {watch_id} in the store", fix="list the watches")


def closed_watch(watch_id: int, status: str) -> InputError:
    return InputError(
        f"auto-apply watch {watch_id} is {status} already", fix="a closed watch is final"
    )


def _comparison(row: sa.Row[Any]) -> ShadowComparisonRecord:
    values = dict(row._mapping)  # the row's public mapping view
    values["created_at"] = as_utc(row.created_at)
    return ShadowComparisonRecord.model_validate(values)


def _watch(row: sa.Row[Any]) -> WatchRecord:
    values = dict(row._mapping)  # the row's public mapping view
    values["created_at"] = as_utc(row.created_at)
    values["closed_at"] = None if row.closed_at is None else as_utc(row.closed_at)
    return WatchRecord.model_validate(values)


class SqlShadow(SqlBase):
    """The :class:`ShadowStore` part of ``SqlStore``."""

    def add_shadow_comparison(self, record: ShadowComparisonRecord) -> int:
        """Store a shadow comparison (its ``id`` is ignored) and return its new id."""
        values = validated(record).model_dump(exclude={"id"})
        with self._write() as connection:
            new_id: int = connection.execute(
                sa.insert(shadow_comparisons).values(**values).returning(shadow_comparisons.c.id)
            ).scalar_one()
            return new_id

    def shadow_comparisons(
        self, *, proposal_id: int | None = None, touchpoint: str | None = None
    ) -> list[ShadowComparisonRecord]:
        """Stored comparisons (of one proposal or touchpoint if given), newest first."""
        table = shadow_comparisons
        query = sa.select(table).order_by(table.c.created_at.desc(), table.c.id.desc())
        if proposal_id is not None:
            query = query.where(table.c.proposal_id == proposal_id)
        if touchpoint is not None:
            query = query.where(table.c.touchpoint == touchpoint)
        with self._read() as connection:
            return [_comparison(row) for row in connection.execute(query)]

    def add_watch(self, record: WatchRecord) -> int:
        """Start a watch (its ``id`` is ignored) and return its new id."""
        values = validated(record).model_dump(exclude={"id"})
        with self._write() as connection:
            new_id: int = connection.execute(
                sa.insert(watches).values(**values).returning(watches.c.id)
            ).scalar_one()
            return new_id

    def watches(
        self, touchpoint: str | None = None, *, status: WatchStatus | None = None
    ) -> list[WatchRecord]:
        """Watches (of one touchpoint, in one status if given), newest first."""
        query = sa.select(watches).order_by(watches.c.created_at.desc(), watches.c.id.desc())
        if touchpoint is not None:
            query = query.where(watches.c.touchpoint == touchpoint)
        if status is not None:
            query = query.where(watches.c.status == status)
        with self._read() as connection:
            return [_watch(row) for row in connection.execute(query)]

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
        """Record a watched run; a closed watch is final (``InputError`` if moved again)."""
        values: dict[str, Any] = {
            "runs": list(runs),
            "status": status,
            "reason": reason,
            "rolled_back_to": rolled_back_to,
            "rolled_back_by": rolled_back_by,
            "closed_at": None if status == "watching" else utc_now(),
        }
        with self._write() as connection:
            # Only a watch still watching moves: of two runs ending at once, one closes it.
            row = connection.execute(
                sa.update(watches)
                .where(watches.c.id == watch_id, watches.c.status == "watching")
                .values(**values)
                .returning(watches)
            ).one_or_none()
            if row is not None:
                return _watch(row)
            status_now = connection.execute(
                sa.select(watches.c.status).where(watches.c.id == watch_id)
            ).scalar_one_or_none()
            raise (
                unknown_watch(watch_id)
                if status_now is None
                else closed_watch(watch_id, status_now)
            )
