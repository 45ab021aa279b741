"""Store URLs: the default SQLite file, the schemes accepted, and how a URL is shown."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import ArgumentError

from tracegrade.errors import InputError

DEFAULT_URL = "sqlite:///.tracegrade/tracegrade.db"
"""The store used when none is given: a SQLite file under ``.tracegrade/`` in the working folder."""

_POSTGRES_SCHEMES = {"postgres", "postgresql", "postgresql+psycopg"}
_FIX = "use sqlite:///PATH/TO/FILE.db or postgresql+psycopg://USER[:PASSWORD]@HOST[:PORT]/DATABASE"


def in_memory(url: sa.URL) -> bool:
    """Whether a SQLite URL names no file: a database in memory (``InMemoryStore``'s)."""
    return url.drivername == "sqlite" and url.database in (None, "", ":memory:")


def display_url(url: sa.URL) -> str:
    """The URL as it may be printed: any password is replaced by ``***``."""
    return url.render_as_string(hide_password=True)


def parse_store_url(text: str) -> sa.URL:
    """Parse a store URL; ``postgres://`` and ``postgresql://`` mean psycopg 3.

    Raises:
        InputError: The URL cannot be parsed, its scheme is not SQLite or PostgreSQL,
            or it names an in-memory SQLite database (whose results would not outlive the
            command: ``InMemoryStore`` is that store, for tests and other code in one process).
    """
    try:
        url = sa.make_url(text)
    except ArgumentError as exc:
        raise InputError(f"cannot parse the store URL {text!r}", fix=_FIX) from exc
    if url.drivername in _POSTGRES_SCHEMES:
        return url.set(drivername="postgresql+psycopg")
    if url.drivername == "sqlite":
        if in_memory(url):
            raise InputError(
                f"the store URL {display_url(url)!r} names no SQLite file",
                fix="give a file, as in sqlite:///results.db; in Python, InMemoryStore() is a store"
                " in memory",
            )
        return url
    raise InputError(
        f"the store URL {display_url(url)!r} has the unsupported scheme {url.drivername!r}",
        fix=_FIX,
    )
