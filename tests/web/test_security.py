"""Who may change things (admin token, CSRF, origin), headers, escaping and error pages."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from tests.web._results import TOKEN, add_proposal, example_project
from tracegrade.web import CONTENT_SECURITY_POLICY, create_app

if TYPE_CHECKING:
    from tracegrade.store import SqlStore

ORIGIN = {"Origin": "http://127.0.0.1"}


def _csrf(client: TestClient, url: str = "/admin") -> str:
    page = client.get(url).text
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match is not None, "the page holds no CSRF token"
    return match.group(1)


def _sign_in(client: TestClient, token: str = TOKEN) -> int:
    csrf = _csrf(client)
    response = client.post(
        "/admin", data={"token": token, "csrf": csrf, "next": "/"}, headers=ORIGIN,
        follow_redirects=False,
    )  # fmt: skip
    return response.status_code


# -- the API: bearer token ----------------------------------------------------------------


def test_api_changes_are_refused_when_no_token_is_configured(
    example_store: SqlStore, no_token: None
):
    proposal = add_proposal(example_store)
    client = TestClient(
        create_app(example_store, project=example_project()), base_url="http://127.0.0.1"
    )

    response = client.post(
        f"/api/proposals/{proposal}/approve", headers={"Authorization": "Bearer anything"}
    )

    assert response.status_code == 403
    assert "TRACEGRADE_ADMIN_TOKEN" in response.json()["detail"]
    assert example_store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]


def test_the_token_comes_from_the_environment(
    example_store: SqlStore, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("TRACEGRADE_ADMIN_TOKEN", "from-env")
    proposal = add_proposal(example_store)
    client = TestClient(create_app(example_store), base_url="http://127.0.0.1")

    response = client.post(
        f"/api/proposals/{proposal}/reject", headers={"Authorization": "Bearer from-env"}
    )

    assert response.status_code == 200
    assert response.json()["status"] == "rejected"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}],
    ids=["none", "wrong", "not-bearer"],
)
def test_api_changes_need_the_bearer_token(
    client: TestClient, example_store: SqlStore, headers: dict[str, str]
):
    proposal = add_proposal(example_store)

    response = client.post(f"/api/proposals/{proposal}/approve", headers=headers)

    assert response.status_code == 403
    assert "Authorization: Bearer" in response.json()["detail"]
    assert example_store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]


def test_api_approve_with_the_token_goes_through_the_proposals_rules(
    client: TestClient, example_store: SqlStore
):
    proposal = add_proposal(example_store)
    bearer = {"Authorization": f"Bearer {TOKEN}"}

    approved = client.post(f"/api/proposals/{proposal}/approve", headers=bearer)
    again = client.post(f"/api/proposals/{proposal}/reject", headers=bearer)
    missing = client.post("/api/proposals/999999/approve", headers=bearer)

    assert approved.status_code == 200
    assert (approved.json()["status"], approved.json()["decided_by"]) == ("approved", "web")
    assert again.status_code == 409  # approved is final for a reject
    assert missing.status_code == 404


def test_the_api_never_accepts_the_admin_cookie(client: TestClient, example_store: SqlStore):
    assert _sign_in(client) == 303
    proposal = add_proposal(example_store)

    response = client.post(f"/api/proposals/{proposal}/approve")

    assert response.status_code == 403


# -- the pages: admin cookie, CSRF token, origin ------------------------------------------


def test_signing_in_sets_an_httponly_strict_cookie(client: TestClient):
    csrf = _csrf(client)
    response = client.post(
        "/admin", data={"token": TOKEN, "csrf": csrf, "next": "/runs"}, headers=ORIGIN,
        follow_redirects=False,
    )  # fmt: skip

    assert response.status_code == 303
    assert response.headers["location"] == "/runs"
    cookie = next(
        value
        for name, value in response.headers.multi_items()
        if name == "set-cookie" and value.startswith("tracegrade_admin=")
    )
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    assert TOKEN not in cookie


def test_a_wrong_token_is_refused(client: TestClient):
    assert _sign_in(client, "not-it") == 403
    assert (
        'id="wrong-token"'
        in client.post("/admin", data={"token": "x", "csrf": _csrf(client)}, headers=ORIGIN).text
    )


def test_sign_in_never_redirects_off_site(client: TestClient):
    csrf = _csrf(client)
    response = client.post(
        "/admin", data={"token": TOKEN, "csrf": csrf, "next": "//evil.invalid/"}, headers=ORIGIN,
        follow_redirects=False,
    )  # fmt: skip

    assert response.headers["location"] == "/"


def test_the_approve_form_works_after_signing_in(client: TestClient, example_store: SqlStore):
    proposal = add_proposal(example_store)
    assert _sign_in(client) == 303
    csrf = _csrf(client, "/touchpoints/refund_window_grader")

    response = client.post(
        f"/proposals/{proposal}/approve", data={"csrf": csrf}, headers=ORIGIN,
        follow_redirects=False,
    )  # fmt: skip

    assert response.status_code == 303
    assert response.headers["location"] == "/touchpoints/refund_window_grader#proposals"
    assert example_store.get_proposal(proposal).status == "approved"  # type: ignore[union-attr]


def test_the_approve_form_needs_the_admin_cookie(client: TestClient, example_store: SqlStore):
    proposal = add_proposal(example_store)
    csrf = _csrf(client, "/touchpoints/refund_window_grader")

    response = client.post(f"/proposals/{proposal}/approve", data={"csrf": csrf}, headers=ORIGIN)

    assert response.status_code == 403
    assert "admin token" in response.text
    assert example_store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("csrf", "headers", "reason"),
    [
        ("", ORIGIN, "CSRF token"),
        ("forged", ORIGIN, "CSRF token"),
        (None, {"Origin": "http://evil.invalid"}, "another site"),
        (None, {"Referer": "http://evil.invalid/page"}, "names no origin"),
        (None, {}, "names no origin"),
    ],
    ids=["no-token", "forged-token", "cross-origin", "cross-referer", "no-origin"],
)
def test_cross_site_form_posts_are_refused(
    client: TestClient,
    example_store: SqlStore,
    csrf: str | None,
    headers: dict[str, str],
    reason: str,
):
    assert _sign_in(client) == 303
    proposal = add_proposal(example_store)
    token = _csrf(client, "/") if csrf is None else csrf

    response = client.post(f"/proposals/{proposal}/reject", data={"csrf": token}, headers=headers)

    assert response.status_code == 403
    assert reason in response.text
    assert example_store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]


def test_a_csrf_token_of_another_session_is_refused(client: TestClient, example_store: SqlStore):
    other = TestClient(client.app, base_url="http://127.0.0.1")
    foreign = _csrf(other)
    assert _sign_in(client) == 303
    proposal = add_proposal(example_store)

    response = client.post(f"/proposals/{proposal}/reject", data={"csrf": foreign}, headers=ORIGIN)

    assert response.status_code == 403


def test_forms_are_refused_without_a_configured_token(example_store: SqlStore, no_token: None):
    client = TestClient(
        create_app(example_store, project=example_project()), base_url="http://127.0.0.1"
    )
    proposal = add_proposal(example_store)

    signed_in = client.post("/admin", data={"token": "x", "csrf": "x"}, headers=ORIGIN)
    decided = client.post(f"/proposals/{proposal}/approve", data={"csrf": "x"}, headers=ORIGIN)

    assert signed_in.status_code == decided.status_code == 403
    assert "TRACEGRADE_ADMIN_TOKEN" in signed_in.text
    assert "TRACEGRADE_ADMIN_TOKEN" in decided.text
    assert example_store.get_proposal(proposal).status == "proposed"  # type: ignore[union-attr]
    assert "Approve</button>" not in client.get("/touchpoints/refund_window_grader").text


# -- headers, escaping, errors --------------------------------------------------------------


def test_every_answer_carries_the_content_security_policy(client: TestClient):
    for url in ("/", "/api/touchpoints", "/static/app.js", "/cases/999999"):
        headers = client.get(url).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_pages_hold_no_inline_script_or_style(client: TestClient):
    for url in ("/", "/runs", "/runs/example-run-2", "/touchpoints/legal_assistant_gate", "/cost"):
        page = client.get(url).text
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == [], url
        assert " style=" not in page, url
        assert "<style" not in page, url


def test_a_hostile_trace_renders_as_text(hostile_client: TestClient):
    run = hostile_client.get("/api/runs/hostile-run").json()
    case_id = run["cases"][0]["id"]

    page = hostile_client.get(f"/cases/{case_id}").text
    registry = hostile_client.get("/").text

    assert "&lt;script&gt;window.__pwned = 1" in page
    assert "onerror=&#34;alert" in page or "onerror=&quot;alert" in page
    assert "&lt;a href=&#34;javascript:" in page or "&lt;a href=&quot;javascript:" in page
    for text in (page, registry):
        assert "<script>" not in text
        assert "<img" not in text
        assert 'href="javascript:' not in text
        assert "<b>owner</b>" not in text
    assert "&lt;script&gt;alert(&#39;description&#39;)" in registry


def test_a_hostile_claim_is_still_highlighted_as_text(hostile_client: TestClient):
    case_id = hostile_client.get("/api/runs/hostile-run").json()["cases"][0]["id"]

    trace = hostile_client.get(f"/api/cases/{case_id}").json()["trace"]

    script = next(claim for claim in trace["claims"] if claim["id"] == "script")
    assert script["support"] == "read"
    assert any(piece["claim"] == "script" for piece in trace["pieces"])
    assert any(f["raw"] == "$1,234,567" and f["support"] == "unsupported" for f in trace["figures"])


class _Broken:
    """A store whose every read fails, as a database that went away would."""

    def __getattr__(self, name: str) -> object:
        def fail(*args: object, **kwargs: object) -> object:
            msg = f"secret detail from {name}"
            raise RuntimeError(msg)

        return fail


def test_errors_never_show_a_traceback():
    client = TestClient(
        create_app(_Broken(), admin_token=TOKEN),  # type: ignore[arg-type]
        raise_server_exceptions=False,
        base_url="http://127.0.0.1",
    )

    page = client.get("/")
    api = client.get("/api/runs")

    assert page.status_code == api.status_code == 500
    for text in (page.text, api.text):
        assert "Traceback" not in text
        assert "secret detail" not in text
    assert api.json() == {"detail": "the server could not answer this request; its log says why"}
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
