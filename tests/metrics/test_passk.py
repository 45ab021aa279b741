"""pass@k (Chen et al., 2021) and pass^k (Yao et al., 2024) by hand and against the papers' code."""

from __future__ import annotations

import math

import pytest

from tracegrade.errors import InputError
from tracegrade.metrics import average, pass_at_k, pass_hat_k


def chen_et_al_pass_at_k(n: int, c: int, k: int) -> float:
    """The numerically stable estimator of Chen et al. (2021), Figure 3, without numpy.

    ``1 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))``, and 1.0 when n - c < k.
    """
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def tau_bench_pass_hat_k(num_trials: int, success_count: int, k: int) -> float:
    """τ-bench's formula (sierra-research/tau-bench, run.py display_metrics; tau2-bench
    agent_metrics.py pass_hat_k): ``comb(c, k) / comb(n, k)``."""
    return math.comb(success_count, k) / math.comb(num_trials, k)


def test_pass_at_k_by_hand() -> None:
    # 1 - C(n - c, k) / C(n, k)
    assert pass_at_k(5, 2, 2) == 0.7  # 1 - 3/10
    assert pass_at_k(10, 3, 5) == pytest.approx(11 / 12, abs=1e-15)  # 1 - 21/252
    assert pass_at_k(200, 0, 100) == 0.0
    assert pass_at_k(4, 1, 4) == 1.0  # n - c < k: every draw of 4 holds the correct one


def test_pass_at_1_is_the_share_correct() -> None:
    assert pass_at_k(10, 3, 1) == 0.3
    assert pass_hat_k(10, 3, 1) == 0.3


def test_pass_hat_k_by_hand() -> None:
    # C(c, k) / C(n, k)
    assert pass_hat_k(4, 3, 2) == 0.5  # 3/6
    assert pass_hat_k(8, 6, 2) == 15 / 28
    assert pass_hat_k(8, 1, 2) == 0.0  # fewer successes than k
    assert pass_hat_k(8, 8, 8) == 1.0


def test_fewer_samples_than_k_is_undefined_and_averages_skip_it() -> None:
    assert pass_at_k(3, 1, 5) is None
    assert pass_hat_k(3, 1, 5) is None
    assert pass_at_k(0, 0, 1) is None
    problems = [(10, 3), (3, 3), (10, 10)]
    mean = average(pass_at_k(n, c, 5) for n, c in problems)
    assert (mean.counted, mean.skipped) == (2, 1)
    assert mean.value == pytest.approx((11 / 12 + 1.0) / 2)


@pytest.mark.parametrize(("samples", "correct", "k"), [(5, 6, 1), (5, -1, 1), (5, 2, 0)])
def test_impossible_counts_are_refused(samples: int, correct: int, k: int) -> None:
    with pytest.raises(InputError):
        pass_at_k(samples, correct, k)
    with pytest.raises(InputError):
        pass_hat_k(samples, correct, k)


def test_agrees_with_the_papers_stable_estimator() -> None:
    # Every (n, c, k) up to n = 60, and the HumanEval sampling setting n = 200.
    worst = 0.0
    cases = [(n, c, k) for n in range(1, 61) for c in range(n + 1) for k in range(1, n + 1)]
    cases += [(200, c, k) for c in range(0, 201, 7) for k in (1, 10, 100)]
    for n, c, k in cases:
        ours = pass_at_k(n, c, k)
        assert ours is not None
        worst = max(worst, abs(ours - chen_et_al_pass_at_k(n, c, k)))
    assert worst < 1e-12


def test_agrees_with_tau_bench() -> None:
    for n in range(1, 41):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_hat_k(n, c, k) == pytest.approx(
                    tau_bench_pass_hat_k(n, c, k), rel=1e-15, abs=1e-300
                )


def test_large_counts_neither_overflow_nor_cancel() -> None:
    # C(10000, 1000) is about 9e1409, far past a float; the ratio is about 2.5e-5.
    log_ratio = math.lgamma(9_901) - math.lgamma(8_901) - math.lgamma(10_001) + math.lgamma(9_001)
    assert pass_hat_k(10_000, 9_900, 1_000) == pytest.approx(math.exp(log_ratio), rel=1e-9)
    # 1 - (1 - 1e-6) in floats is 9.999999999177334e-07; the exact form gives 1e-06.
    assert pass_at_k(1_000_000, 1, 1) == 1e-6
