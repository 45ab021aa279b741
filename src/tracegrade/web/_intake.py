"""Live intake: received spans merged into stored traces, read, graded and stored.

:func:`receive` takes one export request's spans (:class:`ExportBatch`) and, per trace id,
merges them with the spans stored before, reads the whole set again with the
OpenInference or OTel GenAI reader, grades the run (:func:`grade_received`) and writes the
record. A trace whose spans cannot be read yet (its LLM spans have not arrived) is stored
with the reason, ungraded, and read again when more of its spans arrive.

The stored ``trace`` JSON is the normalised :class:`~tracegrade.traces.Trace` plus two
keys the model ignores: ``otlp`` (the spans received so far, as an OTLP JSON export) and
``problem`` (why it could not be read or graded; ``None`` when it was).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracegrade.errors import TracegradeError
from tracegrade.store import ReceivedTraceRecord
from tracegrade.store._records import utc_now
from tracegrade.suites import load_decoders
from tracegrade.traces import Trace
from tracegrade.web._intake_grade import grade_received
from tracegrade.web._otlp_convert import (
    entries_of,
    export_of,
    merge_entries,
    read_received,
    touchpoint_of,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from tracegrade.evals import Project
    from tracegrade.observations import Decoder
    from tracegrade.store import Store
    from tracegrade.web._otlp_convert import ExportBatch, SpanEntry

__all__ = [
    "OTLP_KEY",
    "PROBLEM_KEY",
    "receive",
    "received_trace",
    "spans_of",
    "suite_decoders",
]

OTLP_KEY = "otlp"
"""The key of a stored trace's JSON that holds its raw spans (an OTLP JSON export)."""
PROBLEM_KEY = "problem"
"""The key of a stored trace's JSON that says why it is not read or graded (else ``None``)."""
UNREAD_FORMAT = "otlp"
"""The ``source_format`` of a stored trace whose spans could not be read as a run yet."""


def spans_of(record: ReceivedTraceRecord) -> list[SpanEntry]:
    """The spans stored with a received trace."""
    export = record.trace.get(OTLP_KEY)
    return entries_of(export) if isinstance(export, dict) else []


def received_trace(record: ReceivedTraceRecord) -> Trace | None:
    """The normalised trace of a stored record, or ``None`` when it could not be read."""
    if record.source_format == UNREAD_FORMAT:
        return None
    try:
        return Trace.model_validate(record.trace)
    except ValidationError:
        return None


def suite_decoders(project: Project | None, touchpoint: str | None) -> tuple[Decoder, ...]:
    """The declared decoders of the touchpoint's grade suite; none for other touchpoints.

    Raises:
        SuiteError: The suite file cannot be read.
    """
    if project is None or touchpoint is None:
        return ()
    contract = next((t for t in project.touchpoints if t.id == touchpoint), None)
    if contract is None or contract.suite_kind != "grade" or contract.suite is None:
        return ()
    return load_decoders(project.resolve(contract.suite))


def _record(
    trace_id: str, entries: list[SpanEntry], project: Project | None, now: datetime
) -> ReceivedTraceRecord:
    touchpoint_ids = frozenset(t.id for t in project.touchpoints) if project is not None else ()
    touchpoint = touchpoint_of(entries, touchpoint_ids)
    trace_json: dict[str, Any] = {}
    grade: dict[str, Any] | None = None
    source_format = UNREAD_FORMAT
    problem: str | None = None
    try:
        trace = read_received(entries)
    except TracegradeError as exc:
        problem = f"not read as a run yet: {exc}"
    else:
        trace_json = trace.model_dump(mode="json")
        source_format = trace.source_format
        try:
            grade = grade_received(trace, suite_decoders(project, touchpoint))
        except TracegradeError as exc:
            problem = f"not graded: {exc}"
    trace_json[OTLP_KEY] = export_of(entries)
    trace_json[PROBLEM_KEY] = problem
    return ReceivedTraceRecord(
        trace_id=trace_id,
        touchpoint=touchpoint,
        source_format=source_format,
        trace=trace_json,
        grade=grade,
        received_at=now,
    )


def _merged_record(
    trace_id: str,
    new: Sequence[SpanEntry],
    project: Project | None,
    now: datetime,
    stored: ReceivedTraceRecord | None,
) -> ReceivedTraceRecord:
    """The record of the stored spans with the new ones merged in, read and graded again."""
    entries = merge_entries(spans_of(stored) if stored is not None else [], new)
    return _record(trace_id, entries, project, now)


def receive(
    store: Store,
    batch: ExportBatch,
    *,
    project: Project | None = None,
    now: datetime | None = None,
) -> None:
    """Merge, read, grade and store every trace of one request.

    Args:
        store: Where received traces are kept.
        batch: The request's spans by trace id.
        project: The served registry: a ``service.name`` that is one of its touchpoint ids
            names the touchpoint, and a grade suite's declared decoders decode its tools.
        now: The receive time (default: now).
    """
    moment = now or utc_now()
    for trace_id, new in batch.traces.items():
        # One transaction with the read: a merge in another server process waits for it.
        merge = partial(_merged_record, trace_id, new, project, moment)
        store.merge_received_trace(trace_id, merge)
