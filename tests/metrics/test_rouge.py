"""ROUGE-1 and ROUGE-L on the published examples; the tokenizer and the empty cases."""

from __future__ import annotations

import pytest

from tracegrade.metrics import RougeScore, rouge_1, rouge_l, rouge_tokens

# Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", section 3.1: with
# reference S1, ROUGE-L(S2) = 3/4 and ROUGE-L(S3) = 2/4 (beta = 1), though S2 and S3 share
# the same unigrams with S1.
S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"


def test_lin_2004_rouge_l_tells_word_order_apart() -> None:
    assert rouge_l(S2, S1) == RougeScore(precision=0.75, recall=0.75, fmeasure=0.75)
    assert rouge_l(S3, S1) == RougeScore(precision=0.5, recall=0.5, fmeasure=0.5)


def test_lin_2004_rouge_1_does_not() -> None:
    # police, the, gunman: 3 of 4 unigrams either way.
    assert rouge_1(S2, S1) == rouge_1(S3, S1) == RougeScore(0.75, 0.75, 0.75)


# The rouge-score README's example (google-research/rouge, rouge/README.md):
# scorer.score('The quick brown fox jumps over the lazy dog',   <- target
#              'The quick brown dog jumps on the log.')         <- prediction
# Prediction has 8 tokens, target 9. Clipped unigram overlap: the x2, quick, brown, dog,
# jumps = 6. Longest common subsequence: the quick brown jumps the = 5. (The README turns
# the stemmer on; it changes none of these tokens' matches.)
README_TARGET = "The quick brown fox jumps over the lazy dog"
README_PREDICTION = "The quick brown dog jumps on the log."


def test_rouge_score_readme_example_rouge_1() -> None:
    score = rouge_1(README_PREDICTION, README_TARGET)
    assert score.precision == 6 / 8
    assert score.recall == 6 / 9
    assert score.fmeasure == pytest.approx(12 / 17, abs=1e-15)  # 0.70588...


def test_rouge_score_readme_example_rouge_l() -> None:
    score = rouge_l(README_PREDICTION, README_TARGET)
    assert score.precision == 5 / 8
    assert score.recall == 5 / 9
    assert score.fmeasure == pytest.approx(10 / 17, abs=1e-15)  # 0.58823...


def test_repeated_tokens_count_at_most_as_often_as_the_reference_has_them() -> None:
    # Lin (2004), ROUGE-N: Count_match is clipped; "the the the" matches "the" once.
    score = rouge_1("the the the", "the cat")
    assert (score.precision, score.recall) == (1 / 3, 1 / 2)
    assert score.fmeasure == pytest.approx(2 / 5)


def test_tokens_are_lowercase_ascii_alphanumeric_runs() -> None:
    assert rouge_tokens("Hello, World! It's 2024-06-01.") == (
        "hello", "world", "it", "s", "2024", "06", "01",
    )  # fmt: skip


def test_letters_outside_ascii_separate_tokens_as_in_rouge_score() -> None:
    assert rouge_tokens("café Ωmega naïve") == ("caf", "mega", "na", "ve")
    assert rouge_tokens("日本語 ελληνικά") == ()


def test_empty_prediction_has_no_precision_and_scores_zero_recall() -> None:
    assert rouge_1("", "the cat") == RougeScore(precision=None, recall=0.0, fmeasure=0.0)
    assert rouge_l("!!!", "the cat") == RougeScore(precision=None, recall=0.0, fmeasure=0.0)


def test_empty_reference_has_no_recall() -> None:
    assert rouge_1("the cat", "") == RougeScore(precision=0.0, recall=None, fmeasure=0.0)


def test_both_empty_is_undefined_throughout() -> None:
    assert rouge_l("", " ... ") == RougeScore(precision=None, recall=None, fmeasure=None)


def test_no_common_token_scores_zero() -> None:
    assert rouge_l("a b", "c d") == RougeScore(precision=0.0, recall=0.0, fmeasure=0.0)


def test_rouge_l_is_a_subsequence_not_a_substring() -> None:
    # a x b y c against a b c: the common subsequence a b c has gaps in the prediction.
    score = rouge_l("a x b y c", "a b c")
    assert (score.precision, score.recall) == (3 / 5, 1.0)
    assert score.fmeasure == pytest.approx(0.75)
