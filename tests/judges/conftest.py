"""The store fixtures of tests/store (SQLite in memory or file, PostgreSQL) for the judges tests."""

from tests.store.conftest import (  # noqa: F401 - pytest finds fixtures by name here
    postgres_server,
    postgres_url,
    sqlite_url,
    store,
)
