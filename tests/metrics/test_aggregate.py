"""The average that skips and counts undefined scores; the docstring examples run."""

from __future__ import annotations

import doctest

import pytest

from tracegrade.metrics import (
    Average,
    _aggregate,
    _classification,
    _passk,
    _ranking,
    _rouge,
    average,
)


def test_undefined_scores_are_skipped_and_counted() -> None:
    assert average([1.0, None, 0.0, None]) == Average(value=0.5, counted=2, skipped=2)


def test_no_defined_score_gives_no_value() -> None:
    assert average([]) == Average(value=None, counted=0, skipped=0)
    assert average([None]) == Average(value=None, counted=0, skipped=1)


def test_a_zero_is_a_score_not_a_skip() -> None:
    assert average([0.0]) == Average(value=0.0, counted=1, skipped=0)


def test_the_sum_is_exact_before_dividing() -> None:
    # Naive summation of ten 0.1s gives 0.9999999999999999.
    assert average([0.1] * 10).value == 0.1


def test_the_mean_of_equal_scores_is_that_score() -> None:
    # fsum gives 0.14473879979087695; divided by 3 that rounds one unit above the score.
    score = 0.04824626659695898
    assert average([score, score, score]).value == score


@pytest.mark.parametrize("module", [_aggregate, _classification, _passk, _ranking, _rouge])
def test_docstring_examples_hold(module) -> None:
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert (failed, attempted > 0) == (0, True)
