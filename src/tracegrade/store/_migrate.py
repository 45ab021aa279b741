"""Run the store's Alembic migrations to head, programmatically and safely under concurrency."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
_LOCK = 0x7472_6163_6567  # pg_advisory_xact_lock key: "tracegrade" processes migrate one at a time


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def head_revision() -> str | None:
    """The newest migration shipped with this version of tracegrade."""
    return ScriptDirectory.from_config(_config()).get_current_head()


WRITE = "tracegrade_write"
"""Execution option that makes a SQLite transaction start with ``BEGIN IMMEDIATE``."""


def upgrade_to_head(engine: sa.Engine) -> None:
    """Migrate the database to head inside one write transaction.

    The transaction holds SQLite's write lock (``BEGIN IMMEDIATE``) or a PostgreSQL
    advisory lock, so processes opening a new store at once migrate it once, in turn.
    """
    with engine.connect() as connection, connection.execution_options(**{WRITE: True}).begin():
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
