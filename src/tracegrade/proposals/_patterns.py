"""Patterns: unprocessed signals grouped by what went wrong (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from datetime import datetime

    from tracegrade.store import JsonObject, SignalRecord

__all__ = ["Pattern", "find_patterns"]


@dataclass(frozen=True, slots=True)
class Pattern:
    """Unprocessed signals of one touchpoint with the same kind and fingerprint.

    Attributes:
        touchpoint: The touchpoint.
        kind: The signals' kind.
        fingerprint: What they share; a proposal answering them names it as its pattern.
        count: How many signals.
        first_seen: The oldest signal's time.
        last_seen: The newest signal's time.
        signal_ids: Their ids, oldest first.
        example: The newest signal's payload.
    """

    touchpoint: str
    kind: str
    fingerprint: str
    count: int
    first_seen: datetime
    last_seen: datetime
    signal_ids: tuple[int, ...]
    example: JsonObject


def find_patterns(signals: Iterable[SignalRecord]) -> list[Pattern]:
    """Group the unprocessed signals by (touchpoint, kind, fingerprint).

    Processed signals and signals without an id (never stored) are left out. The order is
    deterministic: most signals first, then by touchpoint, kind and fingerprint.
    """
    groups: dict[tuple[str, str, str], list[SignalRecord]] = {}
    for signal in signals:
        if signal.processed or signal.id is None:
            continue
        key = (signal.touchpoint, signal.kind, signal.fingerprint)
        groups.setdefault(key, []).append(signal)
    patterns = []
    for (touchpoint, kind, print_), members in groups.items():
        members.sort(key=lambda signal: (signal.recorded_at, signal.id or 0))
        patterns.append(
            Pattern(
                touchpoint=touchpoint,
                kind=kind,
                fingerprint=print_,
                count=len(members),
                first_seen=members[0].recorded_at,
                last_seen=members[-1].recorded_at,
                signal_ids=tuple(signal.id or 0 for signal in members),
                example=members[-1].payload,
            )
        )
    patterns.sort(key=lambda p: (-p.count, p.touchpoint, p.kind, p.fingerprint))
    return patterns
