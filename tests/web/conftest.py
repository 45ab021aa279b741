"""Results-UI fixtures: SQLite stores (empty, or filled by really running projects), test
clients, and Debian's Chromium for the browser tests."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import sync_playwright

from tests.web._browser import ARGS, CHROMIUM
from tests.web._results import TOKEN, example_project, fill_example_store, fill_hostile_store
from tracegrade.store import open_store
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

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
def store(tmp_path: Path) -> Iterator[SqlStore]:
    """An empty SQLite store in the test's own folder."""
    opened = open_store(f"sqlite:///{tmp_path / 'results.db'}")
    try:
        yield opened
    finally:
        opened.close()


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
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


@pytest.fixture
def hostile_client(hostile: tuple[str, Project]) -> Iterator[TestClient]:
    """The app over the hostile store and project."""
    url, project = hostile
    store = open_store(url)
    with TestClient(
        create_app(store, project=project, admin_token=None), base_url="http://127.0.0.1"
    ) as test_client:
        yield test_client
    store.close()


@pytest.fixture
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """No admin token in the environment."""
    monkeypatch.delenv("TRACEGRADE_ADMIN_TOKEN", raising=False)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, through Playwright's sync API (one per test module).

    Without Chromium the test skips with the reason, except in CI (CI=true), where it fails.
    """
    if not CHROMIUM.is_file():
        reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests, but {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def tab(chromium: Browser) -> Iterator[Page]:
    """A fresh browser context (no cookies) and tab."""
    context = chromium.new_context()
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
