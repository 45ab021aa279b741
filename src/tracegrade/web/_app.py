"""``create_app``: the results UI and JSON API over a store, as one FastAPI app.

Headers on every response forbid inline script and any source but this origin (CSP), so
trace content that slipped past escaping still could not run. Errors never show a
traceback: unknown ids get a 404 page (or JSON under ``/api``), anything else a plain 500.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from tracegrade import __version__
from tracegrade.web import _format
from tracegrade.web._api import api_router
from tracegrade.web._otlp import otlp_router
from tracegrade.web._pages import page_router, render
from tracegrade.web._security import SESSION_COOKIE, Security
from tracegrade.web._views import Context

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from starlette.requests import Request
    from starlette.responses import Response

    from tracegrade.evals import Project
    from tracegrade.store import Store

__all__ = ["CONTENT_SECURITY_POLICY", "create_app"]

_HERE = Path(__file__).parent
_LOG = logging.getLogger("tracegrade.web")

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
    " connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none';"
    " frame-ancestors 'none'; object-src 'none'"
)
"""No inline script or style, nothing from another origin, no framing."""

_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def _templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    environment = templates.env
    environment.autoescape = True  # every template, whatever its file name
    environment.filters.update(_format.FILTERS)
    environment.globals["version"] = __version__
    return templates


def _error(request: Request, status: int, message: str) -> Response:
    """A refusal or failure: JSON under ``/api``, else the error page; never a traceback."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": message}, status_code=status)
    return render(request, "error.html", http_status=status, status=status, message=message)


def create_app(
    store: Store, *, project: Project | None = None, admin_token: str | None = None
) -> FastAPI:
    """The results UI and JSON API over ``store``.

    Args:
        store: Where runs, results, baselines, costs, signals and proposals are.
        project: The project whose registry the pages list (every touchpoint, even one
            that never ran, and the files drift is measured on); without one, the
            touchpoints of stored runs are listed and traces cannot be read again.
        admin_token: The token that allows changes (approving and rejecting proposals);
            ``None`` reads ``$TRACEGRADE_ADMIN_TOKEN``; with neither, every change is
            refused with 403.

    Returns:
        The app; serve it with uvicorn (``tracegrade serve`` does).
    """
    app = FastAPI(
        title="tracegrade",
        version=__version__,
        description="Results of tracegrade runs: touchpoints, runs, cases, traces, costs.",
        docs_url=None,  # the interactive docs load script from a CDN; /openapi.json stays
        redoc_url=None,
    )
    app.state.context = Context(store=store, project=project)
    app.state.security = Security.create(admin_token)
    app.state.templates = _templates()
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    app.include_router(api_router)
    app.include_router(otlp_router)  # POST /v1/traces and the received traces
    app.include_router(page_router)

    @app.middleware("http")
    async def _session_and_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        security: Security = request.app.state.security
        session = security.session_id(request.cookies.get(SESSION_COOKIE))
        fresh = None
        if session is None:
            fresh = security.new_session()
            session = security.session_id(fresh)
        request.state.session = session
        response = await call_next(request)
        for name, value in _HEADERS.items():
            response.headers.setdefault(name, value)
        if fresh is not None:
            response.set_cookie(SESSION_COOKIE, fresh, httponly=True, samesite="strict", path="/")
        return response

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return _error(request, exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> Response:
        _LOG.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        response = _error(
            request, 500, "the server could not answer this request; its log says why"
        )
        for name, value in _HEADERS.items():  # this answer bypasses the middleware
            response.headers.setdefault(name, value)
        return response

    return app
