"""Fixtures of the shadow-run tests (trial and watch): the example project, each store.

The store tests' backend fixtures, so every test here runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.proposals.example import copy_example
from tests.store import conftest as store_fixtures
from tracegrade.evals import load_project
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tracegrade.evals import Project
    from tracegrade.store import Store

postgres_server = store_fixtures.postgres_server
postgres_url = store_fixtures.postgres_url
sqlite_url = store_fixtures.sqlite_url
store_url = store_fixtures.store_url


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """The example project with proposals, copied (a shadow run writes beside it)."""
    return load_project(copy_example(tmp_path / "refunds") / "tracegrade.toml")


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """A store on each backend, closed after the test."""
    opened = open_store(store_url)
    try:
        yield opened
    finally:
        opened.close()
