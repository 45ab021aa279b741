"""Store fixtures: every store test runs on SQLite in memory, a SQLite file and PostgreSQL.

PostgreSQL comes from $TRACEGRADE_TEST_POSTGRES_URL (``.ci/run`` sets it), else from a
throwaway cluster that ``scripts/postgres`` starts for the session and stops at its end.
Each test gets a database of its own. When no PostgreSQL can be started the postgres tests
skip with the reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import sqlalchemy as sa

from tracegrade.store import InMemoryStore, SqlStore, Store, open_store
from tracegrade.store._url import parse_store_url

if TYPE_CHECKING:
    from collections.abc import Iterator

REPO = Path(__file__).resolve().parents[2]
SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
BACKENDS = ["memory", *SQL_BACKENDS]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must test PostgreSQL, but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL database whose user may create databases."""
    given = os.environ.get("TRACEGRADE_TEST_POSTGRES_URL")
    if given:
        yield parse_store_url(given).render_as_string(hide_password=False)
        return
    folder = tempfile.mkdtemp(prefix="tracegrade-pg-")
    script = str(REPO / "scripts" / "postgres")
    try:
        started = subprocess.run(
            [script, "start", folder], capture_output=True, text=True, timeout=300, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        _unavailable(f"scripts/postgres could not start PostgreSQL: {exc}")
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        _unavailable(f"scripts/postgres could not start PostgreSQL: {started.stderr.strip()}")
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([script, "stop", folder], capture_output=True, timeout=60, check=False)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty database on the session's server, dropped after the test."""
    name = f"tracegrade_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(postgres_server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite file that does not exist yet."""
    return f"sqlite:///{tmp_path / '.tracegrade' / 'results.db'}"


@pytest.fixture(params=SQL_BACKENDS)
def store_url(request: pytest.FixtureRequest) -> str:
    """A fresh SQLite or PostgreSQL store URL."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    """An empty store of each kind: SQLite in memory (InMemoryStore), SQLite file, PostgreSQL."""
    opened: Store
    if request.param == "memory":
        opened = InMemoryStore()
    else:
        opened = open_store(request.getfixturevalue(f"{request.param}_url"))
        assert isinstance(opened, SqlStore)
    try:
        yield opened
    finally:
        opened.close()
