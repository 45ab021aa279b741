"""Phoenix span annotations: the request Phoenix's REST API takes, and a real Phoenix server.

The contract test serves ``POST /v1/span_annotations`` on loopback with the request and
response models of Phoenix's own router (``phoenix/server/api/routers/v1/spans.py`` and
``annotations.py``, arize-phoenix 20.26): ``{"data": [SpanAnnotationData]}``, ``sync`` as a
query parameter, 404 when a span is unknown. The live test starts a real Phoenix
(``$TRACEGRADE_PHOENIX``: its ``phoenix`` executable, from a separate venv) on 127.0.0.1, sends
it an OpenInference run over OTLP, reads the spans back from Phoenix's REST API, exports the
verdicts and reads the annotations back.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, Literal

import pytest
from fastapi import FastAPI, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from pydantic import BaseModel, ConfigDict

from tests.cli.runner import run_cli
from tests.export._runs import LLM_SPAN, write_runs
from tests.helpers.server import Server, free_port

_STRICT = ConfigDict(extra="forbid")


class AnnotationResult(BaseModel):
    model_config = _STRICT
    label: str | None = None
    score: float | None = None
    explanation: str | None = None


class SpanAnnotationData(BaseModel):
    model_config = _STRICT
    name: str
    annotator_kind: Literal["LLM", "CODE", "HUMAN"]
    result: AnnotationResult | None = None
    metadata: dict[str, Any] | None = None
    identifier: str = ""
    span_id: str


class AnnotateSpansRequestBody(BaseModel):
    model_config = _STRICT
    data: list[SpanAnnotationData]


def _phoenix_contract(known_spans: set[str]) -> tuple[FastAPI, list[SpanAnnotationData]]:
    app = FastAPI()
    stored: list[SpanAnnotationData] = []

    @app.post("/v1/span_annotations")
    def annotate_spans(
        request_body: AnnotateSpansRequestBody, sync: bool = Query(default=False)
    ) -> Response:
        assert sync, "tracegrade asks for sync=true, to learn of unknown spans"
        missing = {d.span_id for d in request_body.data} - known_spans
        if missing:  # Phoenix answers this one in plain text (seen from a real server)
            detail = f"Spans with IDs {', '.join(missing)} do not exist."
            return PlainTextResponse(detail, status_code=404)
        stored.extend(request_body.data)
        ids = [{"id": f"SpanAnnotation:{n}"} for n in range(len(request_body.data))]
        return JSONResponse({"data": ids})

    return app, stored


def test_each_evaluation_is_one_annotation_of_the_answer_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans, _ = write_runs(tmp_path)
    app, stored = _phoenix_contract({LLM_SPAN})
    with Server(app) as server:
        outcome = run_cli(capsys, "export", "phoenix", str(spans), "--url", server.url)
        assert outcome.code == 0, outcome.err
        assert outcome.out == (
            f"annotated 1 span(s) of 1 run(s) in Phoenix at {server.url}: 3 annotation(s) stored\n"
        )
        again = run_cli(capsys, "export", "phoenix", str(spans), "--url", server.url)
    assert again.code == 0
    first = [a.model_dump() for a in stored[:3]]
    assert first == [a.model_dump() for a in stored[3:]]  # same identifiers: Phoenix upserts
    assert [(a["span_id"], a["name"], a["annotator_kind"], a["identifier"]) for a in first] == [
        (LLM_SPAN, "tracegrade.grounding", "CODE", "tracegrade.grounding"),
        (LLM_SPAN, "tracegrade.claim", "CODE", "tracegrade.claim:figure:14-21"),
        (LLM_SPAN, "tracegrade.claim", "CODE", "tracegrade.claim:figure:37-40"),
    ]
    assert first[1]["result"] == {
        "label": "unsupported",
        "score": 0.0,
        "explanation": "figure '45 days' at 14-21 of the answer: no tool result holds it.",
    }


def test_spans_phoenix_does_not_hold_are_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans, _ = write_runs(tmp_path)
    app, stored = _phoenix_contract(set())
    with Server(app) as server:
        outcome = run_cli(capsys, "export", "phoenix", str(spans), "--url", server.url)
    assert outcome.code == 2
    assert outcome.err == (
        f"tracegrade: error: Phoenix at {server.url} refused the annotations (404: Spans with"
        f" IDs {LLM_SPAN} do not exist.). Send the run's spans to that Phoenix first; check"
        " --api-key\n"
    )
    assert not stored


def test_runs_not_read_from_spans_cannot_be_annotated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, native = write_runs(tmp_path)
    outcome = run_cli(capsys, "export", "phoenix", str(native), "--url", "http://127.0.0.1:9")
    assert outcome.code == 2
    assert "run 'guess-run' was not read from spans, and Phoenix annotates spans" in outcome.err


# The live Phoenix server -----------------------------------------------------------------


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - loopback
        return json.loads(response.read())


def _send_openinference_run(url: str) -> None:
    """An agent run as OpenInference spans, over OTLP/HTTP with the OpenTelemetry SDK."""
    provider = TracerProvider(
        resource=Resource.create({"service.name": "refund-agent"}), shutdown_on_exit=False
    )
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(f"{url}/v1/traces")))
    tracer = provider.get_tracer("tests")
    asked = "How long is the refund window, and what is the fee?"
    answer = "The window is 45 days and the fee is $25."
    with tracer.start_as_current_span("agent") as agent:
        agent.set_attributes({"openinference.span.kind": "AGENT", "input.value": asked})
        with tracer.start_as_current_span("read_policy") as tool:
            tool.set_attributes(
                {
                    "openinference.span.kind": "TOOL",
                    "tool.name": "read_policy",
                    "input.value": "{}",
                    "output.value": "Refunds are accepted within 30 days. The fee is $25.",
                }
            )
        with tracer.start_as_current_span("ChatCompletion") as llm:
            llm.set_attributes(
                {
                    "openinference.span.kind": "LLM",
                    "llm.input_messages.0.message.role": "user",
                    "llm.input_messages.0.message.content": asked,
                    "llm.output_messages.0.message.role": "assistant",
                    "llm.output_messages.0.message.content": answer,
                }
            )
        agent.set_attribute("output.value", answer)
    provider.shutdown()


@pytest.mark.slow
def test_a_real_phoenix_server_stores_the_annotations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    phoenix = os.environ.get("TRACEGRADE_PHOENIX")
    if not phoenix:
        pytest.skip(
            "no Phoenix server: set TRACEGRADE_PHOENIX to the phoenix executable of a venv with"
            " arize-phoenix (docs/export.md) to run this test against a real one"
        )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(free_port()),
        "PHOENIX_WORKING_DIR": str(tmp_path / "phoenix"),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (tmp_path / "phoenix.log").open("w")
    server = subprocess.Popen([phoenix, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=2).close()  # noqa: S310 - loopback
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "phoenix.log").read_text()
                assert time.monotonic() < deadline, "Phoenix did not start in 180 s"
                time.sleep(1)
        _send_openinference_run(url)
        for _ in range(60):  # Phoenix inserts received spans in the background
            spans = _get(f"{url}/v1/projects/default/spans")["data"]
            if len(spans) == 3:
                break
            time.sleep(0.5)
        exported = tmp_path / "phoenix-spans.json"
        exported.write_text(json.dumps(spans), encoding="utf-8")
        outcome = run_cli(capsys, "export", "phoenix", str(exported), "--url", url)
        assert outcome.code == 0, outcome.err
        assert outcome.out.endswith(": 3 annotation(s) stored\n")
        llm = next(s for s in spans if s["name"] == "ChatCompletion")["context"]["span_id"]
        stored = _get(f"{url}/v1/projects/default/span_annotations?span_ids={llm}")["data"]
        assert sorted(
            (a["name"], a["result"]["label"], a["result"]["score"], a["annotator_kind"])
            for a in stored
        ) == [
            ("tracegrade.claim", "read", 1.0, "CODE"),
            ("tracegrade.claim", "unsupported", 0.0, "CODE"),
            ("tracegrade.grounding", "ungrounded", 0.5, "CODE"),
        ]
        print(json.dumps(stored, indent=1))  # the doc's example output
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_the_contract_models_are_phoenix_own_field_names() -> None:
    # Guard against the contract drifting from the source it was written from.
    assert set(SpanAnnotationData.model_fields) == {
        "name", "annotator_kind", "result", "metadata", "identifier", "span_id",
    }  # fmt: skip
    assert set(AnnotationResult.model_fields) == {"label", "score", "explanation"}
    assert Path(__file__).name == "test_phoenix.py"
