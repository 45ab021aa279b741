"""Paired statistics of a shadow run: exact McNemar and a seeded paired bootstrap (pure).

A shadow run measures the base and the proposed version on the same cases and repeats, so
each (case, repeat) is a pair. Pass/fail pairs are tested with McNemar's exact test: only
the discordant pairs (fixed: failed before, passed after; broken: the reverse) carry
information, and under "no difference" each is fixed or broken with probability 1/2. The
metric's mean difference gets a percentile bootstrap interval over resampled pairs, seeded
so that the same results always give the same interval.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["BOOTSTRAP_RESAMPLES", "BOOTSTRAP_SEED", "mcnemar_exact", "paired_bootstrap"]

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of :func:`paired_bootstrap` unless told."""
BOOTSTRAP_SEED = 17
"""The seed of :func:`paired_bootstrap` unless told: the same pairs, the same interval."""


def mcnemar_exact(fixed: int, broken: int) -> float:
    """The two-sided p-value of McNemar's exact test on the discordant pair counts.

    ``2 * P(X <= min(fixed, broken))`` for ``X ~ Binomial(fixed + broken, 1/2)``, capped
    at 1; with no discordant pair there is no evidence of a difference (1.0).

    Example:
        >>> mcnemar_exact(6, 0)  # 2 / 2**6
        0.03125
        >>> mcnemar_exact(5, 0)
        0.0625
    """
    if fixed < 0 or broken < 0:
        msg = f"pair counts must not be negative, got {fixed} and {broken}"
        raise ValueError(msg)
    total = fixed + broken
    if total == 0:
        return 1.0
    tail = sum(math.comb(total, k) for k in range(min(fixed, broken) + 1))
    return min(1.0, 2 * tail / (1 << total))  # exact integers: no overflow


def paired_bootstrap(
    differences: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = 0.95,
) -> tuple[float, float] | None:
    """A percentile bootstrap interval of the mean of paired differences (after - before).

    Pairs are resampled with replacement ``resamples`` times from ``random.Random(seed)``;
    the interval is the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles of
    the resampled means (nearest rank). ``None`` when there is no pair.

    Example:
        >>> paired_bootstrap([1.0, 1.0, 1.0])
        (1.0, 1.0)
    """
    if resamples < 1 or not 0 < confidence < 1:
        msg = f"need resamples >= 1 and 0 < confidence < 1, got {resamples} and {confidence}"
        raise ValueError(msg)
    n = len(differences)
    if n == 0:
        return None
    draw = random.Random(seed).choices  # noqa: S311 - resampling, not secrets
    means = sorted(math.fsum(draw(differences, k=n)) / n for _ in range(resamples))
    low_rank = max(0, math.ceil(resamples * (1 - confidence) / 2) - 1)
    high_rank = min(resamples - 1, math.ceil(resamples * (1 + confidence) / 2) - 1)
    return means[low_rank], means[high_rank]
