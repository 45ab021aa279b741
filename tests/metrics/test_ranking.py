"""Reciprocal rank and MRR, P@k, DCG and nDCG on published examples and edge cases."""

from __future__ import annotations

import math

import pytest

from tracegrade.errors import InputError
from tracegrade.metrics import (
    Average,
    dcg_at_k,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    reciprocal_rank,
)

# Wikipedia, "Mean reciprocal rank", example: the correct answer of "cat" is ranked 3rd,
# ("tori") of "torus" 2nd, of "virus" 1st; MRR = (1/3 + 1/2 + 1) / 3 = 11/18, about 0.61.
WIKIPEDIA_MRR_CASES = [
    (["catten", "cati", "cats"], {"cats"}),
    (["torii", "tori", "toruses"], {"tori"}),
    (["viruses", "virii", "viri"], {"viruses"}),
]


def test_wikipedia_mrr_example() -> None:
    assert [reciprocal_rank(r, rel) for r, rel in WIKIPEDIA_MRR_CASES] == [1 / 3, 1 / 2, 1.0]
    mrr = mean_reciprocal_rank(WIKIPEDIA_MRR_CASES)
    assert mrr.value == pytest.approx(11 / 18)
    assert (mrr.counted, mrr.skipped) == (3, 0)


def test_no_relevant_item_ranked_scores_zero() -> None:
    assert reciprocal_rank(["a", "b"], {"z"}) == 0.0


def test_a_query_with_nothing_relevant_is_skipped_not_scored_zero() -> None:
    assert reciprocal_rank(["a", "b"], set()) is None
    assert mean_reciprocal_rank([(["a"], {"a"}), (["a"], set())]) == Average(
        value=1.0, counted=1, skipped=1
    )


# Wikipedia, "Discounted cumulative gain", example: documents D1..D6 ranked in that order
# with relevance 3, 2, 3, 0, 1, 2 give DCG6 = 6.861. D7 (relevance 3) and D8 (relevance 2)
# were judged but not returned, so the ideal order is 3, 3, 3, 2, 2, 2: IDCG6 = 8.740 and
# nDCG6 = 6.861 / 8.740 = 0.785.
WIKIPEDIA_RANKING = ["D1", "D2", "D3", "D4", "D5", "D6"]
WIKIPEDIA_GRADES: dict[str, float] = {
    "D1": 3,
    "D2": 2,
    "D3": 3,
    "D4": 0,
    "D5": 1,
    "D6": 2,
    "D7": 3,
    "D8": 2,
}


def test_wikipedia_dcg_example() -> None:
    assert dcg_at_k(WIKIPEDIA_RANKING, WIKIPEDIA_GRADES, 6) == pytest.approx(6.861, abs=5e-4)


def test_wikipedia_ndcg_example_counts_judged_items_that_were_not_returned() -> None:
    assert ndcg_at_k(WIKIPEDIA_RANKING, WIKIPEDIA_GRADES, 6) == pytest.approx(0.785, abs=5e-4)


# scikit-learn's ndcg_score docstring: true relevance [10, 0, 0, 1, 5]; scores
# [.1, .2, .3, 4, 70] give 0.69...; scores [.05, 1.1, 1., .5, .0] give 0.49..., and 0.35...
# with k=4. A ranking is the items sorted by score, highest first.
SKLEARN_GRADES: dict[str, float] = {"a": 10, "b": 0, "c": 0, "d": 1, "e": 5}


def test_sklearn_docstring_ndcg_examples() -> None:
    first = ndcg_at_k(["e", "d", "c", "b", "a"], SKLEARN_GRADES, 5)
    second = ndcg_at_k(["b", "c", "d", "a", "e"], SKLEARN_GRADES, 5)
    second_at_4 = ndcg_at_k(["b", "c", "d", "a", "e"], SKLEARN_GRADES, 4)
    assert [f"{value:.4f}"[:4] for value in (first, second, second_at_4)] == [
        "0.69", "0.49", "0.35",
    ]  # fmt: skip


def test_exponential_gain_uses_two_to_the_grade_minus_one() -> None:
    # Burges et al. (2005): gain 2**rel - 1. a (1) then b (3): DCG = 1 + 7 / log2(3);
    # ideal b then a: 7 + 1 / log2(3).
    expected = (1 + 7 / math.log2(3)) / (7 + 1 / math.log2(3))
    assert ndcg_at_k(["a", "b"], {"a": 1, "b": 3}, 2, gain="exponential") == pytest.approx(expected)
    assert ndcg_at_k(["a", "b"], {"a": 1, "b": 3}, 2) == pytest.approx(
        (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    )


def test_ideal_ranking_scores_one_and_cutoff_cuts() -> None:
    assert ndcg_at_k(["x", "y", "z"], {"x": 2, "y": 1}, 3) == 1.0
    # Only the first position counts at k=1: y (1) where x (2) should be.
    assert ndcg_at_k(["y", "x"], {"x": 2, "y": 1}, 1) == 0.5


def test_ndcg_is_undefined_when_nothing_is_relevant() -> None:
    assert ndcg_at_k(["a", "b"], {"a": 0, "b": 0}, 2) is None
    assert ndcg_at_k(["a", "b"], {}, 2) is None


def test_unjudged_items_have_relevance_zero() -> None:
    assert dcg_at_k(["unjudged", "a"], {"a": 1}, 2) == pytest.approx(1 / math.log2(3))


def test_a_repeated_item_gains_only_once() -> None:
    assert dcg_at_k(["a", "a"], {"a": 1}, 2) == 1.0
    assert precision_at_k(["a", "a"], {"a"}, 2) == 0.5


def test_negative_or_nan_grades_are_refused() -> None:
    with pytest.raises(InputError, match="relevance of 'a'"):
        ndcg_at_k(["a"], {"a": -1}, 1)
    with pytest.raises(InputError, match="finite"):
        dcg_at_k(["a"], {"a": float("nan")}, 1)


def test_exponential_gain_refuses_grades_whose_power_would_overflow() -> None:
    assert ndcg_at_k(["a"], {"a": 100}, 1, gain="exponential") == 1.0
    with pytest.raises(InputError, match="too large for exponential gain"):
        ndcg_at_k(["a"], {"a": 1024}, 1, gain="exponential")


def test_precision_at_k_by_hand() -> None:
    ranking = ["a", "x", "b", "y"]
    relevant = {"a", "b", "c"}
    assert [precision_at_k(ranking, relevant, k) for k in (1, 2, 3, 4)] == [1.0, 0.5, 2 / 3, 0.5]


def test_precision_at_k_divides_by_k_even_for_a_short_ranking() -> None:
    assert precision_at_k(["a"], {"a"}, 10) == 0.1


def test_precision_at_k_is_undefined_when_nothing_is_relevant() -> None:
    assert precision_at_k(["a"], set(), 1) is None


@pytest.mark.parametrize("k", [0, -1])
def test_cutoff_below_one_is_refused(k: int) -> None:
    with pytest.raises(InputError, match="k must be 1 or more"):
        precision_at_k(["a"], {"a"}, k)
    with pytest.raises(InputError, match="k must be 1 or more"):
        ndcg_at_k(["a"], {"a": 1}, k)
