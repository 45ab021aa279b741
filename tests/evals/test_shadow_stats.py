"""Shadow statistics: exact McNemar and the seeded paired bootstrap, on hand-worked cases."""

from __future__ import annotations

import pytest

from tracegrade.evals._shadow_stats import mcnemar_exact, paired_bootstrap


@pytest.mark.parametrize(
    ("fixed", "broken", "expected"),
    [
        (0, 0, 1.0),  # no discordant pair: no evidence
        (1, 0, 1.0),  # 2 * 1/2 = 1
        (5, 0, 0.0625),  # 2 / 2**5: one short of significant at 0.05
        (6, 0, 0.03125),  # 2 / 2**6: the first all-fixed count below 0.05
        (0, 6, 0.03125),  # two-sided: the same for broken
        (8, 2, 0.109375),  # 2 * (1 + 10 + 45) / 1024
        (3, 3, 1.0),  # balanced: capped at 1
        (10, 0, 2 / 1024),
    ],
)
def test_mcnemar_matches_the_binomial_worked_by_hand(
    fixed: int, broken: int, expected: float
) -> None:
    assert mcnemar_exact(fixed, broken) == pytest.approx(expected, abs=1e-12)


def test_the_sixth_fixed_pair_is_what_turns_it_significant() -> None:
    assert mcnemar_exact(5, 0) >= 0.05
    assert mcnemar_exact(6, 0) < 0.05
    assert mcnemar_exact(6, 1) >= 0.05  # one broken pair takes it back: 2 * 8 / 128


def test_mcnemar_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        mcnemar_exact(-1, 2)


def test_the_bootstrap_of_identical_differences_is_that_difference() -> None:
    assert paired_bootstrap([1.0] * 5) == (1.0, 1.0)
    assert paired_bootstrap([0.0] * 20) == (0.0, 0.0)
    assert paired_bootstrap([]) is None


def test_the_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    differences = [1.0] * 6 + [0.0] * 14  # mean 0.3
    first = paired_bootstrap(differences)
    assert first == paired_bootstrap(differences)  # same seed, same interval
    assert first is not None
    low, high = first
    assert 0.0 < low < 0.3 < high < 0.6
    spread = [0.37, -0.12, 0.05, 0.81, 0.26, -0.4, 0.18, 0.6, 0.02, 0.33]  # metric deltas
    assert paired_bootstrap(spread, seed=1) != paired_bootstrap(spread, seed=2)


def test_the_bootstrap_interval_holds_zero_when_gains_and_losses_balance() -> None:
    interval = paired_bootstrap([1.0, -1.0] * 5 + [0.0] * 10)
    assert interval is not None
    assert interval[0] < 0.0 < interval[1]


def test_a_single_gain_among_many_pairs_does_not_exclude_zero() -> None:
    # One pair of 20 differs: a resample misses it with probability (19/20)**20 = 0.358.
    interval = paired_bootstrap([1.0] + [0.0] * 19)
    assert interval is not None
    assert interval[0] == 0.0


def test_the_bootstrap_refuses_nonsense_settings() -> None:
    with pytest.raises(ValueError, match="resamples"):
        paired_bootstrap([1.0], resamples=0)
    with pytest.raises(ValueError, match="confidence"):
        paired_bootstrap([1.0], confidence=1.0)
