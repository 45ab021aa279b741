"""The pages: server-rendered Jinja2 over the same models the API returns, and the forms."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates  # noqa: TC002 - FastAPI reads annotations

from tracegrade.web._api import decide_proposal
from tracegrade.web._charts import cost_chart, trend_chart
from tracegrade.web._lookup import found_case, found_run, found_touchpoint, request_context
from tracegrade.web._models import (  # noqa: TC001 - FastAPI reads annotations
    CaseView,
    RunView,
    TouchpointDetail,
)
from tracegrade.web._security import ADMIN_COOKIE, CHANGES_DISABLED, Security
from tracegrade.web._views import COST_WINDOW_DAYS, cost_view, run_list, touchpoint_summaries

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


@page_router.get("/", response_class=HTMLResponse)
def registry_page(request: Request) -> Response:
    """Every touchpoint: kind, owner, severity, last result, drift, signals, cost."""
    context = request_context(request)
    return render(
        request,
        "registry.html",
        touchpoints=touchpoint_summaries(context),
        project=context.project,
        window=COST_WINDOW_DAYS,
    )


@page_router.get("/touchpoints/{touchpoint}", response_class=HTMLResponse)
def touchpoint_page(
    request: Request, detail: Annotated[TouchpointDetail, Depends(found_touchpoint)]
) -> Response:
    """A touchpoint's trend, cost, signals, patterns, proposals and versions."""
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
    return render(request, "runs.html", runs=run_list(request_context(request)))


@page_router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, view: Annotated[RunView, Depends(found_run)]) -> Response:
    """A run's touchpoints, a page of its cases with deltas and diagnoses, and its cost."""
    return render(request, "run.html", view=view)


@page_router.get("/cases/{case_id}", response_class=HTMLResponse)
def case_page(request: Request, case: Annotated[CaseView, Depends(found_case)]) -> Response:
    """A case: its verdict, and its trace frame by frame with the answer's claims marked."""
    return render(request, "case.html", case=case)


@page_router.get("/cost", response_class=HTMLResponse)
def cost_page(
    request: Request, days: Annotated[int | None, Query(ge=1, le=3660)] = None
) -> Response:
    """Cost rollups by touchpoint, model, day and role."""
    return render(request, "cost.html", cost=cost_view(request_context(request), days), days=days)


def _checked_form(request: Request, csrf: str, *, needs_token: bool) -> Security:
    """The app's security once a posted form passes its checks; 403 when it does not.

    With ``needs_token``, changes must be allowed (an admin token configured); every form
    must carry the session's CSRF token and come from this site.
    """
    security: Security = request.app.state.security
    if needs_token and security.token is None:
        raise HTTPException(403, CHANGES_DISABLED)
    refused = security.check_form(request, request.state.session, csrf)
    if refused is not None:
        raise HTTPException(403, refused)
    return security


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
    security = _checked_form(request, csrf, needs_token=True)
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
    _checked_form(request, csrf, needs_token=False)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(ADMIN_COOKIE, path="/")
    return response


def _decide(request: Request, proposal_id: int, csrf: str, decision: str) -> Response:
    security = _checked_form(request, csrf, needs_token=True)
    session = request.state.session
    if not security.is_admin(session, request.cookies.get(ADMIN_COOKIE)):
        raise HTTPException(403, "this change needs the admin token: enter it at /admin first")
    decided = decide_proposal(
        request_context(request),
        proposal_id,
        "approve" if decision == "approve" else "reject",
        "web",
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
