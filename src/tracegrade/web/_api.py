"""The JSON API: the same models the pages render, and the proposal decisions."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from tracegrade.errors import InputError
from tracegrade.proposals import approve_proposal, reject_proposal
from tracegrade.store import ProposalRecord, SignalRecord, TouchpointVersionRecord
from tracegrade.web._lookup import (
    found_case,
    found_run,
    found_touchpoint,
    request_context,
    stored_id,
)
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
    touchpoint_ids,
    touchpoint_summaries,
)

__all__ = ["api_router", "decide_proposal", "require_known_touchpoint"]

api_router = APIRouter(prefix="/api", tags=["api"])

Decision = Literal["approve", "reject"]


def require_known_touchpoint(context: Context, touchpoint: str) -> None:
    """404 unless the registry or a stored run knows the touchpoint."""
    if touchpoint not in touchpoint_ids(context):
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")


def decide_proposal(
    context: Context, proposal_id: int, decision: Decision, by: str
) -> ProposalRecord:
    """Approve or reject a proposal through ``tracegrade.proposals``; 404, 409 on refusal."""
    store = context.store
    if store.get_proposal(stored_id(proposal_id, "proposal")) is None:
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
    return touchpoint_summaries(request_context(request))


@api_router.get("/touchpoints/{touchpoint}", response_model=TouchpointDetail)
def get_touchpoint(
    detail: Annotated[TouchpointDetail, Depends(found_touchpoint)],
) -> TouchpointDetail:
    """One touchpoint: its history, baseline, cost, signals, proposals and versions."""
    return detail


@api_router.get("/touchpoints/{touchpoint}/signals", response_model=list[SignalRecord])
def touchpoint_signals(
    request: Request, touchpoint: str, *, processed: bool | None = None
) -> list[SignalRecord]:
    """The touchpoint's signals, oldest first (``processed`` filters)."""
    context = request_context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.signals(touchpoint, processed=processed)


@api_router.get("/touchpoints/{touchpoint}/patterns", response_model=list[PatternView])
def touchpoint_patterns(
    detail: Annotated[TouchpointDetail, Depends(found_touchpoint)],
) -> list[PatternView]:
    """Patterns found in the touchpoint's unprocessed signals."""
    return list(detail.patterns)


@api_router.get("/touchpoints/{touchpoint}/proposals", response_model=list[ProposalRecord])
def touchpoint_proposals(
    request: Request, touchpoint: str, status: str | None = None
) -> list[ProposalRecord]:
    """The touchpoint's proposals, newest first (``status`` filters)."""
    context = request_context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.proposals(touchpoint, status=status)


@api_router.get("/touchpoints/{touchpoint}/versions", response_model=list[TouchpointVersionRecord])
def touchpoint_versions(request: Request, touchpoint: str) -> list[TouchpointVersionRecord]:
    """The touchpoint's recorded versions with their file hashes, newest first."""
    context = request_context(request)
    require_known_touchpoint(context, touchpoint)
    return context.store.touchpoint_versions(touchpoint)


@api_router.get("/runs", response_model=list[RunListItem])
def list_runs(
    request: Request, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> list[RunListItem]:
    """The newest runs, with each touchpoint's verdict status."""
    return run_list(request_context(request), limit)


@api_router.get("/runs/{run_id}", response_model=RunView)
def get_run(view: Annotated[RunView, Depends(found_run)]) -> RunView:
    """A run: its touchpoints' verdicts, a page of its cases, and its cost."""
    return view


@api_router.get("/cases/{case_id}", response_model=CaseView)
def get_case(case: Annotated[CaseView, Depends(found_case)]) -> CaseView:
    """A case result, with its trace read again and graded when the registry finds it."""
    return case


@api_router.get("/cost", response_model=CostView)
def get_cost(
    request: Request, days: Annotated[int | None, Query(ge=1, le=3660)] = None
) -> CostView:
    """Cost rollups by touchpoint, model, day and role (the last ``days`` days, or all)."""
    return cost_view(request_context(request), days)


@api_router.post("/proposals/{proposal_id}/approve", response_model=ProposalRecord)
def approve(request: Request, proposal_id: int, by: str = "web") -> ProposalRecord:
    """Approve a proposal (needs the admin token as a bearer token)."""
    _authorised(request)
    return decide_proposal(request_context(request), proposal_id, "approve", by)


@api_router.post("/proposals/{proposal_id}/reject", response_model=ProposalRecord)
def reject(request: Request, proposal_id: int, by: str = "web") -> ProposalRecord:
    """Reject a proposal (needs the admin token as a bearer token)."""
    _authorised(request)
    return decide_proposal(request_context(request), proposal_id, "reject", by)
