"""A trace received over OTLP, in a real browser: shown, its claims selectable, nothing run.

The trace arrives through ``POST /v1/traces`` of a real uvicorn server on localhost (httpx,
as an exporter would send it); Debian's Chromium, driven by Playwright, opens the pages.
Without Chromium the tests skip with the reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from tests.web._otlp_bodies import JSON, TRACE, json_body, json_export, openinference_spans
from tracegrade.store import open_store
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser, Dialog, Page

    from tracegrade.store import SqlStore

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("TRACEGRADE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
SCRIPT = "<script>window.__pwned = 1; alert('script')</script>"
HOSTILE = (
    f'{SCRIPT} <img src="http://evil.invalid/x.png" onerror="alert(\'onerror\')">'
    " <a href=\"javascript:alert('link')\">click me</a> The window is 45 days."
)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
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
def store(tmp_path: Path) -> Iterator[SqlStore]:
    opened = open_store(f"sqlite:///{tmp_path / 'results.db'}")
    yield opened
    opened.close()


@pytest.fixture
def server(store: SqlStore) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free localhost port; yields its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning")
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(timeout=30)


@pytest.fixture
def tab(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context()
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


def test_a_hostile_received_trace_is_shown_as_text_and_runs_nothing(tab: Page, server: str) -> None:
    export = json_export(openinference_spans(answer=HOSTILE, result=f"{HOSTILE}\n45 days"))
    sent = httpx.post(f"{server}/v1/traces", content=json_body(export), headers=JSON)
    assert sent.status_code == 200
    assert sent.json() == {}
    dialogs: list[str] = []
    requests: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    tab.on("request", lambda request: requests.append(request.url))
    tab.goto(f"{server}/traces")
    tab.click(f"a.trace-link[href='/traces/{TRACE}']")
    tab.wait_for_url(f"**/traces/{TRACE}")
    tab.click("#claims a.claim:has-text('45 days')")

    assert tab.locator("section.evidence.shown").count() == 1  # the page's own script ran
    assert "read" in tab.inner_text("section.evidence.shown")
    assert dialogs == []
    assert [seen for seen in requests if not seen.startswith(server + "/")] == []
    assert tab.evaluate("window.__pwned") is None
    assert tab.locator("main img").count() == 0
    assert tab.locator("main script").count() == 0
    assert tab.locator("a[href^='javascript:']").count() == 0
    assert SCRIPT in tab.inner_text("#answer")
    assert "onerror=" in tab.inner_text("#frame-2")
