"""What the routes look up for a request: the served store and registry, and the models.

The JSON API returns a touchpoint, a run or a case and the pages render the same one, so
both take it through one of these FastAPI dependencies, which answer 404 when it is not
there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import HTTPException, Query, Request

from tracegrade.store import Outcome  # noqa: TC001 - FastAPI reads annotations
from tracegrade.web._case import case_view
from tracegrade.web._views import Context, run_view, touchpoint_detail

if TYPE_CHECKING:
    from tracegrade.web._models import CaseView, RunView, TouchpointDetail

__all__ = [
    "MAX_STORED_ID",
    "found_case",
    "found_run",
    "found_touchpoint",
    "request_context",
    "stored_id",
]


def request_context(request: Request) -> Context:
    """The store and registry the app serves."""
    context: Context = request.app.state.context
    return context


def found_touchpoint(request: Request, touchpoint: str) -> TouchpointDetail:
    """The touchpoint's detail; 404 for an unknown touchpoint."""
    detail = touchpoint_detail(request_context(request), touchpoint)
    if detail is None:
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")
    return detail


def found_run(
    request: Request,
    run_id: str,
    *,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    outcome: Outcome | None = None,
    touchpoint: str | None = None,
) -> RunView:
    """The run with a page of its cases (filtered by outcome and touchpoint); 404 if unknown."""
    view = run_view(
        request_context(request),
        run_id,
        offset=offset,
        limit=limit,
        outcome=outcome,
        touchpoint=touchpoint,
    )
    if view is None:
        raise HTTPException(404, f"no run {run_id!r}")
    return view


MAX_STORED_ID = 2**31 - 1
"""The largest row id a store holds: ids are ``INTEGER`` columns (32-bit in PostgreSQL)."""


def stored_id(value: int, what: str) -> int:
    """A row id from a URL; 404 when no row can have it (the database could not even compare)."""
    if not 1 <= value <= MAX_STORED_ID:
        raise HTTPException(404, f"no {what} {value}")
    return value


def found_case(request: Request, case_id: int) -> CaseView:
    """The case result with its trace read again; 404 for an unknown case result."""
    context = request_context(request)
    row = context.store.get_case_result(stored_id(case_id, "case result"))
    if row is None:
        raise HTTPException(404, f"no case result {case_id}")
    return case_view(context, row)
