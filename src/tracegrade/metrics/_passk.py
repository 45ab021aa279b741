"""pass@k (Chen et al., 2021) and pass^k (Yao et al., 2024) from n samples with c correct."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from tracegrade.errors import InputError

__all__ = ["pass_at_k", "pass_hat_k"]


def pass_at_k(samples: int, correct: int, k: int) -> float | None:
    """pass@k: the chance that at least one of k samples drawn from the n is correct.

    The unbiased estimator of Chen et al. (2021), "Evaluating Large Language Models Trained
    on Code", section 2.1: ``1 - C(n - c, k) / C(n, k)``. It is computed exactly in integers
    and fractions, then rounded once to a float, so it neither overflows nor cancels (the
    paper's numerically stable product form agrees with it to within rounding).

    Args:
        samples: n, the number of samples generated for the problem.
        correct: c, how many of them passed.
        k: How many samples a user would draw, 1 or more.

    Returns:
        The estimate in [0, 1]; ``None`` when there are fewer than k samples (the estimator
        needs n >= k), so an average over problems can skip and count the problem.

    Raises:
        InputError: ``k`` is less than 1, or ``correct`` is not between 0 and ``samples``.

    Example:
        >>> pass_at_k(5, 2, 2)  # 1 - C(3, 2) / C(5, 2) = 1 - 3/10
        0.7
    """
    _check(samples, correct, k)
    if samples < k:
        return None
    return float(1 - Fraction(comb(samples - correct, k), comb(samples, k)))


def pass_hat_k(samples: int, correct: int, k: int) -> float | None:
    """pass^k: the chance that all k of k trials drawn from the n succeed.

    The estimator of Yao et al. (2024), "τ-bench: A Benchmark for Tool-Agent-User Interaction
    in Real-World Domains" (arXiv:2406.12045): ``C(c, k) / C(n, k)``, computed exactly. It
    falls as k grows where pass@k rises; both equal c / n at k = 1.

    Args:
        samples: n, the number of trials run for the task.
        correct: c, how many of them succeeded.
        k: How many trials must all succeed, 1 or more.

    Returns:
        The estimate in [0, 1]; ``None`` when there are fewer than k trials.

    Raises:
        InputError: ``k`` is less than 1, or ``correct`` is not between 0 and ``samples``.

    Example:
        >>> pass_hat_k(4, 3, 2)  # C(3, 2) / C(4, 2) = 3/6
        0.5
    """
    _check(samples, correct, k)
    if samples < k:
        return None
    return float(Fraction(comb(correct, k), comb(samples, k)))


def _check(samples: int, correct: int, k: int) -> None:
    if k < 1:
        raise InputError(f"k must be 1 or more, got {k}", fix="pass k >= 1")
    if not 0 <= correct <= samples:
        raise InputError(
            f"correct must be between 0 and samples ({samples}), got {correct}",
            fix="count the correct samples among the samples",
        )
