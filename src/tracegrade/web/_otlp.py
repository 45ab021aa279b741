"""The OTLP/HTTP trace receiver: ``POST /v1/traces``, OTLP JSON or protobuf, gzip or not.

Per the OTLP/HTTP specification: the body is an ``ExportTraceServiceRequest``
(``application/json`` or ``application/x-protobuf``, optionally ``Content-Encoding: gzip``);
the answer is an ``ExportTraceServiceResponse`` in the request's encoding, whose
``partialSuccess`` counts the spans that could not be read or stored and says why (a trace
that fails is reported there; the request's other traces are kept). A body that is not an
export is ``400``, an unsupported content type or encoding ``415``, a fault of ours ``500``:
each with a ``google.rpc.Status`` body (protobuf or JSON, as the request), never HTML. The
receiver never calls out.

Requests from this machine (loopback) need no token; any other client must send the
admin token (``Authorization: Bearer TOKEN``), and with no token configured it is refused.
A request that names another site as its ``Origin`` is refused: trace content must not be
injected by a web page the user happens to visit.
"""

from __future__ import annotations

import ipaddress
import logging
import zlib
from typing import TYPE_CHECKING, Any

import orjson
from fastapi import APIRouter, Request, Response
from google.protobuf.json_format import MessageToDict  # type: ignore[import-untyped]
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from starlette.concurrency import run_in_threadpool

from tracegrade.errors import TraceFormatError
from tracegrade.web._intake import TraceFailure, receive
from tracegrade.web._intake_routes import intake_router
from tracegrade.web._lookup import request_context
from tracegrade.web._otlp_convert import parse_json_export, parse_protobuf_export, split_export

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.evals import Project
    from tracegrade.store import Store
    from tracegrade.web._otlp_convert import ExportBatch

__all__ = ["MAX_BODY_BYTES", "OTLP_PATH", "otlp_router"]

OTLP_PATH = "/v1/traces"
MAX_BODY_BYTES = 64 * 1024 * 1024
"""The largest request body read, before and after gzip (larger is ``413``)."""

JSON = "application/json"
PROTOBUF = "application/x-protobuf"
_PROBLEMS_SHOWN = 5  # rejected spans named in errorMessage; the count covers them all

# google.rpc.Code values the receiver answers with.
_INVALID_ARGUMENT = 3
_PERMISSION_DENIED = 7
_RESOURCE_EXHAUSTED = 8
_UNIMPLEMENTED = 12
_INTERNAL = 13
_UNAVAILABLE = 14

_LOG = logging.getLogger("tracegrade.web")

otlp_router = APIRouter()
"""The receiver's route and the received-traces API and pages; ``create_app`` includes them."""


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _status(code: int, http_status: int, message: str, media_type: str) -> Response:
    """A ``google.rpc.Status`` body (code and message) in the request's encoding."""
    if media_type == PROTOBUF:
        text = message.encode()
        body = b"\x08" + _varint(code) + b"\x12" + _varint(len(text)) + text
        return Response(body, status_code=http_status, media_type=PROTOBUF)
    return _json_response({"code": code, "message": message}, http_status)


def _json_response(content: dict[str, Any], http_status: int = 200) -> Response:
    return Response(orjson.dumps(content), status_code=http_status, media_type=JSON)


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _is_loopback(request: Request) -> bool:
    host = request.client.host if request.client is not None else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _token_ok(request: Request) -> bool:
    security = getattr(request.app.state, "security", None)
    bearer_ok = getattr(security, "bearer_ok", None)
    return bool(callable(bearer_ok) and bearer_ok(request))


def _refusal(request: Request) -> str | None:
    """Why the request is refused, or ``None``."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "null":
        host = request.headers.get("host", "")
        if origin.split("://", 1)[-1] != host:
            return f"a page of another site ({origin}) may not send traces"
    if not _is_loopback(request) and not _token_ok(request):
        return (
            "a client not on this machine must send the admin token (Authorization: Bearer"
            " TOKEN; for an exporter OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20TOKEN)"
        )
    return None


async def _body(request: Request) -> bytes | None:
    """The request body, un-gzipped; ``None`` when it is larger than the limit."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    body = b"".join(chunks)
    if request.headers.get("content-encoding", "").strip().lower() != "gzip":
        return body
    inflate = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip framing
    try:
        plain = inflate.decompress(body, MAX_BODY_BYTES + 1)
    except zlib.error as exc:
        raise TraceFormatError(
            f"Content-Encoding is gzip but the body is not gzip data ({exc})",
            fix="gzip the body, or drop the Content-Encoding header",
            path="request body",
        ) from exc
    if len(plain) > MAX_BODY_BYTES:
        return None
    if not inflate.eof:
        raise TraceFormatError(
            "the gzip body is truncated",
            fix="send the whole gzip stream",
            path="request body",
        )
    return plain


def _store_and_project(request: Request) -> tuple[Store, Project | None]:
    """The app's store and the served project."""
    context = request_context(request)
    return context.store, context.project


def _response(batch: ExportBatch, failures: Sequence[TraceFailure], media_type: str) -> Response:
    """The ``ExportTraceServiceResponse``: ``partial_success`` counts every span not kept.

    When no trace was stored and the store was the cause, ``503`` instead: an exporter
    sends the request again (OTLP/HTTP's retryable status).
    """
    if batch.traces and len(failures) == len(batch.traces) and all(f.retryable for f in failures):
        return _status(_UNAVAILABLE, 503, failures[0].reason, media_type)
    message = ExportTraceServiceResponse()
    rejected = batch.rejected + sum(failure.spans for failure in failures)
    if rejected:
        problems = [*batch.problems, *(failure.reason for failure in failures)]
        message.partial_success.rejected_spans = rejected
        shown = "; ".join(problems[:_PROBLEMS_SHOWN])
        more = len(problems) - _PROBLEMS_SHOWN
        tail = f"; and {more} more" if more > 0 else ""
        message.partial_success.error_message = f"{rejected} span(s) rejected: {shown}{tail}"
    if media_type == PROTOBUF:
        return Response(message.SerializeToString(), media_type=PROTOBUF)
    return _json_response(MessageToDict(message))


@otlp_router.post(
    OTLP_PATH,
    summary="Receive traces over OTLP/HTTP (JSON or protobuf)",
    tags=["otlp"],
    responses={
        200: {"description": "An ExportTraceServiceResponse, in the request's encoding"},
        400: {"description": "The body is not an OTLP trace export (a google.rpc.Status)"},
        403: {"description": "A client not on this machine without the admin token"},
        413: {"description": "The body is larger than 64 MiB"},
        415: {"description": "Not application/json or application/x-protobuf, or not gzip"},
        500: {"description": "A fault of the receiver (a google.rpc.Status); its log says why"},
        503: {"description": "The store cannot be used; nothing was stored: send again"},
    },
)
async def export_traces(request: Request) -> Response:
    """Store, read and grade the spans of an ``ExportTraceServiceRequest``."""
    media_type = _media_type(request)
    try:
        return await _export(request, media_type)
    except Exception as exc:  # noqa: BLE001 - an exporter gets a Status body, never HTML
        _LOG.error("POST %s failed", OTLP_PATH, exc_info=exc)
        reply = PROTOBUF if media_type == PROTOBUF else JSON
        message = "the receiver could not store this request; its log says why"
        return _status(_INTERNAL, 500, message, reply)


async def _export(request: Request, media_type: str) -> Response:
    if media_type not in (JSON, PROTOBUF):
        shown = media_type or "none"
        return _status(
            _UNIMPLEMENTED,
            415,
            f"unsupported content type {shown!r}: send {JSON} (OTLP JSON) or {PROTOBUF}",
            JSON,
        )
    encoding = request.headers.get("content-encoding", "").strip().lower()
    if encoding not in ("", "identity", "gzip"):
        message = f"unsupported Content-Encoding {encoding!r}: send the body as is, or gzip it"
        return _status(_UNIMPLEMENTED, 415, message, media_type)
    refused = _refusal(request)
    if refused is not None:
        return _status(_PERMISSION_DENIED, 403, refused, media_type)
    try:
        body = await _body(request)
        if body is None:
            limit = MAX_BODY_BYTES // (1024 * 1024)
            return _status(_RESOURCE_EXHAUSTED, 413, f"the body is over {limit} MiB", media_type)
        export = parse_protobuf_export(body) if media_type == PROTOBUF else parse_json_export(body)
        batch = split_export(export)
    except TraceFormatError as exc:
        return _status(_INVALID_ARGUMENT, 400, str(exc), media_type)
    store, project = _store_and_project(request)
    failures = await run_in_threadpool(receive, store, batch, project=project)
    return _response(batch, failures, media_type)


otlp_router.include_router(intake_router)
