"""Results-UI fixtures: SQLite stores filled by really running projects, and test clients."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from tests.web._results import TOKEN, example_project, fill_example_store, fill_hostile_store
from tracegrade.store import open_store
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.evals import Project
    from tracegrade.store import SqlStore


@pytest.fixture(scope="session")
def example_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A SQLite store holding two runs of the example project and a proposal."""
    url = f"sqlite:///{tmp_path_factory.mktemp('web-example') / 'results.db'}"
    fill_example_store(url)
    return url


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Project]:
    """A SQLite store and project whose only trace is hostile markup."""
    folder = tmp_path_factory.mktemp("web-hostile")
    url = f"sqlite:///{folder / 'results.db'}"
    return url, fill_hostile_store(folder / "project", url)


@pytest.fixture
def example_store(example_url: str) -> Iterator[SqlStore]:
    """The example store, opened for one test."""
    store = open_store(example_url)
    yield store
    store.close()


@pytest.fixture
def client(example_store: SqlStore) -> Iterator[TestClient]:
    """The app over the example store and project, with an admin token."""
    app = create_app(example_store, project=example_project(), admin_token=TOKEN)
    with TestClient(app, base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture
def hostile_client(hostile: tuple[str, Project]) -> Iterator[TestClient]:
    """The app over the hostile store and project."""
    url, project = hostile
    store = open_store(url)
    with TestClient(create_app(store, project=project, admin_token=None)) as test_client:
        yield test_client
    store.close()


@pytest.fixture
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """No admin token in the environment."""
    monkeypatch.delenv("TRACEGRADE_ADMIN_TOKEN", raising=False)
