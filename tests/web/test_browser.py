"""The results UI in a real browser: Playwright driving Debian's Chromium (headless).

A real uvicorn server runs in a thread on a free localhost port, over SQLite stores filled
by actually running the example project (plus a proposal) and a hostile-trace project.
Without Chromium the tests skip with the reason, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.server import Server
from tests.web._browser import NOTHING_RAN, Watched
from tests.web._results import TOKEN, add_proposal, example_project
from tracegrade.store import open_store
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Page

    from tracegrade.evals import Project

pytestmark = pytest.mark.browser


@pytest.fixture
def example_server(example_url: str) -> Iterator[Server]:
    """The app over the example store, with an admin token."""
    store = open_store(example_url)
    app = create_app(store, project=example_project(), admin_token=TOKEN)
    with Server(app) as server:
        yield server
    store.close()


def test_registry_to_touchpoint_to_run_to_case_and_a_claims_evidence(
    tab: Page, example_server: Server
):
    tab.goto(example_server.url + "/")
    assert tab.title() == "Registry · tracegrade"
    tab.click("#registry a.tp:text-is('refund_window_grader')")

    tab.wait_for_url("**/touchpoints/refund_window_grader")
    assert tab.locator("#trend circle").count() == 2
    tab.click("#history a:text-is('example-run-2')")

    tab.wait_for_url("**/runs/example-run-2*")
    tab.click("#cases a.case-link:text-is('listing-guess.json')")

    tab.wait_for_url("**/cases/*")
    evidence = tab.locator("section.evidence").first
    assert not evidence.is_visible()
    tab.click("#claims a.claim:has-text('billing/config.py')")
    assert evidence.is_visible()
    assert "named-only" in evidence.inner_text()
    assert "frame 2" in evidence.inner_text()
    assert "highlight" in (tab.get_attribute("#frame-2", "class") or "")
    assert tab.locator("#answer a.figure-mark.unsourced").count() >= 1


def test_the_frames_can_be_stepped_through(tab: Page, example_server: Server):
    tab.goto(example_server.url + "/runs/example-run-2?touchpoint=refund_window_grader")
    tab.click("#cases a.case-link:text-is('read-source.json')")
    tab.wait_for_url("**/cases/*")

    tab.click("#next-frame")
    tab.click("#next-frame")

    assert "current" in (tab.get_attribute("#frame-1", "class") or "")
    assert tab.inner_text("#frame-position") == "frame 1 of 5"


def test_approving_is_refused_without_the_token_and_works_with_it(
    tab: Page, example_server: Server, example_url: str
):
    store = open_store(example_url)
    proposal = add_proposal(store)
    card = f"#proposal-{proposal}"
    tab.goto(example_server.url + "/touchpoints/refund_window_grader")

    tab.click(f"{card} button.approve")
    assert "needs the admin token" in tab.inner_text("#error-message")
    assert store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]

    tab.goto(example_server.url + "/admin?next=/touchpoints/refund_window_grader")
    tab.fill("#token", TOKEN)
    tab.click("#token-submit")
    tab.wait_for_url("**/touchpoints/refund_window_grader")
    tab.click(f"{card} button.approve")

    tab.wait_for_url("**/touchpoints/refund_window_grader*")
    assert tab.inner_text(f"{card} .proposal-status") == "approved"
    assert store.get_proposal(proposal).status == "approved"  # type: ignore[union-attr]
    store.close()


def test_a_hostile_trace_executes_nothing(tab: Page, hostile: tuple[str, Project]):
    url, project = hostile
    store = open_store(url)
    watched = Watched(tab)
    with Server(create_app(store, project=project)) as server:
        case = store.case_result_page("hostile-run").rows[0].id
        tab.goto(f"{server.url}/cases/{case}")
        tab.click("#claims a.claim:has-text('<script>')")
        tab.goto(server.url + "/")
        tab.go_back()
        tab.wait_for_load_state("load")

        assert watched.ran(server.url) == NOTHING_RAN
        assert tab.locator("script").count() == 1  # only /static/app.js
        assert "<script>window.__pwned = 1" in tab.inner_text("#answer")
        assert "onerror=" in tab.inner_text("#frame-2")
        assert tab.locator("section.evidence.shown").count() == 1  # the script still ran
    store.close()


def test_a_case_pages_answer_marks_its_extracted_claims_each_linked_to_its_frame(
    tab: Page, example_server: Server
):
    tab.goto(example_server.url + "/runs/example-run-2?touchpoint=refund_window_grader")
    tab.click("#cases a.case-link:text-is('read-source.json')")
    tab.wait_for_url("**/cases/*")

    assert "FIGURE" in tab.inner_text("#extracted-stated")  # its kind, in small capitals
    tab.click("#extracted-stated a.claim:has-text('45 days')")

    shown = tab.locator("section.evidence.shown")
    assert shown.count() == 1
    assert "read at frame 4" in shown.inner_text()
    assert "highlight" in (tab.get_attribute("#frame-4", "class") or "")
    assert "shows the answer's figure 45 days" in tab.inner_text("#frame-4")
    assert tab.locator("#claims a.claim").count() >= 1  # the expected facts stay beside them

    tab.goto(example_server.url + "/runs/example-run-2?touchpoint=refund_window_grader")
    tab.click("#cases a.case-link:text-is('listing-guess.json')")
    tab.wait_for_url("**/cases/*")
    # "It is most likely billing/config.py, and the usual window is 45 days.": a guess.
    tab.click("#extracted-hedged a.claim:has-text('45 days')")
    assert "No tool showed it." in tab.inner_text("section.evidence.shown")
