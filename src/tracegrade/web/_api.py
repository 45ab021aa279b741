"""The JSON API: the same models the pages render, and the proposal decisions."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request

from tracegrade.errors import InputError
from tracegrade.proposals import approve_proposal, reject_proposal
from tracegrade.store import Outcome, ProposalRecord, SignalRecord, TouchpointVersionRecord
from tracegrade.web._case import case_view
from tracegrade.web._models import (
    CaseView,
    CostView,
    PatternView,
    RunListItem,
    RunView,
    TouchpointDetail,
    TouchpointSummary,
)
from tracegrade.web._security import CHANGES_DISABLED, Security
from tracegrade.web._views import (
    Context,
    cost_view,
    run_list,
    run_view,
    touchpoint_detail,
    touchpoint_ids,
    touchpoint_summaries,
)

__all__ = ["api_router", "decide_proposal", "require_known_touchpoint"]

api_router = APIRouter(prefix="/api", tags=["api"])

Decision = Literal["approve", "reject"]


def _context(request: Request) -> Context:
    context: Context = request.app.state.context
    return context


def require_known_touchpoint(context: Context, touchpoint: str) -> None:
    """404 unless the registry or a stored run knows the touchpoint."""
    if touchpoint not in touchpoint_ids(context):
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")


def decide_proposal(
    context: Context, proposal_id: int, decision: Decision, by: str
) -> ProposalRecord:
    """Approve or reject a proposal through ``tracegrade.proposals``; 404, 409 on refusal."""
    store = context.store
    if store.get_proposal(proposal_id) is None:
        raise HTTPException(404, f"no proposal {proposal_id}")
    function = approve_proposal if decision == "approve" else reject_proposal
    try:
        decided: ProposalRecord = function(store, proposal_id, by=by)
    except InputError as exc:
        raise HTTPException(409, str(exc).splitlines()[0]) from exc
    return decided


def _authorised(request: Request) -> None:
    security: Security = request.app.state.security
    if security.token is None:
        raise HTTPException(403, CHANGES_DISABLED)
    if not security.bearer_ok(request):
        raise HTTPException(
            403, "this change needs the admin token: send 'Authorization: Bearer TOKEN'"
        )


@api_router.get("/touchpoints", response_model=list[TouchpointSummary])
def list_touchpoints(request: Request) -> list[TouchpointSummary]:
    """Every touchpoint of the registry (and of stored runs) and how it stands."""
    return touchpoint_summaries(_context(request))


@api_router.get("/touchpoints/{touchpoint}", response_model=TouchpointDetail)
def get_touchpoint(request: Request, touchpoint: str) -> TouchpointDetail:
    """One touchpoint: its history, baseline, cost, signals, proposals and versions."""
    detail = touchpoint_detail(_context(request), touchpoint)
    if detail is None:
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")
    return detail


@api_router.get("/touchpoints/{touchpoint}/signals", response_model=list[SignalRecord])
def touchpoint_signals(
    request: Request, touchpoint: str, *, processed: bool | None = None
) -> list[SignalRecord]:
    """The touchpoint's signals, oldest first (``processed`` filters)."""
    context = _context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.signals(touchpoint, processed=processed)


@api_router.get("/touchpoints/{touchpoint}/patterns", response_model=list[PatternView])
def touchpoint_patterns(request: Request, touchpoint: str) -> list[PatternView]:
    """Patterns found in the touchpoint's unprocessed signals."""
    detail = touchpoint_detail(_context(request), touchpoint)
    if detail is None:
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")
    return list(detail.patterns)


@api_router.get("/touchpoints/{touchpoint}/proposals", response_model=list[ProposalRecord])
def touchpoint_proposals(
    request: Request, touchpoint: str, status: str | None = None
) -> list[ProposalRecord]:
    """The touchpoint's proposals, newest first (``status`` filters)."""
    context = _context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.proposals(touchpoint, status=status)


@api_router.get("/touchpoints/{touchpoint}/versions", response_model=list[TouchpointVersionRecord])
def touchpoint_versions(request: Request, touchpoint: str) -> list[TouchpointVersionRecord]:
    """The touchpoint's recorded versions with their file hashes, newest first."""
    context = _context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.touchpoint_versions(touchpoint)


@api_router.get("/runs", response_model=list[RunListItem])
def list_runs(
    request: Request, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> list[RunListItem]:
    """The newest runs, with each touchpoint's verdict status."""
    return run_list(_context(request), limit)


@api_router.get("/runs/{run_id}", response_model=RunView)
def get_run(
    request: Request,
    run_id: str,
    *,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    outcome: Outcome | None = None,
    touchpoint: str | None = None,
) -> RunView:
    """A run: its touchpoints' verdicts, a page of its cases, and its cost."""
    view = run_view(
        _context(request),
        run_id,
        offset=offset,
        limit=limit,
        outcome=outcome,
        touchpoint=touchpoint,
    )
    if view is None:
        raise HTTPException(404, f"no run {run_id!r}")
    return view


@api_router.get("/cases/{case_id}", response_model=CaseView)
def get_case(request: Request, case_id: int) -> CaseView:
    """A case result, with its trace read again and graded when the registry finds it."""
    context = _context(request)
    row = context.store.get_case_result(case_id)
    if row is None:
        raise HTTPException(404, f"no case result {case_id}")
    return case_view(context, row)


@api_router.get("/cost", response_model=CostView)
def get_cost(
    request: Request, days: Annotated[int | None, Query(ge=1, le=3660)] = None
) -> CostView:
    """Cost rollups by touchpoint, model, day and role (the last ``days`` days, or all)."""
    return cost_view(_context(request), days)


@api_router.post("/proposals/{proposal_id}/approve", response_model=ProposalRecord)
def approve(request: Request, proposal_id: int, by: str = "web") -> ProposalRecord:
    """Approve a proposal (needs the admin token as a bearer token)."""
    _authorised(request)
    return decide_proposal(_context(request), proposal_id, "approve", by)


@api_router.post("/proposals/{proposal_id}/reject", response_model=ProposalRecord)
def reject(request: Request, proposal_id: int, by: str = "web") -> ProposalRecord:
    """Reject a proposal (needs the admin token as a bearer token)."""
    _authorised(request)
    return decide_proposal(_context(request), proposal_id, "reject", by)
