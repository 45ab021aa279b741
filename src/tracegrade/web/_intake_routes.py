"""Received traces in the API (``/api/traces``) and the pages (``/traces``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from tracegrade.errors import TracegradeError
from tracegrade.web._case import suite_marks
from tracegrade.web._intake import suite_decoders
from tracegrade.web._intake_views import (
    ReceivedTraceDetail,
    ReceivedTraceItem,
    received_detail,
    received_item,
)
from tracegrade.web._lookup import request_context
from tracegrade.web._pages import render

if TYPE_CHECKING:
    from tracegrade.traces import Trace
    from tracegrade.web._models import FrameMark

__all__ = ["intake_router"]

intake_router = APIRouter()
"""The received-traces API and pages; the OTLP router includes them."""

_LIST_LIMIT = 500  # the most received traces one list shows


def _items(request: Request, touchpoint: str | None, limit: int) -> list[ReceivedTraceItem]:
    records = request_context(request).store.received_traces(touchpoint, limit=limit)
    return [received_item(record) for record in records]


def _detail(request: Request, trace_id: str) -> ReceivedTraceDetail:
    context = request_context(request)
    record = context.store.get_received_trace(trace_id.lower())
    if record is None:
        raise HTTPException(404, f"no received trace {trace_id}")
    try:
        decoders = suite_decoders(context.project, record.touchpoint)
    except TracegradeError:
        decoders = ()  # the stored grade says why it was not graded
    project = context.project
    contract = None
    if project is not None and record.touchpoint is not None:
        contract = next((t for t in project.touchpoints if t.id == record.touchpoint), None)

    def marks(trace: Trace) -> dict[int, list[FrameMark]]:
        if project is None or contract is None:
            return {}
        try:
            return suite_marks(project, contract, trace)
        except TracegradeError:
            return {}  # a policy or rules file that no longer reads marks nothing

    return received_detail(record, decoders, marks)


@intake_router.get("/api/traces", response_model=list[ReceivedTraceItem], tags=["traces"])
def list_received_traces(
    request: Request,
    touchpoint: str | None = None,
    limit: Annotated[int, Query(ge=1, le=_LIST_LIMIT)] = 100,
) -> list[ReceivedTraceItem]:
    """Traces received over OTLP, newest first (of one touchpoint if given)."""
    return _items(request, touchpoint, limit)


@intake_router.get("/api/traces/{trace_id}", response_model=ReceivedTraceDetail, tags=["traces"])
def get_received_trace(request: Request, trace_id: str) -> ReceivedTraceDetail:
    """One received trace: its frames, the answer's claims and figures, its grade."""
    return _detail(request, trace_id)


@intake_router.get("/traces", response_class=HTMLResponse, include_in_schema=False)
def received_traces_page(
    request: Request,
    touchpoint: str | None = None,
    limit: Annotated[int, Query(ge=1, le=_LIST_LIMIT)] = 100,
) -> Response:
    """The traces received over OTLP, newest first."""
    items = _items(request, touchpoint, limit)
    return render(request, "intake_traces.html", items=items, touchpoint=touchpoint)


@intake_router.get("/traces/{trace_id}", response_class=HTMLResponse, include_in_schema=False)
def received_trace_page(request: Request, trace_id: str) -> Response:
    """One received trace, frame by frame, with the answer's claims marked."""
    return render(request, "intake_trace.html", detail=_detail(request, trace_id))
