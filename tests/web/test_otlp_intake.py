"""The receiver's hardening: one failing trace does not lose the others, errors are OTLP
Status bodies, grading is bounded, and secrets are redacted before anything is stored."""

from __future__ import annotations

import base64
import shutil
from typing import TYPE_CHECKING, Any

import orjson
import pytest
import sqlalchemy as sa
from google.protobuf.json_format import ParseDict  # type: ignore[import-untyped]
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.web._otlp_bodies import (
    JSON,
    PROTOBUF,
    TRACE,
    attributes,
    json_body,
    json_export,
    json_span,
    local_client,
    openinference_spans,
)
from tracegrade.store import InMemoryStore, open_store
from tracegrade.web._intake import PROBLEM_KEY, REDACTIONS_KEY, receive
from tracegrade.web._intake_bound import GradeLimits
from tracegrade.web._otlp_convert import split_export

if TYPE_CHECKING:
    from pathlib import Path

    from fastapi.testclient import TestClient

    from tracegrade.store import SqlStore

TRACES = [f"{n:x}" * 32 for n in (1, 2, 3)]


def _three_traces() -> dict[str, Any]:
    spans = [span for trace in TRACES for span in openinference_spans(trace_id=trace)]
    return json_export(spans)


def _refuse_trace(store: SqlStore, trace_id: str) -> None:
    """Make the database itself refuse to store one trace id (a real failure, no mock)."""
    engine = sa.create_engine(store.url)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON received_traces"
            f" WHEN NEW.trace_id = '{trace_id}'"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END"
        )
    engine.dispose()


def test_a_failing_trace_is_a_partial_success_and_the_others_are_kept(store: SqlStore) -> None:
    _refuse_trace(store, TRACES[1])
    client = local_client(store)

    response = client.post("/v1/traces", content=json_body(_three_traces()), headers=JSON)

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    partial = response.json()["partialSuccess"]
    assert partial["rejectedSpans"] == "4"  # OTLP JSON writes int64 as a string
    assert f"trace {TRACES[1]} was not stored" in partial["errorMessage"]
    assert "refused by the test trigger" in partial["errorMessage"]
    assert store.get_received_trace(TRACES[0]) is not None
    assert store.get_received_trace(TRACES[1]) is None
    assert store.get_received_trace(TRACES[2]) is not None


def test_the_partial_success_is_protobuf_for_a_protobuf_request(store: SqlStore) -> None:
    _refuse_trace(store, TRACES[1])
    request = _three_traces()
    # The same export as protobuf: the JSON form read through the message type.

    message = ParseDict(_as_base64_ids(request), ExportTraceServiceRequest())
    response = local_client(store).post(
        "/v1/traces", content=message.SerializeToString(), headers=PROTOBUF
    )

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-protobuf"
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans == 4
    assert TRACES[1] in answer.partial_success.error_message
    assert store.get_received_trace(TRACES[2]) is not None


def _as_base64_ids(export: dict[str, Any]) -> dict[str, Any]:
    """Protobuf's JSON mapping spells bytes in base64 (OTLP JSON spells ids in hex)."""
    for block in export["resourceSpans"]:
        for scope in block["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return export


def test_errors_under_v1_are_status_bodies_never_html(client: TestClient) -> None:
    wrong_method = client.get("/v1/traces")
    unknown = client.post("/v1/logs", content=b"{}", headers=JSON)
    for response in (wrong_method, unknown):
        assert response.headers["content-type"] == "application/json"
        assert set(response.json()) == {"code", "message"}
    assert wrong_method.status_code == 405


@pytest.fixture
def client(store: SqlStore) -> TestClient:
    return local_client(store)


def _big_result(mebibytes: float) -> str:
    line = "REFUND_WINDOW = '45 days'  # order 88231 ships in 3 days, costs $1,250.00\n"
    return line * int(mebibytes * 1024 * 1024 / len(line))


def test_a_run_over_the_size_bound_is_kept_ungraded_with_the_reason() -> None:
    store = InMemoryStore()
    batch = split_export(json_export(openinference_spans(result=_big_result(0.1))))

    assert receive(store, batch, limits=GradeLimits(characters=50_000)) == ()

    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.grade is None
    assert record.source_format == "openinference"  # read, kept, not graded
    problem = record.trace[PROBLEM_KEY]
    assert isinstance(problem, str)
    assert "characters of text, over the limit of 50,000" in problem


def test_a_run_that_grades_too_long_is_stopped_kept_and_graded_when_more_arrive() -> None:
    store = InMemoryStore()
    spans = openinference_spans(result=_big_result(4))
    first, rest = spans[:3], spans[3:]
    receive(store, split_export(json_export(spans)), limits=GradeLimits(seconds=0.2))
    record = store.get_received_trace(TRACE)
    assert record is not None
    assert record.grade is None
    assert "grading took longer than 0.2 s" in str(record.trace[PROBLEM_KEY])

    # The next spans of the trace (a span sent again here) bring a fresh grade.
    receive(store, split_export(json_export(first[:1] + rest)))
    graded = store.get_received_trace(TRACE)
    assert graded is not None
    assert graded.grade is not None
    assert graded.trace[PROBLEM_KEY] is None


OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
GITHUB = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
BEARER = "Bearer 9f8e7d6c5b4a39281706"
STRIPE = "sk_live_51HcQk2Lp9Xy8Wv7Ut6"
SECRETS = [OPENAI, GITHUB, "9f8e7d6c5b4a39281706", STRIPE, "hunter2pass"]


def _leaky_export() -> dict[str, Any]:
    """A run whose question, tool result, answer and attributes carry secrets."""
    spans = openinference_spans(
        result=f"REFUND_WINDOW = '45 days'\nSTRIPE_KEY = '{STRIPE}'\n",
        answer=f"The refund window is 45 days; I used the key {OPENAI}.",
    )
    for span in spans:
        for item in span["attributes"]:
            if item["key"] == "llm.input_messages.0.message.content":
                item["value"] = {"stringValue": f"How long is the refund window? token {GITHUB}"}
    spans.append(
        json_span(
            "a000000000000009",
            "GET /config",
            {
                "http.request.header.authorization": [BEARER],
                "url.full": "https://ops:hunter2pass@config.internal/refunds",
            },
            parent="a000000000000001",
            at=4,
        )
    )
    export = json_export(spans)
    resource = export["resourceSpans"][0]["resource"]
    resource["attributes"] += attributes({"deploy.api_key": "k-7781-zz"})
    return export


def test_secrets_in_received_spans_are_redacted_before_they_are_stored(
    client: TestClient, store: SqlStore
) -> None:
    response = client.post("/v1/traces", content=json_body(_leaky_export()), headers=JSON)

    assert response.status_code == 200
    record = store.get_received_trace(TRACE)
    assert record is not None
    stored = orjson.dumps(record.model_dump(mode="json")).decode()
    for secret in [*SECRETS, "k-7781-zz"]:
        assert secret not in stored
    for kind in ["openai-key", "github-token", "stripe-key", "authorization", "url-credentials"]:
        assert f"[REDACTED:{kind}]" in stored
    redactions: list[dict[str, Any]] = orjson.loads(orjson.dumps(record.trace[REDACTIONS_KEY]))
    where = {(item["kind"], item["span"], item["field"]) for item in redactions}
    header = "attributes.http.request.header.authorization.arrayValue.values[0].stringValue"
    assert ("authorization", "a000000000000009", header) in where
    assert any(kind == "api-key" and field.startswith("resource.") for kind, _, field in where)
    # The figure beside the secret is still read from the tool result.
    grade: dict[str, Any] = orjson.loads(orjson.dumps(record.grade))
    figures = {c["raw"]: c["support"] for c in grade["extracted"] if c["kind"] == "figure"}
    assert figures["45 days"] == "read"

    page = client.get(f"/traces/{TRACE}").text
    api = client.get(f"/api/traces/{TRACE}").text
    assert client.get(f"/api/traces/{TRACE}").json()["redactions"] == redactions
    for secret in SECRETS:
        assert secret not in page
        assert secret not in api


def test_a_trace_stored_before_redaction_is_redacted_when_shown(
    client: TestClient, store: SqlStore
) -> None:
    client.post("/v1/traces", content=json_body(json_export(openinference_spans())), headers=JSON)
    record = store.get_received_trace(TRACE)
    assert record is not None
    leaked = orjson.loads(orjson.dumps(record.trace).replace(b"45 days", OPENAI.encode()))
    store.merge_received_trace(TRACE, lambda _: record.model_copy(update={"trace": leaked}))

    for path in [f"/traces/{TRACE}", f"/api/traces/{TRACE}", "/traces", "/api/traces"]:
        shown = client.get(path)
        assert shown.status_code == 200
        assert OPENAI not in shown.text, path
    assert "[REDACTED:openai-key]" in client.get(f"/traces/{TRACE}").text


@pytest.mark.parametrize(
    ("kind", "text", "secret"),
    [
        ("openai-key", OPENAI, OPENAI),
        ("anthropic-key", "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe", "Zx9Yw8Vu7Ts6Rq5"),
        ("github-token", GITHUB, GITHUB),
        ("slack-token", "xoxb-2048-4096-Qm8ZkT0pLw", "Qm8ZkT0pLw"),
        ("stripe-key", STRIPE, STRIPE),
        ("google-api-key", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "9tSrke72PouQ"),
        ("aws-access-key-id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
        (
            "jwt",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVm",
            "dozjgNryP4J3jVm",
        ),
        ("bearer-token", "Authorization: Bearer 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
        (
            "private-key",
            "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\n-----END PRIVATE KEY-----",
            "MIIEvQIBADANBgkq",
        ),
        ("password", "db password=hunter2!x", "hunter2!x"),
    ],
)
def test_each_kind_in_a_tool_span_is_redacted_before_it_is_stored(
    client: TestClient, store: SqlStore, kind: str, text: str, secret: str
) -> None:
    export = json_export(openinference_spans(result=f"REFUND_WINDOW = '45 days'\n{text}\n"))
    assert client.post("/v1/traces", content=json_body(export), headers=JSON).status_code == 200
    record = store.get_received_trace(TRACE)
    assert record is not None
    stored = orjson.dumps(record.model_dump(mode="json")).decode()
    assert secret not in stored
    assert f"[REDACTED:{kind}]" in stored
    fields = {item["field"] for item in orjson.loads(orjson.dumps(record.trace[REDACTIONS_KEY]))}
    assert "attributes.output.value.stringValue" in fields  # the TOOL span's output


def test_a_store_that_cannot_be_used_is_503_so_the_exporter_sends_again(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    folder.mkdir()  # a SQLite URL creates no folder but .tracegrade
    store = open_store(f"sqlite:///{folder / 'results.db'}")
    client = local_client(store)
    store.close()
    shutil.rmtree(folder)
    folder.write_text("not a folder")  # the database can no longer be opened

    response = client.post("/v1/traces", content=json_body(_three_traces()), headers=JSON)

    assert response.status_code == 503
    assert response.json()["code"] == 14  # UNAVAILABLE: retryable
    assert "cannot use the store" in response.json()["message"]
