"""The cost ledger's part of the store: one row per model call, and rollups over them.

:class:`CostStore` is the sub-protocol :class:`~tracegrade.store.Store` includes;
:class:`SqlCosts` implements it in SQL (``SqlStore`` and ``InMemoryStore`` are assembled
from it); rollups are summed by :func:`rollup_calls`, so every database gives the same
numbers to the last digit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

import sqlalchemy as sa
from pydantic import Field

from tracegrade.store._records import (
    JsonObject,
    UtcDatetime,
    _Record,
    as_utc,
    utc_now,
    validated,
)
from tracegrade.store._schema import ai_calls
from tracegrade.store._sql_base import SqlBase

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from datetime import datetime

__all__ = [
    "AiCallRecord",
    "CallRole",
    "CostRollup",
    "CostStore",
    "RollupKey",
    "SqlCosts",
    "rollup_calls",
]

CallRole = Literal["agent", "judge"]
"""Who made a model call: the agent under test, or a judge grading it."""

RollupKey = Literal["touchpoint", "model", "day", "role"]
"""What a cost rollup groups by; ``day`` is the UTC date the call was recorded."""


class AiCallRecord(_Record):
    """One model call: its tokens, latency and price.

    Attributes:
        run_id: The run it was made in; ``None`` outside a run.
        touchpoint: The touchpoint it served.
        model: The model name as the provider reported it.
        role: ``agent`` or ``judge``.
        input_tokens: Input (prompt) tokens, cached ones included.
        output_tokens: Output (completion) tokens, reasoning included.
        cached_input_tokens: Of ``input_tokens``, how many were read from a prompt cache.
        latency_seconds: How long the call took; ``None`` when not measured.
        cost_usd: Its price in US dollars; ``None`` when the model is not in the price
            table (unpriced, never a stand-in zero).
        details: Free JSON: cache writes, the price-table entry it was priced as.
        recorded_at: When it was recorded.
    """

    run_id: str | None = None
    touchpoint: str = Field(min_length=1)
    model: str = Field(min_length=1)
    role: CallRole = "agent"
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    cached_input_tokens: int = Field(default=0, ge=0)
    latency_seconds: float | None = Field(default=None, ge=0)
    cost_usd: float | None = Field(default=None, ge=0)
    details: JsonObject = Field(default_factory=dict)
    recorded_at: UtcDatetime = Field(default_factory=utc_now)


class CostRollup(_Record):
    """The calls of one group (a touchpoint, model, UTC day or role), summed.

    Attributes:
        key: The group: a touchpoint id, a model name, an ISO date, or a role.
        calls: How many calls.
        input_tokens: Their input tokens.
        output_tokens: Their output tokens.
        cost_usd: The sum over the priced calls; ``None`` when every call is unpriced.
        unpriced_calls: Calls whose model has no price (not in ``cost_usd``).
    """

    key: str
    calls: int = Field(ge=0)
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    cost_usd: float | None
    unpriced_calls: int = Field(ge=0)


def _key(call: AiCallRecord, by: RollupKey) -> str:
    if by == "day":
        return call.recorded_at.date().isoformat()
    value: str = getattr(call, by)
    return value


def rollup_calls(calls: Iterable[AiCallRecord], by: RollupKey) -> list[CostRollup]:
    """Sum calls per group (pure); unpriced calls are counted, never added as zero.

    Args:
        calls: The calls, in the order they were recorded (sums follow that order).
        by: ``touchpoint``, ``model``, ``day`` (UTC) or ``role``.

    Returns:
        One rollup per group, sorted by key.
    """
    groups: dict[str, dict[str, Any]] = {}
    for call in calls:
        group = groups.setdefault(
            _key(call, by),
            {"calls": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": None, "unpriced": 0},
        )
        group["calls"] += 1
        group["input_tokens"] += call.input_tokens
        group["output_tokens"] += call.output_tokens
        if call.cost_usd is None:
            group["unpriced"] += 1
        else:
            group["cost_usd"] = (group["cost_usd"] or 0.0) + call.cost_usd
    return [
        CostRollup(
            key=key,
            calls=group["calls"],
            input_tokens=group["input_tokens"],
            output_tokens=group["output_tokens"],
            cost_usd=group["cost_usd"],
            unpriced_calls=group["unpriced"],
        )
        for key, group in sorted(groups.items())
    ]


class CostStore(Protocol):
    """The cost ledger: every model call, and rollups per touchpoint, model, day and role."""

    def add_ai_calls(self, calls: Sequence[AiCallRecord]) -> int:
        """Store the calls in one transaction (all or none); return how many were stored."""
        ...

    def ai_calls(
        self,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[AiCallRecord]:
        """The calls (of a run, of a touchpoint, recorded at or after ``since``), oldest first."""
        ...

    def cost_rollup(
        self,
        by: RollupKey,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[CostRollup]:
        """The filtered calls summed per group (:func:`rollup_calls`), sorted by key."""
        ...


def _row_call(row: sa.Row[Any]) -> AiCallRecord:
    return AiCallRecord(
        run_id=row.run_id,
        touchpoint=row.touchpoint,
        model=row.model,
        role=row.role,
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
        cached_input_tokens=row.cached_input_tokens,
        latency_seconds=row.latency_seconds,
        cost_usd=row.cost_usd,
        details=row.details,
        recorded_at=as_utc(row.recorded_at),
    )


class SqlCosts(SqlBase):
    """The cost ledger in SQL (table ``ai_calls``)."""

    def add_ai_calls(self, calls: Sequence[AiCallRecord]) -> int:
        """Store the calls in one transaction (all or none); return how many were stored."""
        rows = [validated(call).model_dump() for call in calls]
        if not rows:
            return 0
        with self._write() as connection:
            connection.execute(sa.insert(ai_calls), rows)
        return len(rows)

    def ai_calls(
        self,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[AiCallRecord]:
        """The calls (of a run, of a touchpoint, recorded at or after ``since``), oldest first."""
        query = sa.select(ai_calls).order_by(ai_calls.c.recorded_at, ai_calls.c.id)
        if run_id is not None:
            query = query.where(ai_calls.c.run_id == run_id)
        if touchpoint is not None:
            query = query.where(ai_calls.c.touchpoint == touchpoint)
        if since is not None:
            query = query.where(ai_calls.c.recorded_at >= as_utc(since))
        with self._read() as connection:
            return [_row_call(row) for row in connection.execute(query)]

    def cost_rollup(
        self,
        by: RollupKey,
        *,
        run_id: str | None = None,
        touchpoint: str | None = None,
        since: datetime | None = None,
    ) -> list[CostRollup]:
        """The filtered calls summed per group (:func:`rollup_calls`), sorted by key.

        Summed here rather than in SQL: a UTC day and the sum order are then the same in
        SQLite and PostgreSQL.
        """
        calls = self.ai_calls(run_id=run_id, touchpoint=touchpoint, since=since)
        return rollup_calls(calls, by)
