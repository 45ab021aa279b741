"""Drift: which of a touchpoint's files changed since its baseline (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["Change", "FileDrift", "drift"]

Change = Literal["changed", "added", "removed"]


@dataclass(frozen=True, slots=True)
class FileDrift:
    """One file that differs from the baseline's.

    Attributes:
        path: The file, as the contract names it.
        change: ``changed`` (another sha256), ``added`` (not hashed at the baseline),
            ``removed`` (hashed at the baseline, not now).
        before: Its sha256 at the baseline, if it was there.
        after: Its sha256 now, if it is there.
    """

    path: str
    change: Change
    before: str | None
    after: str | None


def drift(current: Mapping[str, str], baseline: Mapping[str, str]) -> tuple[FileDrift, ...]:
    """The files whose sha256 differs between now and the baseline, sorted by path.

    Args:
        current: Path to sha256 now (:func:`file_hashes`).
        baseline: Path to sha256 stored with the baseline run.
    """
    found = []
    for path in sorted(set(current) | set(baseline)):
        before, after = baseline.get(path), current.get(path)
        if before == after:
            continue
        change: Change = "added" if before is None else "removed" if after is None else "changed"
        found.append(FileDrift(path, change, before, after))
    return tuple(found)
