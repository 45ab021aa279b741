"""A trace received over OTLP, in a real browser: shown, its claims selectable, nothing run.

The trace arrives through ``POST /v1/traces`` of a real uvicorn server on localhost (httpx,
as an exporter would send it); Debian's Chromium, driven by Playwright, opens the pages.
Without Chromium the tests skip with the reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

from tests.helpers.server import Server
from tests.web import _claims as claims
from tests.web import _results as results
from tests.web._browser import NOTHING_RAN, Watched
from tests.web._otlp_bodies import JSON, TRACE, json_body, json_export, openinference_spans
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Page

    from tracegrade.store import ReceivedTraceRecord, SqlStore

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
    tab.click("#extracted-stated a.claim:has-text('45 days')")

    assert tab.locator("section.evidence.shown").count() == 1  # the page's own script ran
    assert "read at frame 2" in tab.inner_text("section.evidence.shown")
    assert "highlight" in (tab.get_attribute("#frame-2", "class") or "")
    assert watched.ran(server) == NOTHING_RAN
    assert results.SCRIPT in tab.inner_text("#answer")
    assert "onerror=" in tab.inner_text("#frame-2")


def test_a_received_runs_claims_are_marked_grouped_and_linked_to_their_frames(
    tab: Page, server: str, store: SqlStore
) -> None:
    sent = httpx.post(
        f"{server}/v1/traces", content=json_body(json_export(claims.spans())), headers=JSON
    )
    assert sent.status_code == 200
    _, grade = claims.graded_run()  # its real grade, with a claim of each kind written in

    def with_claims(stored: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
        assert stored is not None
        return stored.model_copy(update={"grade": grade.model_dump(mode="json")})

    store.merge_received_trace(TRACE, with_claims)
    watched = Watched(tab)
    tab.goto(f"{server}/traces/{TRACE}")

    marks = tab.locator("#answer a.extracted-mark")
    assert marks.all_inner_texts() == [claim.raw for claim in claims.CLAIMS]
    assert tab.inner_text("#answer a.extracted-mark.support-named-only") == "billing/config.py"
    assert tab.inner_text("#answer a.extracted-mark.hedged") == "Ada Lovelace"
    assert tab.inner_text("#answer a.extracted-mark.given") == claims.QUESTION_DATE
    assert tab.locator("#extracted-stated a.claim").count() == 4
    assert "Ada Lovelace" in tab.inner_text("#extracted-hedged")
    assert claims.QUESTION_DATE in tab.inner_text("#extracted-given")
    summary = tab.inner_text("#extracted-summary")
    assert summary.startswith("6 claims: 2 read, 1 named-only, 3 unsupported · grounded share 40%")

    tab.click("#answer a.extracted-mark:text-is('billing/config.py')")
    shown = tab.locator("section.evidence.shown")
    assert shown.count() == 1
    assert "named-only" in shown.inner_text()
    assert "highlight" in (tab.get_attribute("#frame-2", "class") or "")
    tab.click("#answer a.extracted-mark:text-is('https://example.com/refunds')")
    assert "See https://example.com/refunds" in shown.inner_text()  # the line read
    tab.click("#extracted-stated a.claim:has-text('onmouseover')")
    assert "No tool showed it." in shown.inner_text()
    assert tab.locator(".frame.highlight").count() == 0
    tab.hover("#answer a.extracted-mark:has-text('onmouseover')")

    assert claims.MARKUP in tab.inner_text("#answer")
    assert tab.locator("main b").count() == 0
    assert watched.ran(server) == NOTHING_RAN
