"""Hypothesis properties: every score lies in [0, 1], undefined exactly when it should be,
and moves the right way when the input gets better."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.metrics.strategies import (
    cutoffs,
    float_grades,
    grades,
    item_sets,
    items,
    rankings,
    scores,
    texts,
    trials,
)
from tracegrade.metrics import (
    average,
    count_matches,
    dcg_at_k,
    macro_scores,
    mean_reciprocal_rank,
    micro_scores,
    ndcg_at_k,
    pass_at_k,
    pass_hat_k,
    precision_at_k,
    reciprocal_rank,
    rouge_1,
    rouge_l,
    rouge_tokens,
)


def in_unit_interval(value: float | None) -> bool:
    return value is None or 0.0 <= value <= 1.0


@given(item_sets, item_sets)
def test_set_scores_are_bounded_and_undefined_only_on_empty_sides(predicted, expected) -> None:
    counts = count_matches(predicted, expected)
    assert all(in_unit_interval(v) for v in (counts.precision, counts.recall, counts.f1))
    assert (counts.precision is None) == (not predicted)
    assert (counts.recall is None) == (not expected)
    assert (counts.f1 is None) == (not predicted and not expected)


@given(item_sets, item_sets)
def test_f1_lies_between_precision_and_recall(predicted, expected) -> None:
    counts = count_matches(predicted, expected)
    if counts.precision is not None and counts.recall is not None:
        assert counts.f1 is not None
        low, high = sorted((counts.precision, counts.recall))
        assert low - 1e-12 <= counts.f1 <= high + 1e-12


@given(item_sets, item_sets, items)
def test_predicting_one_more_expected_item_never_lowers_a_score(predicted, expected, item) -> None:
    expected = expected | {item}
    before = count_matches(predicted, expected)
    after = count_matches(predicted | {item}, expected)
    for old, new in [
        (before.precision, after.precision),
        (before.recall, after.recall),
        (before.f1, after.f1),
    ]:
        assert new is not None
        assert old is None or new >= old


@given(item_sets, item_sets)
def test_one_case_micro_and_macro_agree(predicted, expected) -> None:
    pooled = micro_scores([(predicted, expected)])
    macro = macro_scores([(predicted, expected)])
    assert (macro.precision.value, macro.recall.value, macro.f1.value) == (
        pooled.precision,
        pooled.recall,
        pooled.f1,
    )


@given(texts, texts)
def test_rouge_scores_are_bounded_and_lcs_never_beats_unigrams(prediction, reference) -> None:
    unigram = rouge_1(prediction, reference)
    lcs = rouge_l(prediction, reference)
    for score in (unigram, lcs):
        assert all(in_unit_interval(v) for v in (score.precision, score.recall, score.fmeasure))
    assert (unigram.precision is None) == (not rouge_tokens(prediction))
    if lcs.fmeasure is not None and unigram.fmeasure is not None:
        assert lcs.fmeasure <= unigram.fmeasure


@given(texts, texts)
def test_swapping_prediction_and_reference_swaps_precision_and_recall(first, second) -> None:
    for metric in (rouge_1, rouge_l):
        forward, backward = metric(first, second), metric(second, first)
        assert (forward.precision, forward.fmeasure) == (backward.recall, backward.fmeasure)


@given(texts)
def test_a_text_against_itself_scores_one(text) -> None:
    expected = 1.0 if rouge_tokens(text) else None
    assert rouge_l(text, text).fmeasure == rouge_1(text, text).fmeasure == expected


@given(rankings, item_sets, items)
def test_a_relevant_item_at_rank_one_never_lowers_mrr(ranking, relevant, item) -> None:
    before = mean_reciprocal_rank([(ranking, relevant | {item})])
    after = mean_reciprocal_rank([([item, *ranking], relevant | {item})])
    assert after.value == 1.0
    assert before.value is not None
    assert in_unit_interval(before.value)


@given(rankings, item_sets, cutoffs)
def test_ranking_scores_are_bounded(ranking, relevant, k) -> None:
    assert in_unit_interval(reciprocal_rank(ranking, relevant))
    assert in_unit_interval(precision_at_k(ranking, relevant, k))


@given(rankings, item_sets, cutoffs, items)
def test_a_new_relevant_item_at_rank_one_never_lowers_precision_at_k(
    ranking, relevant, k, item
) -> None:
    ranking = [other for other in ranking if other != item]
    relevant = relevant | {item}
    before = precision_at_k(ranking, relevant, k)
    after = precision_at_k([item, *ranking], relevant, k)
    assert before is not None
    assert after is not None
    assert after >= before


@given(rankings, st.one_of(grades, float_grades), cutoffs)
def test_ndcg_is_bounded_and_undefined_only_without_a_relevant_item(ranking, grades_, k) -> None:
    exponential_ok = all(grade <= 100 for grade in grades_.values())
    for gain in ("linear", "exponential") if exponential_ok else ("linear",):
        value = ndcg_at_k(ranking, grades_, k, gain=gain)
        assert in_unit_interval(value)
        assert (value is None) == all(grade == 0 for grade in grades_.values())


@given(grades, cutoffs)
def test_the_ideal_ranking_scores_one(grades_, k) -> None:
    ideal = sorted(grades_, key=lambda item: -grades_[item])
    value = ndcg_at_k(ideal, grades_, k)
    assert value is None or value == 1.0


@given(rankings, grades, cutoffs, st.integers(min_value=0, max_value=6))
def test_putting_the_better_of_two_neighbours_first_never_lowers_dcg(
    ranking, grades_, k, position
) -> None:
    ranking = list(dict.fromkeys(ranking))  # no repeats, so a swap moves two items
    if position + 1 >= len(ranking):
        return
    first, second = ranking[position], ranking[position + 1]
    if grades_.get(first, 0) >= grades_.get(second, 0):
        return
    swapped = [*ranking[:position], second, first, *ranking[position + 2 :]]
    assert dcg_at_k(swapped, grades_, k) >= dcg_at_k(ranking, grades_, k)


@given(trials())
def test_pass_at_k_and_pass_hat_k_are_bounded_and_ordered(trial) -> None:
    samples, correct, k = trial
    at_k, hat_k = pass_at_k(samples, correct, k), pass_hat_k(samples, correct, k)
    assert at_k is not None
    assert hat_k is not None
    assert 0.0 <= hat_k <= at_k <= 1.0
    if k == 1:
        assert at_k == hat_k == correct / samples


@given(trials())
def test_pass_at_k_rises_and_pass_hat_k_falls_with_k(trial) -> None:
    samples, correct, k = trial
    if k == samples:
        return
    assert pass_at_k(samples, correct, k + 1) >= pass_at_k(samples, correct, k)  # type: ignore[operator]
    assert pass_hat_k(samples, correct, k + 1) <= pass_hat_k(samples, correct, k)  # type: ignore[operator]


@given(trials())
def test_one_more_correct_sample_never_lowers_either(trial) -> None:
    samples, correct, k = trial
    if correct == samples:
        return
    assert pass_at_k(samples, correct + 1, k) >= pass_at_k(samples, correct, k)  # type: ignore[operator]
    assert pass_hat_k(samples, correct + 1, k) >= pass_hat_k(samples, correct, k)  # type: ignore[operator]


@given(st.lists(scores))
def test_average_counts_every_score_and_lies_between_the_extremes(values) -> None:
    result = average(values)
    defined = [value for value in values if value is not None]
    assert (result.counted, result.skipped) == (len(defined), len(values) - len(defined))
    if defined:
        assert result.value is not None
        assert min(defined) <= result.value <= max(defined)
    else:
        assert result.value is None
