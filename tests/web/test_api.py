"""The JSON API over a store filled by running the example project (FastAPI's TestClient)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fastapi.testclient import TestClient

from tests.web._results import example_project
from tracegrade.web import create_app

if TYPE_CHECKING:
    from tracegrade.store import SqlStore

EXAMPLE_TOUCHPOINTS = [
    "refund_window_grader",
    "spreadsheet_figures",
    "legal_assistant_gate",
    "legacy_evals",
]


def _case_id(client: TestClient, touchpoint: str, case: str) -> int:
    rows = client.get("/api/runs/example-run-2", params={"limit": 500}).json()["cases"]
    found: int = next(
        row["id"] for row in rows if row["touchpoint"] == touchpoint and row["case_id"] == case
    )
    return found


def test_touchpoints_lists_the_registry_with_its_last_result(client: TestClient):
    body = client.get("/api/touchpoints").json()

    assert [item["id"] for item in body] == [t.id for t in example_project().touchpoints]
    assert set(EXAMPLE_TOUCHPOINTS) <= {item["id"] for item in body}
    by_id = {item["id"]: item for item in body}
    grader = by_id["refund_window_grader"]
    assert (grader["kind"], grader["owner"], grader["severity"]) == (
        "agent_recipe",
        "examples",
        "block",
    )
    assert grader["last"]["run_id"] == "example-run-2"
    assert grader["last"]["metric"] == 1.0
    assert grader["last"]["baseline"] == 1.0
    assert grader["drift"] == []
    assert grader["version"]
    sheet = by_id["spreadsheet_figures"]
    assert sheet["last"]["status"] == "failed-min"
    assert sheet["unprocessed_signals"] >= 1
    gate = by_id["legal_assistant_gate"]
    assert gate["last"]["band_low"] is not None
    assert gate["cost_usd"] > 0
    assert gate["graduation"].startswith("not graduated")


def test_one_touchpoint_has_history_baseline_versions_and_proposals(client: TestClient):
    body = client.get("/api/touchpoints/refund_window_grader").json()

    assert [point["run_id"] for point in body["history"]] == ["example-run-2", "example-run-1"]
    assert body["baseline"]["run_id"] == "example-run-1"
    assert body["versions"][0]["hashes"].keys() == {"../suite.toml"}
    assert any(
        p["rationale"] == "Say which file is the one true source." for p in body["proposals"]
    )


def test_touchpoint_sub_resources(client: TestClient):
    signals = client.get("/api/touchpoints/spreadsheet_figures/signals").json()
    unprocessed = client.get(
        "/api/touchpoints/spreadsheet_figures/signals", params={"processed": False}
    ).json()
    patterns = client.get("/api/touchpoints/spreadsheet_figures/patterns").json()
    proposals = client.get("/api/touchpoints/refund_window_grader/proposals").json()
    versions = client.get("/api/touchpoints/legal_assistant_gate/versions").json()

    assert signals
    assert {signal["kind"] for signal in signals} == {"guard_block"}
    assert all(not signal["processed"] for signal in unprocessed)
    assert patterns[0]["count"] == len(unprocessed)
    assert patterns[0]["kind"] == "guard_block"
    assert proposals[0]["status"] in {"proposed", "approved", "rejected"}
    assert set(versions[0]["hashes"]) == {
        "../legal_assistant/graph.py",
        "../legal_assistant/cases.py",
    }


def test_unknown_touchpoints_are_404_everywhere(client: TestClient):
    for suffix in ("", "/signals", "/patterns", "/proposals", "/versions"):
        response = client.get(f"/api/touchpoints/nope{suffix}")
        assert response.status_code == 404, suffix
        assert response.json() == {"detail": "no touchpoint 'nope'"}


def test_runs_lists_newest_first_with_statuses(client: TestClient):
    body = client.get("/api/runs").json()

    assert [item["run"]["run_id"] for item in body] == ["example-run-2", "example-run-1"]
    assert body[0]["statuses"]["spreadsheet_figures"] == "failed-min"
    # A list item leaves the stored report out: /api/runs/{id} serves it.
    assert "summary" not in body[0]["run"]
    assert body[0]["exit_code"] == 0


def test_a_run_pages_its_cases_with_baseline_deltas(client: TestClient, example_store: SqlStore):
    stored = len(example_store.case_results("example-run-2"))
    first = client.get("/api/runs/example-run-2", params={"limit": 5}).json()
    rest = client.get("/api/runs/example-run-2", params={"limit": 50, "offset": 5}).json()
    failed = client.get(
        "/api/runs/example-run-2",
        params={"outcome": "failed", "touchpoint": "spreadsheet_figures"},
    ).json()

    assert first["total"] == rest["total"] == stored
    assert len(first["cases"]) == 5
    assert len(rest["cases"]) == min(stored - 5, 50)
    assert [case["case_id"] for case in failed["cases"]] == ["traces/sheet-invented.json#frame3"]
    only = failed["cases"][0]
    assert only["diagnosis"] == "create_spreadsheet: unsourced $2,750,000"
    assert (only["baseline_outcome"], only["changed"]) == ("failed", "same")
    touchpoints = {item["touchpoint"]: item for item in first["touchpoints"]}
    assert touchpoints["spreadsheet_figures"]["outcomes"] == {"failed": 1, "passed": 1}
    assert touchpoints["refund_window_grader"]["delta"] == 0.0
    assert "gpt-4o-mini" in {row["key"] for row in first["cost"]}


def test_a_run_page_refuses_bad_parameters(client: TestClient):
    assert client.get("/api/runs/example-run-2", params={"limit": 0}).status_code == 422
    assert client.get("/api/runs/example-run-2", params={"outcome": "maybe"}).status_code == 422
    assert client.get("/api/runs/no-such-run").status_code == 404


def test_a_grade_case_is_graded_again_with_claims_and_their_evidence(client: TestClient):
    case_id = _case_id(client, "refund_window_grader", "listing-guess.json")

    body = client.get(f"/api/cases/{case_id}").json()

    trace = body["trace"]
    claims = {claim["id"]: claim for claim in trace["claims"]}
    assert claims["file"]["support"] == "named-only"
    assert claims["file"]["evidence"][0]["kind"] == "path"
    assert claims["file"]["evidence"][0]["frame"] == 2
    assert claims["days"]["support"] == "unsupported"
    assert claims["days"]["evidence"] == []
    figures = trace["figures"]
    assert [(f["raw"], f["support"], f["frame"]) for f in figures] == [
        ("45 days", "unsupported", None)
    ]
    marked = [piece for piece in trace["pieces"] if piece["claim"] or piece["figure"] is not None]
    assert {piece["claim"] for piece in marked} >= {"file"}
    assert any(piece["unsourced"] for piece in marked)
    assert "".join(piece["text"] for piece in trace["pieces"]) == trace["answer"]
    assert trace["grade"]["provenance"] == "unevidenced"
    assert trace["frames"][0]["type"] == "user"


def test_a_read_claim_points_at_the_tool_result_frame(client: TestClient):
    case_id = _case_id(client, "refund_window_grader", "read-source.json")

    trace = client.get(f"/api/cases/{case_id}").json()["trace"]

    days = next(claim for claim in trace["claims"] if claim["id"] == "days")
    assert days["support"] == "read"
    frames = {item["frame"] for item in days["evidence"]}
    assert frames == {4}
    assert trace["frames"][4]["type"] == "tool_result"
    assert "45" in days["evidence"][0]["text"]


def test_a_grade_case_lists_the_answers_extracted_claims_beside_its_facts(client: TestClient):
    read = client.get(f"/api/cases/{_case_id(client, 'refund_window_grader', 'read-source.json')}")
    guess = client.get(
        f"/api/cases/{_case_id(client, 'refund_window_grader', 'listing-guess.json')}"
    )

    trace = read.json()["trace"]
    figures = [item for item in trace["extracted"] if item["kind"] == "figure"]
    assert [(f["raw"], f["support"], f["evidence_ids"], f["frames"]) for f in figures] == [
        ("45 days", "read", ["f4"], [4])
    ]
    at = trace["extracted"].index(figures[0])
    (piece,) = [piece for piece in trace["pieces"] if piece["extracted"] == at]
    assert (piece["text"], piece["figure"]) == ("45 days", 0)
    assert "shows the answer's figure 45 days" in [m["text"] for m in trace["frames"][4]["marks"]]
    counted = [item for item in trace["extracted"] if not item["given"]]
    read_share = sum(item["support"] == "read" for item in counted) / len(counted)
    assert trace["grounded_share"] == read_share
    assert "extracted" not in trace["grade"]  # shown with its evidence, not twice
    guessed = guess.json()["trace"]["extracted"]
    assert [(c["raw"], c["support"], c["frames"]) for c in guessed if c["kind"] == "figure"] == [
        ("45 days", "unsupported", [])
    ]


def test_a_guard_block_is_shown_at_its_frame(client: TestClient):
    case_id = _case_id(client, "spreadsheet_figures", "traces/sheet-invented.json#frame3")

    trace = client.get(f"/api/cases/{case_id}").json()["trace"]

    marks: dict[int, list[dict[str, Any]]] = {f["index"]: f["marks"] for f in trace["frames"]}
    assert marks[3] == [
        {"kind": "guard-block", "text": "guard blocked create_spreadsheet: unsourced $2,750,000"}
    ]


def test_a_gate_case_says_why_it_has_no_trace(client: TestClient):
    case_id = _case_id(client, "legal_assistant_gate", "acme-payment-cure")

    body = client.get(f"/api/cases/{case_id}").json()

    assert body["trace"] is None
    assert body["no_trace"] == "a gate suite records outcomes, not trace files"


def test_unknown_case_is_404(client: TestClient):
    assert client.get("/api/cases/987654").status_code == 404
    assert client.get("/api/cases/not-a-number").status_code == 422


def test_cost_rolls_up_by_touchpoint_model_day_and_role(client: TestClient):
    body = client.get("/api/cost").json()
    recent = client.get("/api/cost", params={"days": 7}).json()

    assert {row["key"] for row in body["by_role"]} == {"agent", "judge"}
    assert "gpt-4o-mini" in {row["key"] for row in body["by_model"]}
    unpriced = [row for row in body["by_model"] if row["cost_usd"] is None]
    assert unpriced  # the example's local judge has no price: unknown, never zero
    assert all(row["unpriced_calls"] == row["calls"] for row in unpriced)
    assert "legal_assistant_gate" in [row["key"] for row in body["by_touchpoint"]]
    assert len(body["by_day"]) >= 1
    assert recent["since"] is not None


def test_openapi_schema_lists_every_route(client: TestClient):
    paths = client.get("/openapi.json").json()["paths"]

    for path in (
        "/api/touchpoints",
        "/api/touchpoints/{touchpoint}",
        "/api/touchpoints/{touchpoint}/signals",
        "/api/touchpoints/{touchpoint}/patterns",
        "/api/touchpoints/{touchpoint}/proposals",
        "/api/touchpoints/{touchpoint}/versions",
        "/api/runs",
        "/api/runs/{run_id}",
        "/api/cases/{case_id}",
        "/api/cost",
        "/api/proposals/{proposal_id}/approve",
        "/api/proposals/{proposal_id}/reject",
    ):
        assert path in paths, path
    assert "/" not in paths  # pages are not API


def test_pages_render_the_same_data(client: TestClient, example_store: SqlStore):
    registry = client.get("/")
    touchpoint = client.get("/touchpoints/legal_assistant_gate")
    run = client.get("/runs/example-run-2", params={"outcome": "failed"})
    case = client.get(f"/cases/{_case_id(client, 'refund_window_grader', 'grep-only.json')}")
    cost = client.get("/cost")
    runs = client.get("/runs")

    for page in (registry, touchpoint, run, case, cost, runs):
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
    assert registry.text.count('class="tp"') == len(example_project().touchpoints)
    assert 'id="trend"' in touchpoint.text
    assert 'class="band"' in touchpoint.text  # two repeats: a variance band
    assert 'id="cost-trend"' in touchpoint.text
    assert "create_spreadsheet: unsourced $2,750,000" in run.text
    assert "figure-mark unsourced" in case.text  # grep-only's 45 days: not read
    assert 'class="claim-mark support-read"' in case.text
    assert 'id="extracted-stated"' in case.text
    assert "gpt-4o-mini" in cost.text
    assert len(example_store.list_runs()) == 2


def test_unknown_pages_are_404_pages(client: TestClient):
    for url in ("/touchpoints/nope", "/runs/nope", "/cases/424242", "/no/such/page"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "<h1>Not found</h1>" in response.text
        assert "Traceback" not in response.text


def test_without_a_project_the_touchpoints_of_stored_runs_are_listed(example_store: SqlStore):
    client = TestClient(create_app(example_store), base_url="http://127.0.0.1")

    listed = client.get("/api/touchpoints").json()
    case_id = _case_id(client, "refund_window_grader", "read-source.json")
    case = client.get(f"/api/cases/{case_id}").json()

    assert set(EXAMPLE_TOUCHPOINTS) <= {item["id"] for item in listed}
    assert all(not item["in_registry"] and item["drift"] is None for item in listed)
    assert listed[0]["severity"] == "block"  # from the run's report
    assert case["trace"] is None
    assert case["no_trace"] == "the served project's registry has no touchpoint of this name"
    assert client.get("/").status_code == 200


def test_every_page_links_to_the_received_traces(client: TestClient):
    case = f"/cases/{_case_id(client, 'refund_window_grader', 'grep-only.json')}"
    for url in ("/", "/runs", "/runs/example-run-2", case, "/cost", "/admin", "/traces"):
        nav = re.search(r"<nav>(.*?)</nav>", client.get(url).text, re.DOTALL)
        assert nav is not None, url
        assert re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav.group(1)) == [
            ("/", "Registry"),
            ("/runs", "Runs"),
            ("/traces", "Received"),
            ("/cost", "Cost"),
        ], url
    assert client.get("/traces").status_code == 200
