"""``tracegrade serve``: binds 127.0.0.1 by default, prints the URL, serves the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from tests.cli.runner import run_cli

if TYPE_CHECKING:
    from pathlib import Path

REPO_EXAMPLE = "examples/project"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Record what uvicorn was asked to serve instead of serving it."""
    calls: dict[str, Any] = {}

    def fake_run(app: object, **options: object) -> None:
        calls["app"] = app
        calls.update(options)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.delenv("TRACEGRADE_ADMIN_TOKEN", raising=False)
    return calls


def test_serve_binds_loopback_and_prints_the_url(
    capsys: pytest.CaptureFixture[str], served: dict[str, Any], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"

    result = run_cli(capsys, "serve", "--project", REPO_EXAMPLE, "--store", store)

    assert result.code == 0
    assert (served["host"], served["port"]) == ("127.0.0.1", 7600)
    assert "at http://127.0.0.1:7600/" in result.out
    assert "read-only" in result.out
    assert result.err == ""
    client = TestClient(served["app"], base_url="http://127.0.0.1")
    ids = [item["id"] for item in client.get("/api/touchpoints").json()]
    assert "refund_window_grader" in ids


def test_serve_warns_when_bound_beyond_this_machine(
    capsys: pytest.CaptureFixture[str], served: dict[str, Any], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"

    result = run_cli(capsys, "serve", "--host", "0.0.0.0", "--port", "8123", "--store", store)  # noqa: S104

    assert result.code == 0
    assert (served["host"], served["port"]) == ("0.0.0.0", 8123)  # noqa: S104
    assert "reachable from other machines" in result.err


def test_serve_refuses_a_bad_store_url(capsys: pytest.CaptureFixture[str], served: dict[str, Any]):
    result = run_cli(capsys, "serve", "--store", "mysql://nope")

    assert result.code == 2
    assert "app" not in served


def test_the_admin_token_comes_from_a_file_never_from_the_project_file_itself(
    capsys: pytest.CaptureFixture[str], served: dict[str, Any], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"
    secret = tmp_path / "admin-token"
    secret.write_text("s3cret-token\n", encoding="utf-8")

    result = run_cli(
        capsys, "serve", "--project", REPO_EXAMPLE, "--store", store,
        "--admin-token-file", str(secret),
    )  # fmt: skip

    assert result.code == 0, result.err
    assert "read-only" not in result.out
    assert served["app"].state.security.token == "s3cret-token"  # noqa: S105 - a test token


def test_the_projects_web_table_names_the_token_file(
    capsys: pytest.CaptureFixture[str], served: dict[str, Any], tmp_path: Path
):
    (tmp_path / "token.txt").write_text("from-project", encoding="utf-8")
    (tmp_path / "tracegrade.toml").write_text(
        '[store]\nurl = "sqlite:///r.db"\n[web]\nadmin_token_file = "token.txt"\n',
        encoding="utf-8",
    )

    result = run_cli(capsys, "serve", "--project", str(tmp_path))

    assert result.code == 0, result.err
    assert served["app"].state.security.token == "from-project"  # noqa: S105 - a test token


def test_an_empty_or_missing_token_file_is_bad_input_not_a_read_only_server(
    capsys: pytest.CaptureFixture[str], served: dict[str, Any], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"
    empty = tmp_path / "empty"
    empty.write_text("  \n", encoding="utf-8")

    for path, words in ((empty, "is empty"), (tmp_path / "missing", "cannot read")):
        result = run_cli(capsys, "serve", "--store", store, "--admin-token-file", str(path))
        assert result.code == 2
        assert str(path) in result.err
        assert words in result.err
    assert "app" not in served
