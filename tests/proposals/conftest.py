"""The loop's API tests run against every store: in-memory, SQLite and PostgreSQL.

The fixtures are the store tests' own (tests/store/conftest.py), so PostgreSQL comes from
$TRACEGRADE_TEST_POSTGRES_URL or a throwaway cluster, the same way.
"""

from tests.store.conftest import postgres_server, postgres_url, sqlite_url, store

__all__ = ["postgres_server", "postgres_url", "sqlite_url", "store"]
