"""nDCG, DCG, precision, recall and F1 against scikit-learn, when it is installed.

scikit-learn is not in the dev extra (it brings scipy); these tests skip without it.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.metrics.strategies import ITEMS, item_sets
from tracegrade.metrics import dcg_at_k, macro_scores, micro_scores, ndcg_at_k

np = pytest.importorskip("numpy")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


@st.composite
def graded_rankings(draw: st.DrawFn) -> tuple[list[str], dict[str, int], int]:
    """A ranking of 2 to 6 items, each graded 0-3, and a cut-off up to the ranking's length."""
    ranking = draw(st.permutations(ITEMS))[: draw(st.integers(min_value=2, max_value=6))]
    grades = {item: draw(st.integers(min_value=0, max_value=3)) for item in ranking}
    k = draw(st.integers(min_value=1, max_value=len(ranking)))
    return ranking, grades, k


@given(graded_rankings())
@settings(max_examples=300)
def test_ndcg_and_dcg_match_sklearn(case) -> None:
    ranking, grades, k = case
    y_true = np.asarray([[grades[item] for item in ranking]])
    y_score = np.asarray([[len(ranking) - position for position in range(len(ranking))]])
    assert dcg_at_k(ranking, grades, k) == pytest.approx(
        sklearn_metrics.dcg_score(y_true, y_score, k=k), abs=1e-12
    )
    ours = ndcg_at_k(ranking, grades, k)
    theirs = sklearn_metrics.ndcg_score(y_true, y_score, k=k)
    if ours is None:
        assert theirs == 0  # scikit-learn scores a query with nothing relevant 0
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


def indicator(sets: list[frozenset[str]], universe: list[str]) -> Any:
    return np.asarray([[item in chosen for item in universe] for chosen in sets], dtype=int)


@given(st.lists(st.tuples(item_sets, item_sets), min_size=1, max_size=6))
@settings(max_examples=300)
def test_micro_and_macro_match_sklearn(cases) -> None:
    y_pred = indicator([predicted for predicted, _ in cases], ITEMS)
    y_true = indicator([expected for _, expected in cases], ITEMS)
    # Micro: pool every (case, item) decision; scikit-learn's binary average over the flat
    # vectors. zero_division=nan marks the undefined scores that we return as None.
    theirs_micro = sklearn_metrics.precision_recall_fscore_support(
        y_true.ravel(), y_pred.ravel(), average="binary", zero_division=np.nan
    )[:3]
    pooled = micro_scores(cases)
    assert_same([pooled.precision, pooled.recall, pooled.f1], theirs_micro)
    # Macro over cases: scikit-learn's "samples" average, which with zero_division=nan leaves
    # the undefined cases out of the mean, as we skip them.
    theirs_macro = sklearn_metrics.precision_recall_fscore_support(
        y_true, y_pred, average="samples", zero_division=np.nan
    )[:3]
    macro = macro_scores(cases)
    assert_same([macro.precision.value, macro.recall.value, macro.f1.value], theirs_macro)


def assert_same(ours, theirs) -> None:
    for mine, their in zip(ours, theirs, strict=True):
        if mine is None:
            assert math.isnan(their)
        else:
            assert mine == pytest.approx(float(their), abs=1e-12)
