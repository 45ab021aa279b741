"""ROUGE against Google's rouge-score (pip install rouge-score), when it is installed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from tests.metrics.strategies import texts
from tracegrade.metrics import rouge_1, rouge_l, rouge_tokens

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
rouge_tokenize = pytest.importorskip("rouge_score.tokenize")

SCORER = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=False)


@given(texts)
@settings(max_examples=300)
def test_tokens_match_rouge_score_default_tokenizer(text) -> None:
    assert list(rouge_tokens(text)) == rouge_tokenize.tokenize(text, None)


@given(texts, texts)
@settings(max_examples=300)
def test_scores_match_rouge_score_where_defined(prediction, reference) -> None:
    # rouge-score takes (target, prediction) and reports 0 where we report None.
    theirs = SCORER.score(reference, prediction)
    pairs = [(rouge_1(prediction, reference), "rouge1"), (rouge_l(prediction, reference), "rougeL")]
    for ours, name in pairs:
        for mine, their in [
            (ours.precision, theirs[name].precision),
            (ours.recall, theirs[name].recall),
            (ours.fmeasure, theirs[name].fmeasure),
        ]:
            if mine is None:
                assert their == 0
            else:
                assert mine == pytest.approx(their, abs=1e-12)


def test_readme_example_matches_rouge_score() -> None:
    theirs = SCORER.score(
        "The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log."
    )
    assert theirs["rouge1"].fmeasure == pytest.approx(12 / 17)
    assert theirs["rougeL"].fmeasure == pytest.approx(10 / 17)
