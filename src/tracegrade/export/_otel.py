"""Evaluations as OpenTelemetry ``gen_ai.evaluation.result`` events over OTLP/HTTP (edge).

Per the GenAI semantic conventions each evaluation is one log-based event named
``gen_ai.evaluation.result`` with ``gen_ai.evaluation.name`` (required),
``gen_ai.evaluation.score.value`` and ``gen_ai.evaluation.score.label`` (when there is one)
and ``gen_ai.evaluation.explanation``. It is parented to the evaluated span (the event's
trace and span ids) when the run was read from spans, else it carries
``gen_ai.response.id``. The OpenTelemetry SDK's own OTLP/HTTP log exporter sends them (the
``otel`` extra); nothing else is sent.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tracegrade import __version__
from tracegrade.errors import InfrastructureError, InputError

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from opentelemetry.context import Context

    from tracegrade.export._evaluations import Evaluation

__all__ = ["EVENT_NAME", "event_attributes", "send_otel"]

EVENT_NAME = "gen_ai.evaluation.result"


def event_attributes(evaluation: Evaluation) -> dict[str, str | float | int]:
    """The event's attributes: the convention's, then tracegrade's own (``tracegrade.*``)."""
    attributes: dict[str, str | float | int] = {
        "gen_ai.evaluation.name": evaluation.name,
        "gen_ai.evaluation.score.label": evaluation.label,
        "gen_ai.evaluation.explanation": evaluation.explanation,
    }
    if evaluation.score is not None:
        attributes["gen_ai.evaluation.score.value"] = evaluation.score
    if evaluation.span is None:
        attributes["gen_ai.response.id"] = evaluation.run
    attributes["tracegrade.run.id"] = evaluation.run
    claim = evaluation.claim
    if claim is not None:
        attributes |= {
            "tracegrade.claim.kind": claim.kind,
            "tracegrade.claim.text": claim.raw,
            "tracegrade.claim.start": claim.start,
            "tracegrade.claim.end": claim.end,
        }
    return attributes


def _clip(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else f"{flat[: width - 1]}…"


class _Said(logging.Handler):
    """Keeps what the SDK logged, so a failure is one line of ours with its cause."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _quiet_sdk() -> Iterator[_Said]:
    sdk = logging.getLogger("opentelemetry")
    said, propagate = _Said(), sdk.propagate
    sdk.addHandler(said)
    sdk.propagate = False
    try:
        yield said
    finally:
        sdk.removeHandler(said)
        sdk.propagate = propagate


def send_otel(
    evaluations: Sequence[Evaluation],
    endpoint: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = 10.0,
    service_name: str = "tracegrade",
) -> int:
    """Send each evaluation as a ``gen_ai.evaluation.result`` event to an OTLP/HTTP endpoint.

    Args:
        evaluations: What to send.
        endpoint: The logs endpoint (``http://127.0.0.1:4318/v1/logs``).
        headers: Extra request headers (an auth token).
        timeout: Seconds the exporter may spend, retries included.
        service_name: The ``service.name`` of the resource the events come from.

    Returns:
        How many events the collector accepted.

    Raises:
        InputError: The SDK is not installed, or there is nothing to send.
        InfrastructureError: The collector refused the events or could not be reached.
    """
    if not evaluations:
        raise InputError("there is no evaluation to send", fix="pass trace files with a run")
    try:
        from opentelemetry import trace  # noqa: PLC0415 - the otel extra, on demand
        from opentelemetry._logs import LogRecord  # noqa: PLC0415
        from opentelemetry.exporter.otlp.proto.http._log_exporter import (  # noqa: PLC0415
            OTLPLogExporter,
        )
        from opentelemetry.sdk._logs import LoggerProvider, ReadableLogRecord  # noqa: PLC0415
        from opentelemetry.sdk._logs.export import (  # noqa: PLC0415
            BatchLogRecordProcessor,
            LogRecordExporter,
            LogRecordExportResult,
        )
        from opentelemetry.sdk.resources import Resource  # noqa: PLC0415
    except ImportError as exc:
        raise InputError(
            f"the OpenTelemetry SDK is not installed ({exc.name})",
            fix="pip install 'tracegrade[otel]'",
        ) from exc

    exporter = OTLPLogExporter(endpoint=endpoint, headers=dict(headers or {}), timeout=timeout)
    delivered = {"sent": 0, "failed": 0}

    class _Counted(LogRecordExporter):
        """The SDK's exporter, counting what it delivered: the processor only logs failures."""

        def export(self, batch: Sequence[ReadableLogRecord]) -> LogRecordExportResult:
            result = exporter.export(batch)
            ok = result == LogRecordExportResult.SUCCESS
            delivered["sent" if ok else "failed"] += len(batch)
            return result

        def shutdown(self) -> None:
            exporter.shutdown()  # type: ignore[no-untyped-call]  # the SDK leaves it untyped

        def force_flush(self, timeout_millis: int = 30_000) -> bool:
            return exporter.force_flush(timeout_millis)

    def parent(evaluation: Evaluation) -> Context:
        """The evaluated span as the event's parent (a remote span context), if any."""
        if evaluation.span is None:
            return trace.set_span_in_context(trace.INVALID_SPAN)
        span = trace.SpanContext(
            trace_id=int(evaluation.span.trace_id, 16),
            span_id=int(evaluation.span.span_id, 16),
            is_remote=True,
            trace_flags=trace.TraceFlags(trace.TraceFlags.SAMPLED),
        )
        return trace.set_span_in_context(trace.NonRecordingSpan(span))

    resource = Resource.create({"service.name": service_name, "service.version": __version__})
    # Shut down here, not at exit: a later atexit shutdown would only log that it already was.
    provider = LoggerProvider(resource=resource, shutdown_on_exit=False)
    provider.add_log_record_processor(
        BatchLogRecordProcessor(_Counted(), export_timeout_millis=int(timeout * 1000))
    )
    logger = provider.get_logger("tracegrade", __version__)
    graded_at = time.time_ns()  # the evaluations' time: when they were made and sent
    with _quiet_sdk() as said:
        for evaluation in evaluations:
            logger.emit(
                LogRecord(
                    timestamp=graded_at,
                    context=parent(evaluation),
                    event_name=EVENT_NAME,
                    attributes=event_attributes(evaluation),
                )
            )
        provider.force_flush(int(timeout * 1000) + 1000)
        provider.shutdown()
    if delivered["failed"] or delivered["sent"] < len(evaluations):
        # The SDK's own words on why: a connection or HTTP error before its "failed" summary.
        causes = [m for m in said.messages if "rror" in m] or said.messages
        cause = f" ({_clip(causes[0])})" if causes else ""
        raise InfrastructureError(
            f"the collector at {endpoint} did not accept"
            f" {len(evaluations) - delivered['sent']} of {len(evaluations)} evaluation"
            f" event(s){cause}",
            fix="check that an OTLP/HTTP collector listens there (its logs endpoint, /v1/logs)",
        )
    return delivered["sent"]
