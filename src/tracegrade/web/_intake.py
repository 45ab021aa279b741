"""Live intake: received spans redacted, merged into stored traces, read, graded, stored.

:func:`receive` takes one export request's spans (:class:`ExportBatch`) and, per trace id:
replaces their secrets (:func:`redact_entries`), merges them with the spans stored before,
reads the whole set again with the OpenInference or OTel GenAI reader, grades the run within
the time and size bounds (:func:`bounded_grade`, in a child process) and writes the record.
The reading and grading run outside any store transaction, on a copy of the stored record;
the write (:func:`swap_received_trace`) only checks that the copy is still what is stored,
so a large trace never holds the store's write lock while it is graded. A trace whose spans
cannot be read yet (its LLM spans have not arrived), or whose grading passed a bound, is
stored with the reason, ungraded, and read again when more of its spans arrive.

The stored ``trace`` JSON is the normalised :class:`~tracegrade.traces.Trace` plus keys the
model ignores: ``otlp`` (the spans received so far, redacted, as an OTLP JSON export),
``problem`` (why it could not be read or graded; ``None`` when it was) and ``redactions``
(each secret replaced: kind, span id, field).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tracegrade.errors import InfrastructureError, TracegradeError
from tracegrade.redact import Redactor
from tracegrade.store import ReceivedTraceRecord, swap_received_trace
from tracegrade.store._records import utc_now
from tracegrade.suites import load_decoders
from tracegrade.traces import Trace
from tracegrade.web._intake_bound import GradeLimits, bounded_grade
from tracegrade.web._intake_redact import redact_entries
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
    from pathlib import Path

    from tracegrade.evals import Project
    from tracegrade.observations import Decoder
    from tracegrade.redact import Redaction
    from tracegrade.store import Store
    from tracegrade.web._otlp_convert import ExportBatch, SpanEntry

__all__ = [
    "OTLP_KEY",
    "PROBLEM_KEY",
    "REDACTIONS_KEY",
    "TraceFailure",
    "grade_suite",
    "receive",
    "received_trace",
    "spans_of",
    "suite_decoders",
]

_LOG = logging.getLogger("tracegrade.web")
_SWAP_ATTEMPTS = 4  # reads and grades of one trace before its spans are merged ungraded

OTLP_KEY = "otlp"
"""The key of a stored trace's JSON that holds its raw spans (an OTLP JSON export)."""
PROBLEM_KEY = "problem"
"""The key of a stored trace's JSON that says why it is not read or graded (else ``None``)."""
REDACTIONS_KEY = "redactions"
"""The key of a stored trace's JSON that lists the secrets replaced (kind, span, field)."""
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


def grade_suite(project: Project | None, touchpoint: str | None) -> Path | None:
    """The touchpoint's grade suite file; ``None`` for other touchpoints or none."""
    if project is None or touchpoint is None:
        return None
    contract = next((t for t in project.touchpoints if t.id == touchpoint), None)
    if contract is None or contract.suite_kind != "grade" or contract.suite is None:
        return None
    return project.resolve(contract.suite)


def suite_decoders(project: Project | None, touchpoint: str | None) -> tuple[Decoder, ...]:
    """The declared decoders of the touchpoint's grade suite; none for other touchpoints.

    Raises:
        SuiteError: The suite file cannot be read.
    """
    suite = grade_suite(project, touchpoint)
    return load_decoders(suite) if suite is not None else ()


@dataclass(frozen=True, slots=True)
class TraceFailure:
    """A trace of a request that could not be stored; the others of the request were.

    Attributes:
        trace_id: The OTLP trace id.
        spans: How many of the request's spans it had (all rejected).
        reason: One line: why.
        retryable: The store could not be used (down, locked): sending again may work.
    """

    trace_id: str
    spans: int
    reason: str
    retryable: bool = False


def _redactions(
    stored: ReceivedTraceRecord | None, new: Sequence[SpanEntry], made: Sequence[Redaction]
) -> list[dict[str, Any]]:
    """The stored trace's redactions, but those of re-sent spans, then the new ones."""
    resent = {entry.span_id for entry in new}
    before = stored.trace.get(REDACTIONS_KEY) if stored is not None else None
    kept = [
        item
        for item in (before if isinstance(before, list) else [])
        if isinstance(item, dict) and item.get("span") not in resent
    ]
    return [*kept, *(each.as_json() for each in made)]


@dataclass(frozen=True, slots=True)
class _Intake:
    """How one request's traces are received."""

    project: Project | None
    now: datetime
    limits: GradeLimits
    redactor: Redactor


def _record(
    trace_id: str, entries: list[SpanEntry], redactions: list[dict[str, Any]], intake: _Intake
) -> ReceivedTraceRecord:
    """The record of the spans, read and graded (outside any store transaction)."""
    project, now = intake.project, intake.now
    touchpoint_ids = frozenset(t.id for t in project.touchpoints) if project is not None else ()
    touchpoint = touchpoint_of(entries, touchpoint_ids)
    trace_json: dict[str, Any] = {}
    grade: dict[str, Any] | None = None
    source_format = UNREAD_FORMAT
    problem: str | None = None
    try:
        trace = read_received(entries, intake.redactor)
    except TracegradeError as exc:
        problem = f"not read as a run yet: {exc}"
    else:
        trace_json = trace.model_dump(mode="json")
        source_format = trace.source_format
        try:
            grade, problem = bounded_grade(trace, grade_suite(project, touchpoint), intake.limits)
        except TracegradeError as exc:
            problem = f"not graded: {exc}"
    trace_json[OTLP_KEY] = export_of(entries)
    trace_json[PROBLEM_KEY] = problem
    trace_json[REDACTIONS_KEY] = redactions
    return ReceivedTraceRecord(
        trace_id=trace_id,
        touchpoint=touchpoint,
        source_format=source_format,
        trace=trace_json,
        grade=grade,
        received_at=now,
    )


def _merged_unread(
    trace_id: str,
    new: Sequence[SpanEntry],
    made: Sequence[Redaction],
    now: datetime,
    stored: ReceivedTraceRecord | None,
) -> ReceivedTraceRecord:
    """The stored spans with the new ones merged in, not read or graded (cheap: in the lock)."""
    entries = merge_entries(spans_of(stored) if stored is not None else [], new)
    problem = (
        f"not graded yet: {_SWAP_ATTEMPTS} other requests for this trace were stored while it"
        " was being graded; it is read and graded again when its next spans arrive"
    )
    trace_json: dict[str, Any] = {
        OTLP_KEY: export_of(entries),
        PROBLEM_KEY: problem,
        REDACTIONS_KEY: _redactions(stored, new, made),
    }
    return ReceivedTraceRecord(
        trace_id=trace_id,
        touchpoint=stored.touchpoint if stored is not None else None,
        source_format=UNREAD_FORMAT,
        trace=trace_json,
        received_at=now,
    )


def _receive_trace(store: Store, trace_id: str, new: Sequence[SpanEntry], intake: _Intake) -> None:
    spans, made = redact_entries(new, intake.redactor)
    for _ in range(_SWAP_ATTEMPTS):
        stored = store.get_received_trace(trace_id)
        entries = merge_entries(spans_of(stored) if stored is not None else [], spans)
        redactions = _redactions(stored, spans, made)
        record = _record(trace_id, entries, redactions, intake)
        if swap_received_trace(store, record, expected=stored):
            return
    # Other requests for this trace kept landing first: keep the spans, grade them later.
    merge = partial(_merged_unread, trace_id, spans, made, intake.now)
    store.merge_received_trace(trace_id, merge)


def receive(
    store: Store,
    batch: ExportBatch,
    *,
    project: Project | None = None,
    now: datetime | None = None,
    limits: GradeLimits | None = None,
) -> tuple[TraceFailure, ...]:
    """Redact, merge, read, grade and store every trace of one request.

    A trace that fails (the store refused it, or a fault of ours) is logged and reported;
    the request's other traces are stored all the same.

    Args:
        store: Where received traces are kept.
        batch: The request's spans by trace id.
        project: The served registry: a ``service.name`` that is one of its touchpoint ids
            names the touchpoint, a grade suite's declared decoders decode its tools, and
            its ``[redact]`` patterns are applied beside the packaged rules.
        now: The receive time (default: now).
        limits: The bounds of grading one run (default: :class:`GradeLimits`).

    Returns:
        The traces that could not be stored, in request order.
    """
    intake = _Intake(
        project,
        now or utc_now(),
        limits or GradeLimits(),
        project.redactor if project is not None else Redactor(),
    )
    failures = []
    for trace_id, new in batch.traces.items():
        try:
            _receive_trace(store, trace_id, new, intake)
        except Exception as exc:  # noqa: BLE001 - one trace's failure must not lose the others
            _LOG.error("received trace %s was not stored", trace_id, exc_info=exc)
            reason = f"trace {trace_id} was not stored: {type(exc).__name__}: {exc}"
            retryable = isinstance(exc, InfrastructureError)
            failures.append(TraceFailure(trace_id, len(new), reason.splitlines()[0], retryable))
    return tuple(failures)
