"""Ranking metrics: reciprocal rank and MRR, precision at k, DCG and nDCG at k."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import TYPE_CHECKING, Literal, TypeVar

from tracegrade.errors import InputError
from tracegrade.metrics._aggregate import Average, average

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

__all__ = [
    "Gain",
    "dcg_at_k",
    "mean_reciprocal_rank",
    "ndcg_at_k",
    "precision_at_k",
    "reciprocal_rank",
]

Gain = Literal["linear", "exponential"]

Item = TypeVar("Item", bound=Hashable)

# 2**grade must stay far from float overflow however many items are summed.
_LARGEST_EXPONENTIAL_GRADE = 100


def reciprocal_rank(ranking: Sequence[Item], relevant: Collection[Item]) -> float | None:
    """One over the rank of the first relevant item (ranks start at 1).

    Args:
        ranking: The items in the order the system ranked them, best first.
        relevant: The items that answer the query.

    Returns:
        ``1 / rank`` of the first relevant item; ``0.0`` when the ranking holds none;
        ``None`` when ``relevant`` is empty (the query has no answer to find, and trec_eval
        leaves such queries out).

    Example:
        >>> reciprocal_rank(["b", "a", "c"], {"a", "c"})
        0.5
    """
    if not relevant:
        return None
    for rank, item in enumerate(ranking, start=1):
        if item in relevant:
            return 1 / rank
    return 0.0


def mean_reciprocal_rank(
    cases: Iterable[tuple[Sequence[Item], Collection[Item]]],
) -> Average:
    """MRR: the mean reciprocal rank over queries, skipping queries with nothing relevant.

    Args:
        cases: ``(ranking, relevant)`` pairs, one per query.

    Returns:
        The mean of the defined reciprocal ranks and how many queries were skipped.
    """
    return average(reciprocal_rank(ranking, relevant) for ranking, relevant in cases)


def precision_at_k(ranking: Sequence[Item], relevant: Collection[Item], k: int) -> float | None:
    """P@k: the share of the first k positions that hold a relevant item.

    The denominator is always ``k``: a ranking shorter than ``k`` is as if padded with
    non-relevant items (the trec_eval convention), so returning fewer items never helps. An
    item repeated in the ranking counts only where it first appears.

    Args:
        ranking: The items in the order the system ranked them, best first.
        relevant: The items that answer the query.
        k: The cut-off, 1 or more.

    Returns:
        (relevant items among the first k) / k; ``None`` when ``relevant`` is empty.

    Raises:
        InputError: ``k`` is less than 1.

    Example:
        >>> precision_at_k(["a", "x", "b", "y"], {"a", "b", "c"}, 2)
        0.5
    """
    _check_cutoff(k)
    if not relevant:
        return None
    hits = sum(1 for _, item in _first_occurrences(ranking, k) if item in relevant)
    return hits / k


def dcg_at_k(
    ranking: Sequence[Item],
    relevance: Mapping[Item, float],
    k: int,
    *,
    gain: Gain = "linear",
) -> float:
    """DCG@k: the gains of the first k items, each divided by log2(rank + 1).

    Args:
        ranking: The items in the order the system ranked them, best first.
        relevance: The graded relevance of the judged items (0 or more); an item not in the
            mapping has relevance 0.
        k: The cut-off, 1 or more.
        gain: ``"linear"`` uses the grade itself (Järvelin and Kekäläinen; scikit-learn's
            ``dcg_score``); ``"exponential"`` uses ``2**grade - 1`` (Burges et al.), for
            grades up to 100.

    Returns:
        The discounted cumulative gain. An item repeated in the ranking gains only where it
        first appears.

    Raises:
        InputError: ``k`` is less than 1, a grade is negative or not finite, or a grade is
            above 100 with exponential gain.
    """
    _check_cutoff(k)
    _check_grades(relevance, gain)
    return _discounted_sum(
        (rank, _gain(relevance.get(item, 0.0), gain))
        for rank, item in _first_occurrences(ranking, k)
    )


def ndcg_at_k(
    ranking: Sequence[Item],
    relevance: Mapping[Item, float],
    k: int,
    *,
    gain: Gain = "linear",
) -> float | None:
    """nDCG@k: DCG@k divided by the DCG@k of the ideal ranking of all judged items.

    The ideal ranking sorts every item of ``relevance`` by grade, including items the
    system did not return, so missing a highly relevant item costs score.

    Args:
        ranking: The items in the order the system ranked them, best first.
        relevance: The graded relevance of the judged items (0 or more); an item not in the
            mapping has relevance 0.
        k: The cut-off, 1 or more.
        gain: ``"linear"`` or ``"exponential"``, as in :func:`dcg_at_k`.

    Returns:
        A score in [0, 1]; ``None`` when no item has a grade above 0 (the ideal DCG is 0).

    Raises:
        InputError: ``k`` is less than 1, a grade is negative or not finite, or a grade is
            above 100 with exponential gain.

    Example:
        >>> ndcg_at_k(["a", "b"], {"a": 1.0, "b": 3.0}, 2)  # doctest: +ELLIPSIS
        0.7967...
    """
    actual = dcg_at_k(ranking, relevance, k, gain=gain)
    ideal_grades = sorted(relevance.values(), reverse=True)[:k]
    ideal = _discounted_sum(
        (rank, _gain(grade, gain)) for rank, grade in enumerate(ideal_grades, start=1)
    )
    return actual / ideal if ideal > 0 else None


def _first_occurrences(ranking: Sequence[Item], k: int) -> Iterator[tuple[int, Item]]:
    """The (rank, item) pairs of the first k positions, each item at its first position only."""
    seen: set[Item] = set()
    for rank, item in enumerate(ranking[:k], start=1):
        if item not in seen:
            seen.add(item)
            yield rank, item


def _discounted_sum(gains: Iterable[tuple[int, float]]) -> float:
    """The sum of gain / log2(rank + 1) over (rank, gain) pairs."""
    return math.fsum(value / math.log2(rank + 1) for rank, value in gains)


def _gain(grade: float, gain: Gain) -> float:
    """The gain of one grade."""
    # expm1 keeps 2**grade - 1 accurate (and above 0) for grades near 0.
    return grade if gain == "linear" else math.expm1(grade * math.log(2))


def _check_cutoff(k: int) -> None:
    if k < 1:
        raise InputError(f"the cut-off k must be 1 or more, got {k}", fix="pass k >= 1")


def _check_grades(relevance: Mapping[Item, float], gain: Gain) -> None:
    for item, grade in relevance.items():
        if not math.isfinite(grade) or grade < 0:
            raise InputError(
                f"the relevance of {item!r} must be a finite number 0 or more, got {grade!r}",
                fix="grade items 0 (not relevant) and up",
            )
        if gain == "exponential" and grade > _LARGEST_EXPONENTIAL_GRADE:
            raise InputError(
                f"the relevance of {item!r} is {grade!r}, too large for exponential gain"
                f" (2**grade); the largest is {_LARGEST_EXPONENTIAL_GRADE}",
                fix='use gain="linear" for large grades',
            )
