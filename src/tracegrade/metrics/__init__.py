"""Metrics: precision, recall, F1, ROUGE, ranking and pass@k / pass^k (pure).

Every metric is a pure function of plain values. A score that is undefined for its input
is ``None``, never ``0``: precision with no predictions, recall with nothing expected,
reciprocal rank with nothing relevant, pass@k with fewer than k samples. The averages over
many cases (:func:`average`, :func:`macro_scores`, :func:`mean_reciprocal_rank`) skip those
cases and count them in :attr:`Average.skipped`. Definitions, edge cases and worked
examples are in docs/metrics.md.
"""

from tracegrade.metrics._aggregate import Average, average
from tracegrade.metrics._classification import (
    Confusion,
    MacroScores,
    count_matches,
    f1,
    macro_scores,
    micro_scores,
    precision,
    recall,
)
from tracegrade.metrics._passk import pass_at_k, pass_hat_k
from tracegrade.metrics._ranking import (
    Gain,
    dcg_at_k,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    reciprocal_rank,
)
from tracegrade.metrics._rouge import RougeScore, rouge_1, rouge_l, rouge_tokens

__all__ = [
    "Average",
    "Confusion",
    "Gain",
    "MacroScores",
    "RougeScore",
    "average",
    "count_matches",
    "dcg_at_k",
    "f1",
    "macro_scores",
    "mean_reciprocal_rank",
    "micro_scores",
    "ndcg_at_k",
    "pass_at_k",
    "pass_hat_k",
    "precision",
    "precision_at_k",
    "recall",
    "reciprocal_rank",
    "rouge_1",
    "rouge_l",
    "rouge_tokens",
]
