"""Allowed hosts (DNS rebinding), no caching of trace content, ids out of range are 404."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.helpers.server import Server
from tests.store.conftest import postgres_server, postgres_url, sqlite_url  # noqa: F401 - fixtures
from tests.web._otlp_bodies import JSON, TRACE, json_body, json_export, openinference_spans
from tests.web._results import TOKEN, add_proposal, example_project
from tracegrade.store import open_store
from tracegrade.web import create_app
from tracegrade.web._security import AllowedHosts, host_name

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.store import SqlStore

FOREIGN = "rebind.attacker.example"


def _requests(base: str, host: str) -> dict[str, httpx.Response]:
    """A page, an API answer and an OTLP post, each naming ``host`` in Host and Origin."""
    port = base.rsplit(":", 1)[1]
    headers = {"Host": f"{host}:{port}", "Origin": f"http://{host}:{port}"}
    body = json_body(json_export(openinference_spans()))
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        return {
            "page": client.get("/"),
            "api": client.get("/api/runs"),
            "otlp": client.post("/v1/traces", content=body, headers=JSON),
        }


def test_a_rebinding_request_is_refused_by_a_real_server(store: SqlStore) -> None:
    with Server(create_app(store)) as server:
        refused = _requests(server.url, FOREIGN)
        assert store.get_received_trace(TRACE) is None  # the refused post stored nothing
        answered = _requests(server.url, "127.0.0.1")
        by_name = _requests(server.url, "localhost")
    for response in refused.values():
        assert response.status_code == 400
        assert response.text.count("\n") == 1  # one line
        assert f"Host '{FOREIGN}:" in response.text
        assert "--allow-host" in response.text
    assert {name: r.status_code for name, r in answered.items()} == dict.fromkeys(answered, 200)
    assert {name: r.status_code for name, r in by_name.items()} == dict.fromkeys(by_name, 200)
    assert store.get_received_trace(TRACE) is not None


def test_an_allowed_host_is_answered_and_others_still_refused(store: SqlStore) -> None:
    app = create_app(store, allowed_hosts=["tracegrade.internal"])
    client = TestClient(app, base_url="http://tracegrade.internal:7600")
    assert client.get("/api/runs").status_code == 200
    assert client.get("/api/runs", headers={"Host": "[::1]:7600"}).status_code == 200
    assert client.get("/api/runs", headers={"Host": FOREIGN}).status_code == 400
    assert client.get("/static/app.css", headers={"Host": FOREIGN}).status_code == 400
    assert client.get("/", headers={"Host": ""}).status_code == 400


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ("127.0.0.1:7600", "127.0.0.1"),
        ("LocalHost", "localhost"),
        ("[::1]:7600", "[::1]"),
        ("::1", "[::1]"),
        ("box.lan", "box.lan"),
    ],
)
def test_host_names_drop_the_port_and_case(given: str, name: str) -> None:
    assert host_name(given) == name


@pytest.mark.parametrize("bad", ["", "a b", "user@box", "box/path"])
def test_a_bad_allowed_host_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a host name"):
        AllowedHosts.of([bad])


def test_pages_and_api_answers_are_never_cached(client: TestClient) -> None:
    for path in ["/", "/runs", "/api/runs", "/api/touchpoints", "/traces", "/api/traces"]:
        assert client.get(path).headers["cache-control"] == "no-store", path
    assert client.get("/nowhere").headers["cache-control"] == "no-store"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def filled_store(request: pytest.FixtureRequest) -> Iterator[SqlStore]:
    """A store of each SQL kind holding one proposal."""
    opened = open_store(request.getfixturevalue(f"{request.param}_url"))
    add_proposal(opened)
    yield opened
    opened.close()


@pytest.mark.parametrize("number", [10**30, 2**63, 2**31, 0, -1])
def test_ids_no_row_can_have_are_404(filled_store: SqlStore, number: int) -> None:
    app = create_app(filled_store, project=example_project(), admin_token=TOKEN)
    client = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get(f"/cases/{number}").status_code == 404
    assert client.get(f"/api/cases/{number}").status_code == 404
    assert client.post(f"/api/proposals/{number}/approve", headers=bearer).status_code == 404
    assert client.post(f"/api/proposals/{number}/approve").status_code == 403  # no token
    assert client.get(f"/api/cases/{2**31 - 1}").status_code == 404  # the largest: looked up
