"""gen_ai.evaluation.result events through the SDK's OTLP/HTTP exporter to a real server.

The collector is a real HTTP server on loopback (uvicorn) that decodes each request with
OpenTelemetry's own protobuf messages (``ExportLogsServiceRequest``), as a collector does.
"""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import time
from typing import TYPE_CHECKING, Any

import pytest
from fastapi import FastAPI, Request, Response
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)

from tests.cli.runner import run_cli
from tests.export._runs import LLM_SPAN, TRACE_ID, write_runs
from tests.helpers.server import Server, free_port

if TYPE_CHECKING:
    from pathlib import Path

PROTOBUF = "application/x-protobuf"


def _collector(status: int = 200) -> tuple[FastAPI, list[ExportLogsServiceRequest]]:
    app = FastAPI()
    received: list[ExportLogsServiceRequest] = []

    @app.post("/v1/logs")
    async def logs(request: Request) -> Response:
        body = await request.body()
        if request.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        export = ExportLogsServiceRequest()
        export.ParseFromString(body)
        if request.headers.get("content-type") == PROTOBUF:
            received.append(export)
        body = ExportLogsServiceResponse().SerializeToString()
        return Response(body, status_code=status, media_type=PROTOBUF)

    return app, received


def _value(any_value: Any) -> object:
    return getattr(any_value, any_value.WhichOneof("value"))


def _events(received: list[ExportLogsServiceRequest]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for export in received:
        for resource in export.resource_logs:
            service = {kv.key: _value(kv.value) for kv in resource.resource.attributes}
            for scope in resource.scope_logs:
                events.extend(
                    {
                        "service": service["service.name"],
                        "scope": scope.scope.name,
                        "event_name": record.event_name,
                        "trace_id": record.trace_id.hex(),
                        "span_id": record.span_id.hex(),
                        "timestamped": record.time_unix_nano > 0,
                        "attributes": {kv.key: _value(kv.value) for kv in record.attributes},
                    }
                    for record in scope.log_records
                )
    return events


def test_each_run_and_claim_is_one_event_parented_to_the_evaluated_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans, native = write_runs(tmp_path)
    app, received = _collector()
    with Server(app) as server:
        endpoint = f"{server.url}/v1/logs"
        outcome = run_cli(capsys, "export", "otel", str(spans), str(native), "--endpoint", endpoint)
    assert outcome.code == 0, outcome.err
    assert outcome.out == (
        f"sent 7 gen_ai.evaluation.result event(s) for 2 run(s) to {endpoint} (3 parented to the"
        " span that wrote the answer, 4 with gen_ai.response.id)\n"
    )
    events = _events(received)
    assert {(e["service"], e["scope"], e["event_name"], e["timestamped"]) for e in events} == {
        ("tracegrade", "tracegrade", "gen_ai.evaluation.result", True)
    }
    from_spans = [e for e in events if e["trace_id"] == TRACE_ID]
    assert [e["span_id"] for e in from_spans] == [LLM_SPAN] * 3
    assert [e["attributes"] for e in from_spans] == [
        {
            "gen_ai.evaluation.name": "tracegrade.grounding",
            "gen_ai.evaluation.score.label": "ungrounded",
            "gen_ai.evaluation.explanation": "1 of 2 claims were read in a tool result; not read:"
            " figure '45 days'.",
            "gen_ai.evaluation.score.value": 0.5,
            "tracegrade.run.id": TRACE_ID,
        },
        {
            "gen_ai.evaluation.name": "tracegrade.claim",
            "gen_ai.evaluation.score.label": "unsupported",
            "gen_ai.evaluation.explanation": "figure '45 days' at 14-21 of the answer: no tool"
            " result holds it.",
            "gen_ai.evaluation.score.value": 0.0,
            "tracegrade.run.id": TRACE_ID,
            "tracegrade.claim.kind": "figure",
            "tracegrade.claim.text": "45 days",
            "tracegrade.claim.start": 14,
            "tracegrade.claim.end": 21,
        },
        {
            "gen_ai.evaluation.name": "tracegrade.claim",
            "gen_ai.evaluation.score.label": "read",
            "gen_ai.evaluation.explanation": "figure '$25' at 37-40 of the answer: read in f1.",
            "gen_ai.evaluation.score.value": 1.0,
            "tracegrade.run.id": TRACE_ID,
            "tracegrade.claim.kind": "figure",
            "tracegrade.claim.text": "$25",
            "tracegrade.claim.start": 37,
            "tracegrade.claim.end": 40,
        },
    ]
    native_events = [e for e in events if e["trace_id"] != TRACE_ID]
    assert len(native_events) == 4
    assert {(e["trace_id"], e["span_id"]) for e in native_events} == {("", "")}  # no parent
    assert {e["attributes"]["gen_ai.response.id"] for e in native_events} == {"guess-run"}
    assert not any("gen_ai.response.id" in e["attributes"] for e in from_spans)


def test_no_collector_is_an_infrastructure_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, native = write_runs(tmp_path)
    endpoint = f"http://127.0.0.1:{free_port()}/v1/logs"
    outcome = run_cli(
        capsys, "export", "otel", str(native), "--endpoint", endpoint, "--timeout", "1"
    )
    assert outcome.code == 3
    (line,) = outcome.err.splitlines()  # the SDK's own logging is folded into one line
    assert line.startswith(
        f"tracegrade: error: the collector at {endpoint} did not accept 4 of 4 evaluation"
        " event(s) ("  # then the SDK's reason, whose words depend on its retry timing
    )
    assert line.endswith(
        "Check that an OTLP/HTTP collector listens there (its logs endpoint, /v1/logs)"
    )


def test_a_collector_that_refuses_is_an_infrastructure_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, native = write_runs(tmp_path)
    app, _ = _collector(status=400)
    with Server(app) as server:
        endpoint = f"{server.url}/v1/logs"
        outcome = run_cli(capsys, "export", "otel", str(native), "--endpoint", endpoint)
    assert outcome.code == 3
    assert "did not accept 4 of 4 evaluation event(s)" in outcome.err


def test_an_endpoint_is_needed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", raising=False)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    _, native = write_runs(tmp_path)
    outcome = run_cli(capsys, "export", "otel", str(native))
    assert outcome.code == 2
    assert "no collector: pass --endpoint" in outcome.err


@pytest.mark.slow
def test_through_a_real_collector(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # No OpenTelemetry Collector is packaged by Debian; PyPI's `rotel` ships a Rust OTLP
    # collector binary. It receives tracegrade's events and forwards them over OTLP/HTTP.
    collector = os.environ.get("TRACEGRADE_OTEL_COLLECTOR")
    if not collector:
        pytest.skip(
            "no collector: set TRACEGRADE_OTEL_COLLECTOR to a rotel-agent binary (pip install"
            " rotel in a separate venv; docs/export.md) to send the events through it"
        )
    spans, native = write_runs(tmp_path)
    app, received = _collector()
    listen = free_port()
    with Server(app) as server:
        agent = subprocess.Popen(
            [
                collector,
                "start",
                "--otlp-http-endpoint",
                f"127.0.0.1:{listen}",
                "--otlp-grpc-endpoint",
                f"127.0.0.1:{free_port()}",
                "--exporter",
                "otlp",
                "--otlp-exporter-endpoint",
                server.url,
                "--otlp-exporter-protocol",
                "http",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", listen)) == 0:
                        break
                assert time.monotonic() < deadline, "the collector did not start"
                time.sleep(0.1)
            endpoint = f"http://127.0.0.1:{listen}/v1/logs"
            outcome = run_cli(
                capsys, "export", "otel", str(spans), str(native), "--endpoint", endpoint
            )
            assert outcome.code == 0, outcome.err
            while sum(len(_events([r])) for r in received) < 7:
                assert time.monotonic() < deadline + 30, "the collector forwarded too little"
                time.sleep(0.1)
        finally:
            agent.terminate()
            agent.wait(timeout=30)
    events = _events(received)
    assert len(events) == 7
    assert {e["event_name"] for e in events} == {"gen_ai.evaluation.result"}
    assert sorted(e["span_id"] for e in events if e["trace_id"] == TRACE_ID) == [LLM_SPAN] * 3
