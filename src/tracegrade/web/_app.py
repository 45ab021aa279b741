"""``create_app``: the results UI and JSON API over a store, as one FastAPI app.

Headers on every response forbid inline script and any source but this origin (CSP), so
trace content that slipped past escaping still could not run, and forbid caching
(``Cache-Control: no-store``: pages show trace content). A request whose ``Host`` is not an
allowed name (loopback by default) is refused with a one-line 400 before anything runs
(DNS rebinding). Every page and API answer passes through the project's redaction rules
once more, for content stored before redaction existed. Errors never show a traceback:
unknown ids get a 404 page (or JSON under ``/api``, a ``google.rpc.Status`` under
``/v1/``), anything else a plain 500.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from tracegrade import __version__
from tracegrade.redact import Redactor
from tracegrade.web import _format
from tracegrade.web._api import api_router
from tracegrade.web._otlp import OTLP_PATH, otlp_router
from tracegrade.web._pages import page_router, render
from tracegrade.web._proposal import proposal_router
from tracegrade.web._security import SESSION_COOKIE, AllowedHosts, Security
from tracegrade.web._views import Context

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable

    from starlette.requests import Request

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


_NOT_FOUND, _INTERNAL = 5, 13  # google.rpc.Code


def _error(request: Request, status: int, message: str) -> Response:
    """A refusal or failure, never a traceback.

    JSON under ``/api``, an OTLP ``google.rpc.Status`` under ``/v1/``, else the error page.
    """
    if request.url.path.startswith("/v1/"):
        code = _NOT_FOUND if status in (404, 405) else _INTERNAL
        return JSONResponse({"code": code, "message": message}, status_code=status)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": message}, status_code=status)
    return render(request, "error.html", http_status=status, status=status, message=message)


_REDACTED_TYPES = ("text/html", "application/json")  # the answers that show trace content


async def _redacted(response: Response, redactor: Redactor) -> Response:
    """The answer with its body redacted, when it is a page or JSON."""
    media = response.headers.get("content-type", "").split(";", 1)[0].strip()
    if media not in _REDACTED_TYPES:
        return response
    chunks = [chunk async for chunk in response.body_iterator]  # type: ignore[attr-defined]
    body = b"".join(c if isinstance(c, bytes) else c.encode() for c in chunks)
    text, kinds = redactor.text(body.decode("utf-8", errors="surrogateescape"))
    if kinds:
        body = text.encode("utf-8", errors="surrogateescape")
    redacted = Response(body, status_code=response.status_code, background=response.background)
    # Every header as it was (each Set-Cookie too), the length of the new body.
    redacted.raw_headers = [
        *(item for item in response.raw_headers if item[0].lower() != b"content-length"),
        (b"content-length", str(len(body)).encode()),
    ]
    return redacted


def create_app(
    store: Store,
    *,
    project: Project | None = None,
    admin_token: str | None = None,
    allowed_hosts: Iterable[str] = (),
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
        allowed_hosts: Host names the app answers to besides the loopback ones
            (``127.0.0.1``, ``localhost``, ``[::1]``, any port); a request with another
            ``Host`` is refused with 400.

    Raises:
        ValueError: An allowed host is not a host name.

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
    app.state.allowed_hosts = AllowedHosts.of(allowed_hosts)
    app.state.redactor = project.redactor if project is not None else Redactor()
    app.state.templates = _templates()
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    app.include_router(api_router)
    app.include_router(otlp_router)  # POST /v1/traces and the received traces
    app.include_router(page_router)
    app.include_router(proposal_router)  # GET /proposals/{id} and /api/proposals/{id}

    @app.middleware("http")
    async def _session_and_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        allowed: AllowedHosts = request.app.state.allowed_hosts
        refused = allowed.refusal(request.headers.get("host"))
        if refused is not None:
            return PlainTextResponse(refused, status_code=400, headers=_HEADERS)
        security: Security = request.app.state.security
        session = security.session_id(request.cookies.get(SESSION_COOKIE))
        fresh = None
        if session is None:
            fresh = security.new_session()
            session = security.session_id(fresh)
        request.state.session = session
        response = await call_next(request)
        path = request.url.path
        if not path.startswith("/static/"):
            response.headers.setdefault("Cache-Control", "no-store")
            if path != OTLP_PATH:
                response = await _redacted(response, request.app.state.redactor)
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
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
