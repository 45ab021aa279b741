"""Template filters: how numbers, money, times and hashes are written on the pages (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

__all__ = ["FILTERS", "delta", "moment", "number", "short_hash", "usd"]

_UNKNOWN = "—"  # an unknown value is never shown as zero


def number(value: float | None, places: int = 3) -> str:
    """A metric with ``places`` decimals; a dash when unknown."""
    return _UNKNOWN if value is None else f"{value:.{places}f}"


def delta(value: float | None) -> str:
    """A change with its sign (``+0.050``, ``-0.125``); a dash when unknown."""
    return _UNKNOWN if value is None else f"{value:+.3f}"


def usd(value: float | None) -> str:
    """Dollars with four decimals (model calls are cheap); a dash when unpriced."""
    return _UNKNOWN if value is None else f"${value:,.4f}"


def moment(value: datetime | None) -> str:
    """A UTC timestamp to the second."""
    return _UNKNOWN if value is None else value.strftime("%Y-%m-%d %H:%M:%S UTC")


def short_hash(value: str | None) -> str:
    """The first 12 hex digits of a hash."""
    return _UNKNOWN if not value else value[:12]


FILTERS: dict[str, Callable[..., Any]] = {
    "delta": delta,
    "moment": moment,
    "number": number,
    "short_hash": short_hash,
    "usd": usd,
}
"""Every filter, by the name templates use."""
