"""Who may change things: the admin token, the session cookie and CSRF tokens.

* The API takes the admin token in ``Authorization: Bearer TOKEN``; browsers cannot send
  that header across sites without a CORS grant, and the app grants none.
* Pages keep a random session id in a signed cookie. A form carries a CSRF token derived
  from that session (HMAC), and a form post must also come from this origin (the
  ``Origin`` header, else ``Referer``).
* The admin token is typed once into a form; the app then sets an HttpOnly,
  ``SameSite=Strict`` cookie holding an HMAC of the token bound to the session, never the
  token itself.
* With no token configured every mutation is refused (403).
* Every request must name an allowed host in its ``Host`` header (:class:`AllowedHosts`;
  loopback names by default): a page of another site that rebinds its own name to
  127.0.0.1 (DNS rebinding) sends its own name, and is refused with 400.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Iterable

    from starlette.requests import Request

__all__ = [
    "ADMIN_COOKIE",
    "CHANGES_DISABLED",
    "LOOPBACK_HOSTS",
    "SESSION_COOKIE",
    "TOKEN_ENV",
    "AllowedHosts",
    "Security",
    "host_name",
    "resolve_token",
]

TOKEN_ENV = "TRACEGRADE_ADMIN_TOKEN"  # noqa: S105 - the variable's name, not a token
SESSION_COOKIE = "tracegrade_session"
ADMIN_COOKIE = "tracegrade_admin"
CHANGES_DISABLED = (
    "changes are disabled: no admin token is configured; set TRACEGRADE_ADMIN_TOKEN"
    " (or pass admin_token to create_app) and restart tracegrade serve"
)


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The host names ``tracegrade serve`` answers to unless told more (``--allow-host``)."""


def host_name(host: str) -> str:
    """The name of a ``Host`` header or an allowed-host entry, without its port, lower case.

    ``example.org:7600`` is ``example.org``; an IPv6 address keeps its brackets
    (``[::1]:7600`` is ``[::1]``); a bare IPv6 address (``::1``) gets them.

    Raises:
        ValueError: The name is empty, or holds characters no host name has.
    """
    text = host.strip().lower()
    if text.startswith("["):
        name = text[: text.find("]") + 1] if "]" in text else ""
    elif text.count(":") > 1:
        name = f"[{text}]"  # a bare IPv6 address
    else:
        name = text.split(":", 1)[0]
    if not name or any(c.isspace() or c in "/@?#" for c in name):
        msg = f"{host!r} is not a host name (give a name or address, e.g. tracegrade.internal)"
        raise ValueError(msg)
    return name


@dataclass(frozen=True, slots=True)
class AllowedHosts:
    """The host names the app answers to; any port (the name is what a rebinding changes)."""

    names: frozenset[str]

    @classmethod
    def of(cls, extra: Iterable[str] = ()) -> AllowedHosts:
        """The loopback names and ``extra`` ones.

        Raises:
            ValueError: An extra name is not a host name (see :func:`host_name`).
        """
        return cls(frozenset(host_name(name) for name in (*LOOPBACK_HOSTS, *extra)))

    def refusal(self, host: str | None) -> str | None:
        """Why a request with this ``Host`` header is refused, or ``None``."""
        try:
            name = host_name(host or "")
        except ValueError:
            name = ""
        if name in self.names:
            return None
        shown = ", ".join(sorted(self.names))
        return (
            f"tracegrade: refused: Host {host!r} is not a name this server answers to ({shown});"
            " start it with --allow-host NAME to add one\n"
        )


def resolve_token(admin_token: str | None) -> str | None:
    """The admin token: the argument, else ``$TRACEGRADE_ADMIN_TOKEN``; blank means none."""
    token = admin_token if admin_token is not None else os.environ.get(TOKEN_ENV)
    return token if token and token.strip() else None


def _same_origin(url: str, request: Request) -> bool:
    parts = urlsplit(url)
    host = request.headers.get("host", "")
    return bool(parts.scheme in {"http", "https"} and parts.netloc and parts.netloc == host)


@dataclass(frozen=True, slots=True)
class Security:
    """The app's secrets: the admin token (if any) and a per-process signing key."""

    token: str | None
    key: bytes

    @classmethod
    def create(cls, admin_token: str | None) -> Security:
        """Security for a new app: the resolved token and a fresh random key."""
        return cls(resolve_token(admin_token), secrets.token_bytes(32))

    def _sign(self, purpose: str, value: str) -> str:
        return hmac.new(self.key, f"{purpose}:{value}".encode(), hashlib.sha256).hexdigest()

    def new_session(self) -> str:
        """A new signed session cookie value: ``id.signature``."""
        session = secrets.token_urlsafe(18)
        return f"{session}.{self._sign('session', session)}"

    def session_id(self, cookie: str | None) -> str | None:
        """The session id of a signed cookie value, or ``None`` when it is not ours."""
        if not cookie or "." not in cookie:
            return None
        session, signature = cookie.rsplit(".", 1)
        good = hmac.compare_digest(signature, self._sign("session", session))
        return session if good else None

    def csrf_token(self, session: str) -> str:
        """The CSRF token every form of this session carries."""
        return self._sign("csrf", session)

    def check_form(self, request: Request, session: str | None, csrf: str | None) -> str | None:
        """Why a form post is refused (cross-site or without the CSRF token), or ``None``."""
        origin = request.headers.get("origin")
        referer = request.headers.get("referer")
        if origin is not None and origin != "null":
            if not _same_origin(origin, request):
                return "the form was posted from another site"
        elif referer is None or not _same_origin(referer, request):
            return "the form post names no origin of this site (Origin or Referer)"
        if session is None or not csrf or not hmac.compare_digest(csrf, self.csrf_token(session)):
            return "the form's CSRF token does not match this session; reload the page"
        return None

    def token_matches(self, given: str | None) -> bool:
        """Whether ``given`` is the configured admin token (never, when none is configured)."""
        if self.token is None or not given:
            return False
        return hmac.compare_digest(given.encode(), self.token.encode())

    def admin_cookie(self, session: str) -> str:
        """The admin cookie's value for a session whose user gave the right token."""
        return self._sign("admin", f"{session}:{self.token}")

    def is_admin(self, session: str | None, cookie: str | None) -> bool:
        """Whether the admin cookie proves this session gave the current token."""
        if self.token is None or session is None or not cookie:
            return False
        return hmac.compare_digest(cookie, self.admin_cookie(session))

    def bearer_ok(self, request: Request) -> bool:
        """Whether the request's ``Authorization: Bearer`` header holds the admin token."""
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        return scheme.lower() == "bearer" and self.token_matches(value.strip())
