"""What the received-traces pages and API return: list items and one trace with its grade.

The grade is the one stored when the spans arrived; the observations behind each claim
are decoded again from the stored trace (deterministic) to show their text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict

from tracegrade.errors import TracegradeError
from tracegrade.observations import observe
from tracegrade.verdicts import Grade
from tracegrade.web._intake import PROBLEM_KEY, REDACTIONS_KEY, received_trace, spans_of
from tracegrade.web._models import FrameMark, TraceView
from tracegrade.web._trace import trace_view

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.observations import Decoder, Observations
    from tracegrade.store import ReceivedTraceRecord
    from tracegrade.traces import Trace

__all__ = ["ReceivedTraceDetail", "ReceivedTraceItem", "received_detail", "received_item"]

_ANSWER_SHOWN = 160  # characters of the answer a list row shows


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReceivedTraceItem(_Model):
    """A received trace as the list shows it.

    Attributes:
        trace_id: The OTLP trace id.
        touchpoint: The touchpoint it belongs to, or ``None``.
        source_format: ``openinference``, ``otel-genai``, or ``otlp`` (not read as a run yet).
        received_at: When its spans last arrived.
        spans: How many spans are stored.
        task: The run's first user message; ``None`` when not read.
        answer: The start of its final answer; ``None`` when not read.
        claims: How many claims of the answer were checked: its extracted claims (and the
            expected facts of a grade stored before claims were extracted).
        unread: How many of them no tool returned as content (named only or unsupported),
            leaving out those the user's own message gave.
        unsourced: How many figures of the answer no source showed.
        grounded_share: Read extracted claims over those the user did not give; ``None``
            when there are none (or the trace is not graded).
        problem: Why it is not read or graded; ``None`` when it was.
    """

    trace_id: str
    touchpoint: str | None
    source_format: str
    received_at: AwareDatetime
    spans: int
    task: str | None
    answer: str | None
    claims: int
    unread: int
    unsourced: int
    grounded_share: float | None = None
    problem: str | None


class ReceivedTraceDetail(_Model):
    """One received trace: its list item, its frames with the answer marked, its grade.

    Attributes:
        redactions: Each secret replaced before the spans were stored: its kind, the span
            id and the field (never the secret).
    """

    item: ReceivedTraceItem
    trace: TraceView | None
    grade: dict[str, Any] | None
    redactions: list[dict[str, Any]] = []


def _grade(record: ReceivedTraceRecord) -> Grade | None:
    if record.grade is None:
        return None
    try:
        return Grade.model_validate(record.grade)
    except ValueError:
        return None


def _unread(grade: Grade | None) -> int:
    if grade is None:
        return 0
    shown = sum(claim.support != "read" and claim.counted for claim in grade.extracted)
    return len(grade.unread) + shown


def received_item(record: ReceivedTraceRecord) -> ReceivedTraceItem:
    """The list row of a stored received trace."""
    trace = received_trace(record)
    grade = _grade(record)
    answer = trace.final_answer if trace is not None else None
    if answer is not None and len(answer) > _ANSWER_SHOWN:
        answer = answer[: _ANSWER_SHOWN - 1] + "…"
    problem = record.trace.get(PROBLEM_KEY)
    return ReceivedTraceItem(
        trace_id=record.trace_id,
        touchpoint=record.touchpoint,
        source_format=record.source_format,
        received_at=record.received_at,
        spans=len(spans_of(record)),
        task=trace.task if trace is not None else None,
        answer=answer,
        claims=len(grade.claims) + len(grade.extracted) if grade is not None else 0,
        unread=_unread(grade),
        unsourced=len(grade.unsourced_figures) if grade is not None else 0,
        grounded_share=grade.grounded_share if grade is not None else None,
        problem=problem if isinstance(problem, str) else None,
    )


def _trace_view(
    trace: Trace,
    grade: Grade | None,
    trace_id: str,
    decoders: Sequence[Decoder],
    marks: dict[int, list[FrameMark]],
) -> TraceView:
    try:
        observations: Observations | None = observe(trace, strict=False, decoders=decoders)
    except TracegradeError:
        observations = None
    return trace_view(
        f"received over OTLP, trace {trace_id}",
        trace,
        figures=grade.figures if grade is not None else (),
        claims=grade.claims if grade is not None else (),
        observations=observations,
        grade=grade,
        marks=marks,
    )


def received_detail(
    record: ReceivedTraceRecord,
    decoders: Sequence[Decoder] = (),
    marks: Callable[[Trace], dict[int, list[FrameMark]]] | None = None,
) -> ReceivedTraceDetail:
    """Everything the received-trace page shows.

    Args:
        record: The stored trace.
        decoders: The decoders it was graded with (its touchpoint's suite's), so the
            observations behind each claim are found again under the same ids.
        marks: What the touchpoint's guard or contract suite says at each frame of the run.
    """
    trace = received_trace(record)
    grade = _grade(record)
    view = None
    if trace is not None:
        marked = marks(trace) if marks is not None else {}
        view = _trace_view(trace, grade, record.trace_id, decoders, marked)
    made = record.trace.get(REDACTIONS_KEY)
    redactions = [item for item in made if isinstance(item, dict)] if isinstance(made, list) else []
    return ReceivedTraceDetail(
        item=received_item(record), trace=view, grade=record.grade, redactions=redactions
    )
