"""Precision, recall and F1 of a set of predicted items against the expected items."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.metrics._aggregate import Average, average

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

__all__ = [
    "Confusion",
    "MacroScores",
    "count_matches",
    "f1",
    "macro_scores",
    "micro_scores",
    "precision",
    "recall",
]


@dataclass(frozen=True, slots=True)
class Confusion:
    """The match counts of one case, or of many cases pooled (micro-averaging).

    Attributes:
        true_positives: Predicted items that were expected.
        false_positives: Predicted items that were not expected.
        false_negatives: Expected items that were not predicted.
    """

    true_positives: int
    false_positives: int
    false_negatives: int

    def __post_init__(self) -> None:
        if min(self.true_positives, self.false_positives, self.false_negatives) < 0:
            raise InputError(
                f"match counts must not be negative, got {self}",
                fix="count items, so every count is 0 or more",
            )

    def __add__(self, other: Confusion) -> Confusion:
        return Confusion(
            true_positives=self.true_positives + other.true_positives,
            false_positives=self.false_positives + other.false_positives,
            false_negatives=self.false_negatives + other.false_negatives,
        )

    @property
    def precision(self) -> float | None:
        """TP / (TP + FP): the share of predictions that were expected; ``None`` if none."""
        predicted = self.true_positives + self.false_positives
        return self.true_positives / predicted if predicted else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN): the share of expected items that were predicted; ``None`` if none."""
        expected = self.true_positives + self.false_negatives
        return self.true_positives / expected if expected else None

    @property
    def f1(self) -> float | None:
        """2TP / (2TP + FP + FN), the harmonic mean of precision and recall.

        Defined from the counts, so it is ``0.0`` (not ``None``) when nothing was predicted
        but something was expected, as scikit-learn computes it; ``None`` only when there was
        nothing to predict and nothing was predicted.
        """
        denominator = 2 * self.true_positives + self.false_positives + self.false_negatives
        return 2 * self.true_positives / denominator if denominator else None


@dataclass(frozen=True, slots=True)
class MacroScores:
    """Per-case precision, recall and F1 averaged over cases (macro-averaging).

    Each average skips, and counts in ``skipped``, the cases where that score is undefined.

    Attributes:
        precision: The mean precision of the cases that predicted something.
        recall: The mean recall of the cases that expected something.
        f1: The mean F1 of the cases that predicted or expected something.
    """

    precision: Average
    recall: Average
    f1: Average


def count_matches(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> Confusion:
    """Count the matches of a set of predicted items against the set of expected items.

    Both inputs are taken as sets: an item listed twice counts once.

    Args:
        predicted: The items the system returned (ids, file paths, labels).
        expected: The items it should have returned.

    Returns:
        The true positive, false positive and false negative counts.

    Example:
        >>> count_matches(["a", "b", "c"], ["a", "d"])
        Confusion(true_positives=1, false_positives=2, false_negatives=1)
    """
    predicted_set = set(predicted)
    expected_set = set(expected)
    hits = len(predicted_set & expected_set)
    return Confusion(
        true_positives=hits,
        false_positives=len(predicted_set) - hits,
        false_negatives=len(expected_set) - hits,
    )


def precision(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> float | None:
    """The share of predicted items that were expected; ``None`` when nothing was predicted.

    Args:
        predicted: The items the system returned.
        expected: The items it should have returned.

    Returns:
        |predicted ∩ expected| / |predicted|, or ``None`` for an empty prediction.
    """
    return count_matches(predicted, expected).precision


def recall(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> float | None:
    """The share of expected items that were predicted; ``None`` when nothing was expected.

    Args:
        predicted: The items the system returned.
        expected: The items it should have returned.

    Returns:
        |predicted ∩ expected| / |expected|, or ``None`` when ``expected`` is empty.
    """
    return count_matches(predicted, expected).recall


def f1(predicted: Iterable[Hashable], expected: Iterable[Hashable]) -> float | None:
    """The harmonic mean of precision and recall, from the counts (see :attr:`Confusion.f1`).

    Args:
        predicted: The items the system returned.
        expected: The items it should have returned.

    Returns:
        2|P ∩ E| / (|P| + |E|), or ``None`` when both sets are empty.
    """
    return count_matches(predicted, expected).f1


def micro_scores(
    cases: Iterable[tuple[Iterable[Hashable], Iterable[Hashable]]],
) -> Confusion:
    """Pool the counts of many cases; read micro precision, recall and F1 off the result.

    Args:
        cases: ``(predicted, expected)`` pairs, one per case.

    Returns:
        The summed counts: ``micro_scores(cases).precision`` is the micro-averaged precision.
    """
    total = Confusion(true_positives=0, false_positives=0, false_negatives=0)
    for predicted, expected in cases:
        total += count_matches(predicted, expected)
    return total


def macro_scores(
    cases: Iterable[tuple[Iterable[Hashable], Iterable[Hashable]]],
) -> MacroScores:
    """Average each case's precision, recall and F1, skipping the cases where one is undefined.

    Args:
        cases: ``(predicted, expected)`` pairs, one per case.

    Returns:
        One :class:`Average` per score, each with its own skipped count.
    """
    counts = [count_matches(predicted, expected) for predicted, expected in cases]
    return MacroScores(
        precision=average(count.precision for count in counts),
        recall=average(count.recall for count in counts),
        f1=average(count.f1 for count in counts),
    )
