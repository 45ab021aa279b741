"""The pages: server-rendered Jinja2 over the same models the API returns, and the forms."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates  # noqa: TC002 - FastAPI reads annotations

from tracegrade.store import Outcome  # noqa: TC001 - FastAPI reads annotations
from tracegrade.web._api import decide_proposal
from tracegrade.web._case import case_view
from tracegrade.web._charts import cost_chart, trend_chart
from tracegrade.web._security import ADMIN_COOKIE, CHANGES_DISABLED, Security
from tracegrade.web._views import (
    COST_WINDOW_DAYS,
    Context,
    cost_view,
    run_list,
    run_view,
    touchpoint_detail,
    touchpoint_summaries,
)

__all__ = ["page_router", "render"]

page_router = APIRouter(include_in_schema=False)


def render(
    request: Request, template: str, *, http_status: int = 200, **values: object
) -> Response:
    """A page from ``template``, with the session's CSRF token and admin state."""
    templates: Jinja2Templates = request.app.state.templates
    security: Security = request.app.state.security
    session: str | None = getattr(request.state, "session", None)
    context = {
        "csrf": security.csrf_token(session) if session else "",
        "admin": security.is_admin(session, request.cookies.get(ADMIN_COOKIE)),
        "token_configured": security.token is not None,
        **values,
    }
    return templates.TemplateResponse(request, template, context, status_code=http_status)


def _context(request: Request) -> Context:
    context: Context = request.app.state.context
    return context


@page_router.get("/", response_class=HTMLResponse)
def registry_page(request: Request) -> Response:
    """Every touchpoint: kind, owner, severity, last result, drift, signals, cost."""
    context = _context(request)
    return render(
        request,
        "registry.html",
        touchpoints=touchpoint_summaries(context),
        project=context.project,
        window=COST_WINDOW_DAYS,
    )


@page_router.get("/touchpoints/{touchpoint}", response_class=HTMLResponse)
def touchpoint_page(request: Request, touchpoint: str) -> Response:
    """A touchpoint's trend, cost, signals, patterns, proposals and versions."""
    detail = touchpoint_detail(_context(request), touchpoint)
    if detail is None:
        raise HTTPException(404, f"no touchpoint {touchpoint!r}")
    baseline = detail.baseline.metric if detail.baseline is not None else None
    return render(
        request,
        "touchpoint.html",
        detail=detail,
        trend=trend_chart(detail.history, baseline),
        cost=cost_chart(detail.cost_by_day),
    )


@page_router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request) -> Response:
    """The newest runs."""
    return render(request, "runs.html", runs=run_list(_context(request)))


@page_router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(
    request: Request,
    run_id: str,
    *,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    outcome: Outcome | None = None,
    touchpoint: str | None = None,
) -> Response:
    """A run's touchpoints, a page of its cases with deltas and diagnoses, and its cost."""
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
    return render(request, "run.html", view=view)


@page_router.get("/cases/{case_id}", response_class=HTMLResponse)
def case_page(request: Request, case_id: int) -> Response:
    """A case: its verdict, and its trace frame by frame with the answer's claims marked."""
    context = _context(request)
    row = context.store.get_case_result(case_id)
    if row is None:
        raise HTTPException(404, f"no case result {case_id}")
    return render(request, "case.html", case=case_view(context, row))


@page_router.get("/cost", response_class=HTMLResponse)
def cost_page(
    request: Request, days: Annotated[int | None, Query(ge=1, le=3660)] = None
) -> Response:
    """Cost rollups by touchpoint, model, day and role."""
    return render(request, "cost.html", cost=cost_view(_context(request), days), days=days)


def _refused(request: Request, security: Security, csrf: str | None) -> str | None:
    return security.check_form(request, request.state.session, csrf)


@page_router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request, next: str = "/") -> Response:
    """The form where the admin token is entered once."""
    return render(request, "admin.html", next=next if next.startswith("/") else "/")


def _local(path: str) -> str:
    """A redirect target on this site only (a path, never ``//host``)."""
    return path if path.startswith("/") and not path.startswith("//") else "/"


@page_router.post("/admin", response_class=HTMLResponse)
def admin_login(
    request: Request,
    token: Annotated[str, Form()] = "",
    csrf: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    """Check the token; on success keep proof of it in an HttpOnly SameSite=Strict cookie."""
    security: Security = request.app.state.security
    if security.token is None:
        raise HTTPException(403, CHANGES_DISABLED)
    refused = _refused(request, security, csrf)
    if refused is not None:
        raise HTTPException(403, refused)
    session = request.state.session
    if not security.token_matches(token) or session is None:
        return render(request, "admin.html", http_status=403, next=_local(next), wrong=True)
    response = RedirectResponse(_local(next), status_code=303)
    response.set_cookie(
        ADMIN_COOKIE, security.admin_cookie(session), httponly=True, samesite="strict", path="/"
    )
    return response


@page_router.post("/admin/logout")
def admin_logout(request: Request, csrf: Annotated[str, Form()] = "") -> Response:
    """Forget the admin cookie."""
    security: Security = request.app.state.security
    refused = _refused(request, security, csrf)
    if refused is not None:
        raise HTTPException(403, refused)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(ADMIN_COOKIE, path="/")
    return response


def _decide(request: Request, proposal_id: int, csrf: str, decision: str) -> Response:
    security: Security = request.app.state.security
    if security.token is None:
        raise HTTPException(403, CHANGES_DISABLED)
    refused = _refused(request, security, csrf)
    if refused is not None:
        raise HTTPException(403, refused)
    session = request.state.session
    if not security.is_admin(session, request.cookies.get(ADMIN_COOKIE)):
        raise HTTPException(403, "this change needs the admin token: enter it at /admin first")
    decided = decide_proposal(
        _context(request), proposal_id, "approve" if decision == "approve" else "reject", "web"
    )
    where = quote(decided.touchpoint, safe="")
    return RedirectResponse(f"/touchpoints/{where}#proposals", status_code=303)


@page_router.post("/proposals/{proposal_id}/approve")
def approve_form(request: Request, proposal_id: int, csrf: Annotated[str, Form()] = "") -> Response:
    """The touchpoint page's approve button."""
    return _decide(request, proposal_id, csrf, "approve")


@page_router.post("/proposals/{proposal_id}/reject")
def reject_form(request: Request, proposal_id: int, csrf: Annotated[str, Form()] = "") -> Response:
    """The touchpoint page's reject button."""
    return _decide(request, proposal_id, csrf, "reject")
