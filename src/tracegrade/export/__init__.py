"""Verdicts sent back to where the traces live: OpenTelemetry, Phoenix, Langfuse (docs/export.md).

:func:`evaluations` turns a run's grade into evaluation results (the run, its provenance,
each claim), attached to the span that wrote the answer when the run came from spans. The
exporters send the same results: :func:`send_otel` as ``gen_ai.evaluation.result`` events
over OTLP/HTTP (the ``otel`` extra), :func:`send_phoenix` as Phoenix span annotations, and
:func:`langfuse_scores` as Langfuse score bodies.
"""

from tracegrade.export._evaluations import (
    CLAIM,
    GROUNDING,
    PROVENANCE,
    Evaluation,
    SpanRef,
    answer_span,
    evaluations,
)
from tracegrade.export._langfuse import langfuse_lines, langfuse_scores
from tracegrade.export._otel import EVENT_NAME, event_attributes, send_otel
from tracegrade.export._phoenix import PHOENIX_PATH, phoenix_annotations, send_phoenix

__all__ = [
    "CLAIM",
    "EVENT_NAME",
    "GROUNDING",
    "PHOENIX_PATH",
    "PROVENANCE",
    "Evaluation",
    "SpanRef",
    "answer_span",
    "evaluations",
    "event_attributes",
    "langfuse_lines",
    "langfuse_scores",
    "phoenix_annotations",
    "send_otel",
    "send_phoenix",
]
