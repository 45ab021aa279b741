"""Precision, recall and F1 over sets, one case and many (micro and macro)."""

from __future__ import annotations

import pytest

from tracegrade.errors import InputError
from tracegrade.metrics import (
    Average,
    Confusion,
    count_matches,
    f1,
    macro_scores,
    micro_scores,
    precision,
    recall,
)


def test_wikipedia_dog_photo_example() -> None:
    # Wikipedia, "Precision and recall", introduction: a program finds 8 dogs in a photo of
    # 12 dogs and 10 cats; 5 of the 8 are dogs. Precision 5/8, recall 5/12.
    dogs = {f"dog{i}" for i in range(12)}
    found = {f"dog{i}" for i in range(5)} | {"cat0", "cat1", "cat2"}
    assert count_matches(found, dogs) == Confusion(
        true_positives=5, false_positives=3, false_negatives=7
    )
    assert precision(found, dogs) == 5 / 8
    assert recall(found, dogs) == 5 / 12
    # F1 = 2 * (5/8) * (5/12) / (5/8 + 5/12) = 10 / 20.
    assert f1(found, dogs) == pytest.approx(0.5, abs=1e-15)


# scikit-learn's precision_recall_fscore_support docstring: y_true = [cat, dog, pig, cat,
# dog, pig], y_pred = [cat, pig, dog, cat, cat, dog]; macro (0.22, 0.33, 0.26), micro
# (0.33, 0.33, 0.33). Each class is one case here: the positions predicted as it, and the
# positions that truly are it.
SKLEARN_CLASSES = [
    ({0, 3, 4}, {0, 3}),  # cat
    ({2, 5}, {1, 4}),  # dog
    ({1}, {2, 5}),  # pig
]


def test_sklearn_docstring_macro_example() -> None:
    scores = macro_scores(SKLEARN_CLASSES)
    assert scores.precision.value == pytest.approx(2 / 9)
    assert scores.recall.value == pytest.approx(1 / 3)
    assert scores.f1.value == pytest.approx(0.8 / 3)
    assert {(s.counted, s.skipped) for s in (scores.precision, scores.recall, scores.f1)} == {
        (3, 0)
    }
    assert f"{scores.precision.value:.2f} {scores.f1.value:.2f}" == "0.22 0.27"


def test_sklearn_docstring_micro_example() -> None:
    pooled = micro_scores(SKLEARN_CLASSES)
    assert pooled == Confusion(true_positives=2, false_positives=4, false_negatives=4)
    assert (pooled.precision, pooled.recall, pooled.f1) == (1 / 3, 1 / 3, 1 / 3)


def test_nothing_predicted_leaves_precision_undefined_not_zero() -> None:
    assert precision([], ["a"]) is None
    assert recall([], ["a"]) == 0.0
    # The system missed everything it should have found: a real 0, as scikit-learn has it.
    assert f1([], ["a"]) == 0.0


def test_nothing_expected_leaves_recall_undefined_not_zero() -> None:
    assert recall(["a"], []) is None
    assert precision(["a"], []) == 0.0
    assert f1(["a"], []) == 0.0


def test_nothing_either_side_leaves_all_three_undefined() -> None:
    assert (precision([], []), recall([], []), f1([], [])) == (None, None, None)


def test_items_are_sets_so_repeats_count_once() -> None:
    assert count_matches(["a", "a", "b"], ["a", "a"]) == Confusion(
        true_positives=1, false_positives=1, false_negatives=0
    )


def test_macro_skips_and_counts_the_undefined_cases() -> None:
    cases = [
        (["a"], ["a", "b"]),  # P 1, R 1/2, F 2/3
        ([], ["c"]),  # P undefined, R 0, F 0
        (["d"], []),  # P 0, R undefined, F 0
        ([], []),  # all undefined
    ]
    scores = macro_scores(cases)
    assert scores.precision == Average(value=0.5, counted=2, skipped=2)
    assert scores.recall == Average(value=0.25, counted=2, skipped=2)
    assert scores.f1.value == pytest.approx(2 / 9)
    assert (scores.f1.counted, scores.f1.skipped) == (3, 1)


def test_micro_over_no_cases_is_undefined() -> None:
    pooled = micro_scores([])
    assert (pooled.precision, pooled.recall, pooled.f1) == (None, None, None)


def test_negative_counts_are_refused() -> None:
    with pytest.raises(InputError, match="must not be negative"):
        Confusion(true_positives=-1, false_positives=0, false_negatives=0)
