"""The proposal page and API show the shadow run; the touchpoint page shows rollbacks.

One store, filled by really running examples/proposals: three runs, a fix tried and
auto-applied then rolled back by the watch after a provider update, a rewording tried
(noise) and a shorter prompt tried (it breaks block cases). Read through FastAPI's
TestClient and, for the page a person decides on, in Chromium.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from tests.helpers.server import Server
from tests.proposals.example import PROMPT, TOUCHPOINT, copy_example, proposed, set_model
from tests.web._results import TOKEN
from tracegrade.evals import load_project, run_evals
from tracegrade.proposals import apply_proposal, approve_proposal, propose, try_proposal
from tracegrade.store import open_store
from tracegrade.web import create_app

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Page

    from tracegrade.evals import Project


class Filled:
    def __init__(self, url: str, project: Project, ids: dict[str, int]) -> None:
        self.url, self.project, self.ids = url, project, ids


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Filled:
    folder = copy_example(tmp_path_factory.mktemp("web-shadow") / "refunds")
    project = load_project(folder / "tracegrade.toml")
    url = f"sqlite:///{folder.parent / 'results.db'}"
    store = open_store(url)
    ids = {}
    try:
        for _ in range(3):
            run_evals(project, store)
        for name in ("fix.md", "reworded.md", "shorter.md"):
            made = propose(
                store, project, TOUCHPOINT, PROMPT, proposed(folder, name),
                rationale=f"try {name}", author="ana",
            )  # fmt: skip
            assert made.id is not None
            ids[name] = made.id
            try_proposal(store, project, made.id)
        approve_proposal(store, ids["fix.md"], by="ana")
        apply_proposal(store, project, ids["fix.md"], by="nightly", auto=True, watch_runs=2)
        set_model(folder, "v2")
        run_evals(project, store)  # drops to 0.5: the watch rolls the prompt back
    finally:
        store.close()
    return Filled(url, project, ids)


@pytest.fixture
def client(filled: Filled) -> Iterator[TestClient]:
    store = open_store(filled.url)
    app = create_app(store, project=filled.project, admin_token=TOKEN)
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client
    store.close()


def test_the_api_serves_a_proposal_with_its_comparison(client: TestClient, filled: Filled) -> None:
    found = client.get(f"/api/proposals/{filled.ids['fix.md']}").json()
    assert found["proposal"]["status"] == "applied"
    shadow = found["shadow"]
    assert (shadow["before"], shadow["after"], shadow["p_value"]) == (0.7, 1.0, 0.03125)
    assert shadow["low"] > 0.0
    assert [c["case"] for c in shadow["cases"] if c["flip"] == "fixed"][:2] == [
        "refund-currency-00", "refund-currency-01",
    ]  # fmt: skip
    assert shadow["cost_before"]["agent"]["calls"] == 0
    assert found["problem"] is None
    assert found["verdict"] == "better: a significant gain (McNemar p = 0.03125 < 0.05)"

    noise = client.get(f"/api/proposals/{filled.ids['reworded.md']}").json()
    assert noise["shadow"]["verdict"] == "noise"
    assert "not better than noise" in noise["problem"]
    assert client.get("/api/proposals/999").status_code == 404


def test_the_proposal_page_says_plainly_when_it_is_noise(
    client: TestClient, filled: Filled
) -> None:
    page = client.get(f"/proposals/{filled.ids['reworded.md']}").text
    assert "not better than noise (McNemar p = 1, not below 0.05)" in page
    assert "shadow run is not better than noise" in page
    harmful = client.get(f"/proposals/{filled.ids['shorter.md']}").text
    assert "breaks 10 case(s) of block touchpoint refund_answer" in harmful
    assert harmful.count('class="flip-broken"') == 10


def test_the_touchpoint_shows_the_rollback_and_who_did_it(
    client: TestClient, filled: Filled
) -> None:
    detail = client.get(f"/api/touchpoints/{TOUCHPOINT}").json()
    [watch] = detail["watches"]
    assert watch["status"] == "rolled_back"
    assert watch["rolled_back_by"].startswith("tracegrade auto-apply watch (run ")
    page = client.get(f"/touchpoints/{TOUCHPOINT}").text
    assert '<tr class="watch-rolled_back">' in page
    assert "rolled back" in page
    assert watch["rolled_back_by"] in page


@pytest.mark.browser
def test_a_person_reads_the_shadow_run_before_deciding(tab: Page, filled: Filled) -> None:
    store = open_store(filled.url)
    app = create_app(store, project=filled.project, admin_token=TOKEN)
    with Server(app) as server:
        tab.goto(f"{server.url}/touchpoints/{TOUCHPOINT}")
        assert "rolled back" in tab.inner_text("#watches-table")
        tab.click(f"#proposal-{filled.ids['reworded.md']} a")
        tab.wait_for_url(f"**/proposals/{filled.ids['reworded.md']}")
        assert "not better than noise" in tab.inner_text("#shadow-verdict")
        assert tab.inner_text("#shadow-p") == "p = 1"
        assert "bootstrap interval" in tab.inner_text("#shadow-interval")
        assert tab.is_visible("button.approve")  # deciding is still a person's act
    store.close()
