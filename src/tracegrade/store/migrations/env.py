"""Alembic environment of the store: migrate the connection that ``open_store`` hands over.

There is no ``alembic.ini``: :func:`tracegrade.store.open_store` runs these migrations to
head on every open, inside its own transaction, and passes the connection in
``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from tracegrade.errors import InputError
from tracegrade.store._schema import METADATA

_connection = context.config.attributes.get("connection")
if _connection is None:
    raise InputError(
        "the tracegrade store migrations run only on a connection handed over by open_store",
        fix="open the store with tracegrade.store.open_store(URL); it migrates to head",
    )
context.configure(connection=_connection, target_metadata=METADATA)
with context.begin_transaction():
    context.run_migrations()
