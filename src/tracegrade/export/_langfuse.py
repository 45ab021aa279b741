"""Evaluations as Langfuse scores, one JSON object a line (pure).

Each line is a body of Langfuse's create-score API (``POST /api/public/scores``):
``id``, ``traceId``, ``observationId`` (the evaluated span, for runs read from spans),
``name``, ``value``, ``dataType``, ``comment`` and ``metadata``. A scored evaluation is
``NUMERIC`` (its score); one with nothing to score is ``CATEGORICAL`` (its label), never a
stand-in zero. Ids are derived from the run and the evaluation, so a re-export upserts.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.export._evaluations import Evaluation

__all__ = ["langfuse_lines", "langfuse_scores"]


def langfuse_scores(evaluations: Sequence[Evaluation]) -> list[dict[str, Any]]:
    """Each evaluation as a Langfuse score body."""
    scores = []
    for evaluation in evaluations:
        trace_id = evaluation.span.trace_id if evaluation.span is not None else evaluation.run
        digest = hashlib.sha256(f"{evaluation.run}\0{evaluation.key}".encode()).hexdigest()
        score: dict[str, Any] = {"id": f"tracegrade-{digest[:32]}", "traceId": trace_id}
        if evaluation.span is not None:
            score["observationId"] = evaluation.span.span_id
        score["name"] = evaluation.name
        if evaluation.score is None:
            score |= {"value": evaluation.label, "dataType": "CATEGORICAL"}
        else:
            score |= {"value": evaluation.score, "dataType": "NUMERIC"}
        metadata: dict[str, Any] = {"label": evaluation.label, "run": evaluation.run}
        if evaluation.claim is not None:
            claim = evaluation.claim
            metadata |= {"kind": claim.kind, "text": claim.raw, "start": claim.start,
                         "end": claim.end, "evidence": list(claim.evidence)}  # fmt: skip
        score |= {"comment": evaluation.explanation, "metadata": metadata}
        scores.append(score)
    return scores


def langfuse_lines(evaluations: Sequence[Evaluation]) -> str:
    """The scores as JSON lines (each ending in a newline)."""
    return "".join(
        json.dumps(score, ensure_ascii=False) + "\n" for score in langfuse_scores(evaluations)
    )
