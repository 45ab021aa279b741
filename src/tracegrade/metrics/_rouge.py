"""ROUGE-1 and ROUGE-L (Lin, 2004) over rouge-score's default tokens, without stemming."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["RougeScore", "rouge_1", "rouge_l", "rouge_tokens"]

_NOT_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class RougeScore:
    """Precision, recall and F-measure (beta = 1) of one prediction against one reference.

    Attributes:
        precision: Overlap / prediction tokens; ``None`` when the prediction has no tokens.
        recall: Overlap / reference tokens; ``None`` when the reference has no tokens.
        fmeasure: 2 * overlap / (prediction tokens + reference tokens), the harmonic mean of
            precision and recall; ``0.0`` when one side is empty and the other is not,
            ``None`` when both are empty.
    """

    precision: float | None
    recall: float | None
    fmeasure: float | None


def rouge_tokens(text: str) -> tuple[str, ...]:
    """Split a text into ROUGE tokens the way rouge-score's default tokenizer does.

    The text is lower-cased (:meth:`str.lower`), every run of characters other than ASCII
    ``a-z`` and ``0-9`` becomes a separator, and the pieces are the tokens. No stemming and
    no stop words. As in rouge-score, letters outside ASCII are separators: ``"café"``
    gives ``("caf",)`` and a text in Greek or Chinese has no tokens.

    Args:
        text: Any text.

    Returns:
        The tokens in order, repeats kept.

    Example:
        >>> rouge_tokens("The U.S. isn't 50-50!")
        ('the', 'u', 's', 'isn', 't', '50', '50')
    """
    return tuple(token for token in _NOT_ALPHANUMERIC.split(text.lower()) if token)


def rouge_1(prediction: str, reference: str) -> RougeScore:
    """ROUGE-1: unigram overlap, each token counted at most as often as the other side has it.

    Args:
        prediction: The generated text (the candidate summary).
        reference: The text it is compared against (the target).

    Returns:
        Precision, recall and F-measure of the clipped unigram overlap.

    Example:
        >>> rouge_1("police kill the gunman", "police killed the gunman")
        RougeScore(precision=0.75, recall=0.75, fmeasure=0.75)
    """
    predicted = Counter(rouge_tokens(prediction))
    expected = Counter(rouge_tokens(reference))
    overlap = sum((predicted & expected).values())
    return _score(overlap, predicted.total(), expected.total())


def rouge_l(prediction: str, reference: str) -> RougeScore:
    """ROUGE-L: the longest common subsequence of the two token sequences (not contiguous).

    Args:
        prediction: The generated text (the candidate summary).
        reference: The text it is compared against (the target).

    Returns:
        Precision, recall and F-measure of the longest common subsequence's length.

    Example:
        >>> rouge_l("the gunman kill police", "police killed the gunman")
        RougeScore(precision=0.5, recall=0.5, fmeasure=0.5)
    """
    predicted = rouge_tokens(prediction)
    expected = rouge_tokens(reference)
    return _score(_lcs_length(predicted, expected), len(predicted), len(expected))


def _lcs_length(first: Sequence[str], second: Sequence[str]) -> int:
    """The length of the longest common subsequence, in two rows of the usual table."""
    if len(second) > len(first):
        first, second = second, first
    previous = [0] * (len(second) + 1)
    for token in first:
        current = [0]
        for column, other in enumerate(second, start=1):
            if token == other:
                current.append(previous[column - 1] + 1)
            else:
                current.append(max(previous[column], current[column - 1]))
        previous = current
    return previous[-1]


def _score(overlap: int, predicted: int, expected: int) -> RougeScore:
    """Precision, recall and F-measure of an overlap count; ``None`` where undefined."""
    total = predicted + expected
    return RougeScore(
        precision=overlap / predicted if predicted else None,
        recall=overlap / expected if expected else None,
        fmeasure=2 * overlap / total if total else None,
    )
