"""POST /v1/traces over a real SQLite store: OTLP JSON and protobuf, gzip, errors, merging."""

from __future__ import annotations

import gzip
from typing import TYPE_CHECKING, Any

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.helpers.server import Server
from tests.web._otlp_bodies import (
    ANSWER,
    GENAI_TRACE,
    JSON,
    PROTOBUF,
    QUESTION,
    TRACE,
    genai_request,
    json_body,
    json_export,
    json_span,
    local_client,
    needs_scanner,
    openinference_spans,
)
from tracegrade.evals import load_project
from tracegrade.traces import Trace
from tracegrade.web import _otlp, create_app
from tracegrade.web._intake import spans_of

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.store import ReceivedTraceRecord, SqlStore


FRAME_TYPES = ["user", "tool_call", "tool_result", "assistant"]
"""What ``openinference_spans()`` reads as: the question, a call and its result, the answer."""


@pytest.fixture
def client(store: SqlStore) -> TestClient:
    return local_client(store)


def post_json(client: TestClient, export: dict[str, Any], **headers: str) -> Any:
    return client.post("/v1/traces", content=json_body(export), headers={**JSON, **headers})


def grade_of(store: SqlStore, trace_id: str = TRACE) -> dict[str, Any]:
    record = store.get_received_trace(trace_id)
    assert record is not None
    assert record.grade is not None
    return record.grade


def supports(grade: dict[str, Any], kind: str = "figure") -> dict[str, str]:
    """The support of each extracted claim of one kind, by its text as written."""
    return {claim["raw"]: claim["support"] for claim in grade["extracted"] if claim["kind"] == kind}


def test_an_openinference_json_export_is_stored_read_and_graded(
    client: TestClient, store: SqlStore
) -> None:
    export = json_export(openinference_spans(), {"tracegrade.touchpoint": "refunds"})
    response = post_json(client, export)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {}  # no partialSuccess: every span was read
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.touchpoint == "refunds"
    assert record.source_format == "openinference"
    trace = Trace.model_validate(record.trace)
    assert trace.task == QUESTION
    assert trace.final_answer == ANSWER
    assert [frame.type for frame in trace.frames] == FRAME_TYPES
    grade = grade_of(store)
    assert grade["question_id"] == "-"  # asked nothing we know of
    assert grade["answer"] == "ungraded"  # no expected facts: nothing to compare with
    assert grade["claims"] == []
    assert supports(grade) == {"45 days": "read", "$500": "unsupported"}
    assert [figure["raw"] for figure in grade["figures"] if figure["support"] == "unsupported"] == [
        "$500"
    ]


def test_a_protobuf_export_is_answered_in_protobuf(client: TestClient, store: SqlStore) -> None:
    response = client.post("/v1/traces", content=genai_request(), headers=PROTOBUF)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-protobuf"
    answer = ExportTraceServiceResponse()
    answer.ParseFromString(response.content)
    assert not answer.HasField("partial_success")
    record = store.get_received_trace(GENAI_TRACE.hex())  # bytes ids stored as hex
    assert record is not None
    assert record.source_format == "otel-genai"
    trace = Trace.model_validate(record.trace)
    assert trace.tool_path == ("get_weather",)
    assert trace.model == "gpt-4o"
    grade = grade_of(store, GENAI_TRACE.hex())
    assert supports(grade) == {"1,200": "unsupported"}
    assert [f["raw"] for f in grade["figures"]] == ["1,200"]


@pytest.mark.parametrize("encoding", ["json", "protobuf"])
def test_a_gzip_body_is_read(client: TestClient, store: SqlStore, encoding: str) -> None:
    body = json_body(json_export(openinference_spans())) if encoding == "json" else genai_request()
    headers = {**(JSON if encoding == "json" else PROTOBUF), "content-encoding": "gzip"}
    response = client.post("/v1/traces", content=gzip.compress(body), headers=headers)
    assert response.status_code == 200
    assert len(store.received_traces()) == 1


def test_a_body_that_is_not_gzip_under_gzip_is_refused(client: TestClient, store: SqlStore) -> None:
    headers = {**JSON, "content-encoding": "gzip"}
    response = client.post("/v1/traces", content=b'{"resourceSpans": []}', headers=headers)
    assert response.status_code == 400
    assert response.json()["code"] == 3
    assert "gzip" in response.json()["message"]
    assert store.received_traces() == []


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b"this is not json", "not valid JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"spans": []}', "unknown field 'spans'"),
        (b'{"resourceSpans": {"a": 1}}', "'resourceSpans' must be a list"),
        (b'{"resourceSpans": [{"scopeSpans": [{"spans": 3}]}]}', "must have a 'spans' list"),
    ],
)
def test_a_json_body_that_is_not_otlp_is_400_with_a_message(
    client: TestClient, store: SqlStore, body: bytes, said: str
) -> None:
    response = client.post("/v1/traces", content=body, headers=JSON)
    assert response.status_code == 400
    status = response.json()
    assert status["code"] == 3  # google.rpc.Code INVALID_ARGUMENT
    assert "not an OTLP trace export" in status["message"]
    assert said in status["message"]
    assert store.received_traces() == []


def test_a_protobuf_body_that_is_not_otlp_is_400_in_protobuf(client: TestClient) -> None:
    response = client.post("/v1/traces", content=b"not otlp at all", headers=PROTOBUF)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/x-protobuf"
    assert response.content.startswith(b"\x08\x03\x12")  # Status{code: 3, message: ...}
    assert b"ExportTraceServiceRequest" in response.content


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml", None]
)
def test_an_unsupported_content_type_is_415(
    client: TestClient, store: SqlStore, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    body = json_body(json_export(openinference_spans()))
    response = client.post("/v1/traces", content=body, headers=headers)
    assert response.status_code == 415
    assert "application/x-protobuf" in response.json()["message"]
    assert store.received_traces() == []


def test_an_unsupported_content_encoding_is_415(client: TestClient, store: SqlStore) -> None:
    body = json_body(json_export(openinference_spans()))
    response = client.post("/v1/traces", content=body, headers={**JSON, "content-encoding": "br"})
    assert response.status_code == 415
    assert "Content-Encoding 'br'" in response.json()["message"]
    assert store.received_traces() == []
    identity = {**JSON, "content-encoding": "identity"}
    assert client.post("/v1/traces", content=body, headers=identity).status_code == 200


def test_a_json_content_type_with_parameters_is_accepted(client: TestClient) -> None:
    export = json_export(openinference_spans())
    response = post_json(client, export, **{"content-type": "application/json; charset=utf-8"})
    assert response.status_code == 200


def test_spans_that_cannot_be_read_are_a_partial_success(
    client: TestClient, store: SqlStore
) -> None:
    spans = [
        *openinference_spans(),
        json_span("c000000000000001", "bad", {}, trace_id="not-hex"),
        json_span("c000000000000002", "zero", {}, trace_id="0" * 32),
        {**json_span("c000000000000003", "attrs", {}), "attributes": {"a": 1}},
    ]
    response = post_json(client, json_export(spans))
    assert response.status_code == 200
    partial = response.json()["partialSuccess"]
    assert partial["rejectedSpans"] == "3"  # int64 is a string in proto3 JSON
    assert "'traceId' must be 32 hex digits, got 'not-hex'" in partial["errorMessage"]
    assert "all zeros" in partial["errorMessage"]
    assert "'attributes' must be a list" in partial["errorMessage"]
    assert [record.trace_id for record in store.received_traces()] == [TRACE]


def test_a_partial_success_is_answered_in_protobuf_too(client: TestClient, store: SqlStore) -> None:
    request = ExportTraceServiceRequest()
    request.ParseFromString(genai_request())
    spans = request.resource_spans[0].scope_spans[0].spans
    spans[0].trace_id = b"\x01\x02\x03"  # 3 bytes: not a trace id
    response = client.post("/v1/traces", content=request.SerializeToString(), headers=PROTOBUF)
    assert response.status_code == 200
    answer = ExportTraceServiceResponse()
    answer.ParseFromString(response.content)
    assert answer.partial_success.rejected_spans == 1
    assert "got '010203'" in answer.partial_success.error_message
    assert [record.trace_id for record in store.received_traces()] == [GENAI_TRACE.hex()]


def test_spans_of_one_trace_sent_in_two_requests_are_merged(
    client: TestClient, store: SqlStore
) -> None:
    agent, first, tool, last = openinference_spans()
    assert post_json(client, json_export([first, tool])).status_code == 200
    early = store.get_received_trace(TRACE)
    assert early is not None
    assert Trace.model_validate(early.trace).final_answer == ""  # no answer yet
    assert grade_of(store)["extracted"] == []
    assert post_json(client, json_export([last, agent])).status_code == 200
    merged = store.get_received_trace(TRACE)
    assert merged is not None
    assert len(store.received_traces()) == 1
    trace = Trace.model_validate(merged.trace)
    assert trace.final_answer == ANSWER
    assert [frame.type for frame in trace.frames] == FRAME_TYPES
    assert supports(grade_of(store))["45 days"] == "read"  # the tool span of request 1
    assert len(spans_of(merged)) == 4


def test_a_span_sent_again_replaces_its_copy(client: TestClient, store: SqlStore) -> None:
    post_json(client, json_export(openinference_spans(result="REFUND_WINDOW = 30\n")))
    assert supports(grade_of(store))["45 days"] == "unsupported"
    post_json(client, json_export(openinference_spans()))
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert len(spans_of(record)) == 4
    assert supports(grade_of(store))["45 days"] == "read"


def test_a_trace_with_no_known_attributes_is_kept_ungraded_until_they_arrive(
    client: TestClient, store: SqlStore
) -> None:
    plain = json_span("d000000000000001", "http GET", {"http.method": "GET"})
    assert post_json(client, json_export([plain])).status_code == 200
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.source_format == "otlp"
    assert record.grade is None
    assert "no span carries OpenInference" in str(record.trace["problem"])
    post_json(client, json_export(openinference_spans()))
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.source_format == "openinference"
    assert record.trace["problem"] is None
    assert record.grade is not None


@pytest.fixture
def project(tmp_path: Path) -> Any:
    path = tmp_path / "project" / "tracegrade.toml"
    path.parent.mkdir()
    path.write_text(
        '[[touchpoints]]\nid = "weather-agent"\nkind = "agent_recipe"\nowner = "tests"\n'
        'command = ["true"]\noutput_format = "junit"\nseverity_on_fail = "info"\n',
        encoding="utf-8",
    )
    return load_project(path)


@pytest.mark.parametrize(
    ("touchpoint", "service", "expected"),
    [
        (None, "weather-agent", "weather-agent"),  # service.name is a registry touchpoint
        (None, "some-other-service", None),  # not one: no touchpoint
        ("billing", "weather-agent", "billing"),  # the attribute wins over service.name
    ],
)
def test_the_touchpoint_comes_from_the_attribute_or_a_registry_service_name(
    store: SqlStore,
    project: Any,
    touchpoint: str | None,
    service: str,
    expected: str | None,
) -> None:
    client = local_client(store, project)
    body = genai_request(touchpoint=touchpoint, service=service)
    assert client.post("/v1/traces", content=body, headers=PROTOBUF).status_code == 200
    record = store.get_received_trace(GENAI_TRACE.hex())
    assert record is not None
    assert record.touchpoint == expected


def test_a_run_no_touchpoint_claims_is_graded_on_arrival_and_shown(
    store: SqlStore, project: Any
) -> None:
    export = json_export(openinference_spans(), {"service.name": "some-other-service"})
    with Server(create_app(store, project=project)) as served:
        sent = httpx.post(f"{served.url}/v1/traces", content=json_body(export), headers=JSON)
        page = httpx.get(f"{served.url}/traces/{TRACE}")
        api = httpx.get(f"{served.url}/api/traces/{TRACE}").json()
    assert (sent.status_code, sent.json()) == (200, {})
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.touchpoint is None  # the registry has only weather-agent
    assert supports(grade_of(store)) == {"45 days": "read", "$500": "unsupported"}
    assert [c["raw"] for c in api["trace"]["extracted"]] == [
        c["raw"] for c in grade_of(store)["extracted"]
    ]
    days = api["trace"]["extracted"].index(
        next(c for c in api["trace"]["extracted"] if c["raw"] == "45 days")
    )
    assert page.status_code == 200
    assert f'href="#evidence-e{days}" data-claim="e{days}"' in page.text
    assert 'id="extracted-stated"' in page.text
    assert "shows the answer&#39;s figure 45 days" in page.text  # at the tool result's frame


def _listing_run(touchpoint: str) -> dict[str, Any]:
    """A run whose list_docs tool returns file names, and whose answer names one of them."""
    listing = '{"files": ["billing/config.py", "README.md"]}'
    spans = openinference_spans(answer="The window is set in billing/config.py.", result=listing)
    for span in spans:
        for item in span["attributes"]:
            if item["value"].get("stringValue") == "read_file":
                item["value"] = {"stringValue": "list_docs"}
    return json_export(spans, {"tracegrade.touchpoint": touchpoint})


@needs_scanner("path", "The window is set in billing/config.py.")
@pytest.mark.parametrize(
    ("touchpoint", "support"),
    [
        ("docs-agent", "named-only"),  # its suite decodes list_docs results as file names
        ("elsewhere", "read"),  # no suite: the result is read as text
    ],
)
def test_a_grade_suite_touchpoint_grades_with_its_decoders(
    store: SqlStore, tmp_path: Path, touchpoint: str, support: str
) -> None:
    folder = tmp_path / "docs-project"
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[suite]\ntraces = "."\n\n[decoders.list_docs]\nkind = "path"\nitems = "files[*]"\n',
        encoding="utf-8",
    )
    (folder / "tracegrade.toml").write_text(
        '[[touchpoints]]\nid = "docs-agent"\nkind = "agent_recipe"\nowner = "tests"\n'
        'suite = "suite.toml"\nsuite_kind = "grade"\nseverity_on_fail = "info"\n',
        encoding="utf-8",
    )
    client = local_client(store, load_project(folder / "tracegrade.toml"))
    assert post_json(client, _listing_run(touchpoint)).status_code == 200
    assert supports(grade_of(store), "path") == {"billing/config.py": support}
    detail = client.get(f"/api/traces/{TRACE}").json()
    (claim,) = [c for c in detail["trace"]["extracted"] if c["kind"] == "path"]
    assert claim["support"] == support
    assert claim["evidence"][0]["frame"] == 2  # found again under the same observation id


def test_a_span_attribute_names_the_touchpoint(client: TestClient, store: SqlStore) -> None:
    spans = openinference_spans()
    spans[2]["attributes"].append({"key": "tracegrade.touchpoint", "value": {"stringValue": "t1"}})
    post_json(client, json_export(spans))
    assert store.received_traces("t1")[0].trace_id == TRACE


def test_a_client_on_another_machine_needs_the_admin_token(store: SqlStore) -> None:
    app = create_app(store, admin_token="s3cret")  # noqa: S106 - a test token
    remote = TestClient(app, client=("192.0.2.7", 40000), base_url="http://127.0.0.1")
    body = json_body(json_export(openinference_spans()))
    refused = remote.post("/v1/traces", content=body, headers=JSON)
    assert refused.status_code == 403
    assert "admin token" in refused.json()["message"]
    assert store.received_traces() == []
    wrong = remote.post("/v1/traces", content=body, headers={**JSON, "authorization": "Bearer x"})
    assert wrong.status_code == 403
    allowed = {**JSON, "authorization": "Bearer s3cret"}
    assert remote.post("/v1/traces", content=body, headers=allowed).status_code == 200
    assert len(store.received_traces()) == 1


def test_a_remote_client_is_refused_when_no_token_is_configured(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TRACEGRADE_ADMIN_TOKEN", raising=False)
    remote = TestClient(create_app(store), client=("192.0.2.7", 40000), base_url="http://127.0.0.1")
    body = json_body(json_export(openinference_spans()))
    headers = {**JSON, "authorization": "Bearer anything"}
    assert remote.post("/v1/traces", content=body, headers=headers).status_code == 403


def test_a_page_of_another_site_may_not_send_traces(client: TestClient, store: SqlStore) -> None:
    body = json_body(json_export(openinference_spans()))
    headers = {**JSON, "origin": "https://evil.example"}
    response = client.post("/v1/traces", content=body, headers=headers)
    assert response.status_code == 403
    assert store.received_traces() == []


def test_a_body_over_the_limit_is_413(
    client: TestClient, store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_otlp, "MAX_BODY_BYTES", 1000)
    big = json_body(json_export(openinference_spans()))
    assert len(big) > 1000
    assert post_json(client, json_export(openinference_spans())).status_code == 413
    small = gzip.compress(b'{"resourceSpans": []}' + b" " * 5000)  # small on the wire only
    headers = {**JSON, "content-encoding": "gzip"}
    assert client.post("/v1/traces", content=small, headers=headers).status_code == 413
    assert store.received_traces() == []


def test_an_empty_export_is_a_success(client: TestClient, store: SqlStore) -> None:
    assert post_json(client, {}).json() == {}
    assert post_json(client, {"resourceSpans": []}).json() == {}
    assert store.received_traces() == []


def test_received_traces_are_listed_and_shown_by_the_api(client: TestClient) -> None:
    post_json(client, json_export(openinference_spans(), {"tracegrade.touchpoint": "refunds"}))
    listed = client.get("/api/traces").json()
    assert [item["trace_id"] for item in listed] == [TRACE]
    detail = client.get(f"/api/traces/{TRACE}").json()
    extracted = detail["trace"]["extracted"]
    assert listed[0]["claims"] == len(extracted) >= 2
    not_read = [c for c in extracted if c["support"] != "read" and not c["given"]]
    assert listed[0]["unread"] == len(not_read) >= 1  # $500
    assert listed[0]["unsourced"] == 1
    assert listed[0]["grounded_share"] == detail["trace"]["grounded_share"] > 0  # 45 days
    assert f"{listed[0]['grounded_share'] * 100:.0f}%</td>" in client.get("/traces").text
    assert client.get("/api/traces?touchpoint=other").json() == []
    assert detail["trace"]["answer"] == ANSWER
    figures = {c["raw"]: c for c in extracted if c["kind"] == "figure"}
    assert figures["45 days"]["frames"] == [2]
    assert figures["$500"]["frames"] == []
    assert detail["trace"]["grounded_share"] == detail_share(extracted)
    assert client.get(f"/api/traces/{'f' * 32}").status_code == 404


def test_a_grade_stored_before_claims_were_extracted_is_shown_as_stored(
    client: TestClient, store: SqlStore
) -> None:
    post_json(client, json_export(openinference_spans()))
    legacy = grade_of(store) | {"question_id": "live", "extracted": [], "unread": ["path-1"]}
    legacy["claims"] = [
        {"id": "path-1", "text": "billing/config.py", "in_answer": True,
         "support": "unsupported", "evidence": []},
    ]  # fmt: skip

    def stored_as_before(stored: ReceivedTraceRecord | None) -> ReceivedTraceRecord:
        assert stored is not None
        return stored.model_copy(update={"grade": legacy})

    store.merge_received_trace(TRACE, stored_as_before)
    (item,) = client.get("/api/traces").json()
    trace = client.get(f"/api/traces/{TRACE}").json()["trace"]
    assert (item["claims"], item["unread"]) == (1, 1)
    assert ([c["id"] for c in trace["claims"]], trace["extracted"]) == (["path-1"], [])
    assert 'id="claims"' in client.get(f"/traces/{TRACE}").text


def detail_share(extracted: list[dict[str, Any]]) -> float:
    counted = [claim for claim in extracted if not claim["given"]]
    read: int = sum(claim["support"] == "read" for claim in counted)
    return read / len(counted)


def test_received_trace_pages_escape_the_trace(client: TestClient) -> None:
    hostile = (
        'Done <script>alert(1)</script> <img src=x onerror="alert(2)"> [x](javascript:alert(3))'
    )
    post_json(client, json_export(openinference_spans(answer=hostile, result=hostile)))
    listing = client.get("/traces")
    assert listing.status_code == 200
    assert TRACE[:12] in listing.text
    page = client.get(f"/traces/{TRACE}")
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert 'onerror="alert' not in page.text
    assert client.get(f"/traces/{'f' * 32}").status_code == 404


def test_the_openapi_schema_lists_the_receiver(client: TestClient) -> None:
    paths = orjson.loads(client.get("/openapi.json").content)["paths"]
    assert "post" in paths["/v1/traces"]
    assert "get" in paths["/api/traces/{trace_id}"]


def _refund_run(touchpoint: str, amount: str) -> dict[str, Any]:
    """A run whose one tool call is issue_refund with ``amount``; nothing showed that figure."""
    arguments = orjson.dumps({"amount": amount}).decode()
    spans = openinference_spans(answer=f"I refunded {amount}.")
    for span in spans:
        for item in span["attributes"]:
            value = item["value"].get("stringValue")
            if value == "read_file":
                item["value"] = {"stringValue": "issue_refund"}
            elif value == '{"path": "billing/config.py"}':
                item["value"] = {"stringValue": arguments}
    return json_export(spans, {"tracegrade.touchpoint": touchpoint})


@pytest.mark.parametrize(
    ("amount", "kind"),
    [
        ("$750", "guard-block"),  # no message or result before the call showed $750
        ("the full amount", "guard-allow"),  # no figure to source
    ],
)
def test_a_guard_touchpoints_received_run_shows_the_guards_decision_at_the_call(
    store: SqlStore, tmp_path: Path, amount: str, kind: str
) -> None:
    folder = tmp_path / "refund-project"
    folder.mkdir()
    (folder / "guard.toml").write_text('[tools.issue_refund]\nscan = ["amount"]\n', "utf-8")
    (folder / "runs").mkdir()
    (folder / "runs" / "recorded.json").write_text("{}", "utf-8")  # the suite's recorded runs
    (folder / "tracegrade.toml").write_text(
        '[[touchpoints]]\nid = "refunds"\nkind = "tool"\nowner = "tests"\nsuite = "guard.toml"\n'
        'suite_kind = "guard"\ntraces = "runs/*.json"\nseverity_on_fail = "block"\n',
        encoding="utf-8",
    )
    client = local_client(store, load_project(folder / "tracegrade.toml"))

    assert post_json(client, _refund_run("refunds", amount)).status_code == 200

    frames = client.get(f"/api/traces/{TRACE}").json()["trace"]["frames"]
    marked = [(frame["type"], mark["kind"]) for frame in frames for mark in frame["marks"]]
    assert ("tool_call", kind) in marked
    page = client.get(f"/traces/{TRACE}").text
    assert "guard blocked issue_refund: unsourced $750" in page or kind == "guard-allow"
