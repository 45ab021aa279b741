"""A trace received over OTLP, in a real browser: shown, its claims selectable, nothing run.

The trace arrives through ``POST /v1/traces`` of a real uvicorn server on localhost (httpx,
as an exporter would send it); Debian's Chromium, driven by Playwright, opens the pages.
Without Chromium the tests skip with the reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

from tests.web import _results as results
from tests.web._browser import NOTHING_RAN, Server, Watched
from tests.web._otlp_bodies import JSON, TRACE, json_body, json_export, openinference_spans
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Page

    from tracegrade.store import SqlStore

pytestmark = pytest.mark.browser

HOSTILE = f"{results.HOSTILE} The window is 45 days."


@pytest.fixture
def server(store: SqlStore) -> Iterator[str]:
    """The app over an empty store, served on a free localhost port; yields its URL."""
    with Server(create_app(store)) as served:
        yield served.url


def test_a_hostile_received_trace_is_shown_as_text_and_runs_nothing(tab: Page, server: str) -> None:
    export = json_export(openinference_spans(answer=HOSTILE, result=f"{HOSTILE}\n45 days"))
    sent = httpx.post(f"{server}/v1/traces", content=json_body(export), headers=JSON)
    assert sent.status_code == 200
    assert sent.json() == {}
    watched = Watched(tab)
    tab.goto(f"{server}/")
    tab.click("header nav a:text-is('Received')")
    tab.wait_for_url(f"{server}/traces")
    tab.click(f"a.trace-link[href='/traces/{TRACE}']")
    tab.wait_for_url(f"**/traces/{TRACE}")
    tab.click("#claims a.claim:has-text('45 days')")

    assert tab.locator("section.evidence.shown").count() == 1  # the page's own script ran
    assert "read" in tab.inner_text("section.evidence.shown")
    assert watched.ran(server) == NOTHING_RAN
    assert results.SCRIPT in tab.inner_text("#answer")
    assert "onerror=" in tab.inner_text("#frame-2")
