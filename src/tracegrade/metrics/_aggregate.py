"""The mean of many per-case scores, skipping and counting the cases that have none."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Average", "average"]


@dataclass(frozen=True, slots=True)
class Average:
    """The mean of the defined scores, and how many scores were undefined.

    Unknown is never zero: a case whose score is ``None`` (precision with no predictions,
    pass@k with fewer than k samples) is left out of the mean and counted in ``skipped``.

    Attributes:
        value: The arithmetic mean of the defined scores; ``None`` when there were none.
        counted: How many scores went into ``value``.
        skipped: How many scores were ``None`` and were left out.
    """

    value: float | None
    counted: int
    skipped: int


def average(scores: Iterable[float | None]) -> Average:
    """Average the defined scores; count the undefined ones instead of scoring them zero.

    Args:
        scores: One score per case; ``None`` for a case whose score is undefined.

    Returns:
        The mean of the scores that are not ``None`` (summed with :func:`math.fsum`, and
        never outside the smallest and largest score), how many there were and how many
        were skipped. An empty input, or one of only ``None``,
        has ``value=None``.

    Example:
        >>> average([1.0, None, 0.5])
        Average(value=0.75, counted=2, skipped=1)
    """
    defined: list[float] = []
    skipped = 0
    for score in scores:
        if score is None:
            skipped += 1
        else:
            defined.append(score)
    if not defined:
        return Average(value=None, counted=0, skipped=skipped)
    # Rounding the division can step one unit past the extremes (three equal scores whose
    # mean is not that score); the mean of scores in [0, 1] must stay in [0, 1].
    mean = min(max(math.fsum(defined) / len(defined), min(defined)), max(defined))
    return Average(value=mean, counted=len(defined), skipped=skipped)
