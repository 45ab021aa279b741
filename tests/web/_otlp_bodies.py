"""Builders of OTLP export bodies for the receiver's tests: JSON by hand, protobuf by message.

The OTel SDK is not installed: protobuf requests are built from opentelemetry-proto's
messages directly, JSON requests as the OTLP JSON encoding spells them.
"""

from __future__ import annotations

import gzip
import hashlib
from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from fastapi.testclient import TestClient
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, InstrumentationScope, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span, Status

from tracegrade.claims import extract_answer_claims
from tracegrade.web import create_app

if TYPE_CHECKING:
    from tracegrade.evals import Project
    from tracegrade.store import Store

TRACE = "5b8efff798038103d269b633813fc60c"
T0 = 1_767_000_000_000_000_000  # nanoseconds since the epoch
QUESTION = "How long is the refund window?"
ANSWER = "The refund window is 45 days, set in billing/config.py; refunds over $500 need approval."
RESULT = "REFUND_WINDOW = '45 days'\n"
JSON = {"content-type": "application/json"}
PROTOBUF = {"content-type": "application/x-protobuf"}


def needs_scanner(kind: str, example: str) -> pytest.MarkDecorator:
    """Skip unless the answer-claim scanners find a claim of ``kind`` in ``example``.

    The scanners of every kind but figures land apart (claims/_scan.py); a test of how the
    intake grades such a claim runs from the day they find it.
    """
    found = any(claim.kind == kind for claim in extract_answer_claims(example))
    return pytest.mark.skipif(not found, reason=f"no {kind} scanner yet: {example!r}")


def local_client(store: Store, project: Project | None = None, **options: Any) -> TestClient:
    """A test client of the app whose requests come from this machine (127.0.0.1)."""
    return TestClient(
        create_app(store, project=project, **options),
        client=("127.0.0.1", 50000),
        base_url="http://127.0.0.1",
    )


def any_value(value: Any) -> dict[str, Any]:
    """An OTLP JSON ``AnyValue``."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    if isinstance(value, dict):
        return {"kvlistValue": {"values": attributes(value)}}
    return {"stringValue": str(value)}


def attributes(values: dict[str, Any]) -> list[dict[str, Any]]:
    """OTLP JSON attributes: ``[{key, value: AnyValue}]``."""
    return [{"key": key, "value": any_value(value)} for key, value in values.items()]


def json_span(
    span_id: str,
    name: str,
    values: dict[str, Any],
    *,
    trace_id: str = TRACE,
    parent: str | None = None,
    at: int = 0,
    error: bool = False,
) -> dict[str, Any]:
    """One OTLP JSON span; ``at`` is its start, in steps after ``T0``."""
    span: dict[str, Any] = {
        "traceId": trace_id,
        "spanId": span_id,
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(T0 + at * 1_000_000),
        "endTimeUnixNano": str(T0 + at * 1_000_000 + 500_000),
        "attributes": attributes(values),
        "status": {"code": 2} if error else {},
    }
    if parent is not None:
        span["parentSpanId"] = parent
    return span


def json_export(
    spans: list[dict[str, Any]], resource: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An OTLP JSON ``ExportTraceServiceRequest`` with one resource and one scope."""
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": attributes(resource or {"service.name": "agent"})},
                "scopeSpans": [{"scope": {"name": "tests", "version": "1"}, "spans": spans}],
            }
        ]
    }


def json_body(export: dict[str, Any], *, gzipped: bool = False) -> bytes:
    """The request body of an export, gzipped if asked."""
    body = orjson.dumps(export)
    return gzip.compress(body) if gzipped else body


def _tool_call_message(index: int) -> dict[str, Any]:
    prefix = f"llm.input_messages.{index}.message"
    return {
        f"{prefix}.role": "assistant",
        f"{prefix}.tool_calls.0.tool_call.id": "call_1",
        f"{prefix}.tool_calls.0.tool_call.function.name": "read_file",
        f"{prefix}.tool_calls.0.tool_call.function.arguments": '{"path": "billing/config.py"}',
    }


def openinference_spans(
    *, trace_id: str = TRACE, answer: str = ANSWER, result: str = RESULT
) -> list[dict[str, Any]]:
    """An OpenInference agent run: agent span, LLM (asks for read_file), TOOL, LLM (answers)."""
    root = "a000000000000001"
    first = {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": QUESTION,
        **{
            key.replace("input_messages.0", "output_messages.0"): value
            for key, value in _tool_call_message(0).items()
        },
    }
    tool = {
        "openinference.span.kind": "TOOL",
        "tool.name": "read_file",
        "tool_call.id": "call_1",
        "input.value": '{"path": "billing/config.py"}',
        "output.value": result,
    }
    last = {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o",
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": QUESTION,
        **_tool_call_message(1),
        "llm.input_messages.2.message.role": "tool",
        "llm.input_messages.2.message.tool_call_id": "call_1",
        "llm.input_messages.2.message.content": result,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": answer,
    }
    agent = {"openinference.span.kind": "AGENT", "input.value": QUESTION, "output.value": answer}
    return [
        json_span(root, "agent", agent, trace_id=trace_id),
        json_span("a000000000000002", "llm", first, trace_id=trace_id, parent=root, at=1),
        json_span("a000000000000003", "read_file", tool, trace_id=trace_id, parent=root, at=2),
        json_span("a000000000000004", "llm", last, trace_id=trace_id, parent=root, at=3),
    ]


def _pb_value(value: Any) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    return AnyValue(string_value=str(value))


def _pb_attributes(values: dict[str, Any]) -> list[KeyValue]:
    return [KeyValue(key=key, value=_pb_value(value)) for key, value in values.items()]


GENAI_TRACE = bytes.fromhex("0af7651916cd43dd8448eb211c80319c")
_GENAI_INPUT = [{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}]
_GENAI_CALL = {
    "role": "assistant",
    "parts": [
        {"type": "tool_call", "id": "call_w", "name": "get_weather", "arguments": {"city": "Paris"}}
    ],
}
_GENAI_REPLY = {
    "role": "tool",
    "parts": [{"type": "tool_call_response", "id": "call_w", "response": "rainy, 57°F"}],
}
_GENAI_ANSWER = {
    "role": "assistant",
    "parts": [{"type": "text", "content": "It is rainy in Paris, 57°F; about 1,200 mm a year."}],
}


def genai_request(*, touchpoint: str | None = None, service: str = "weather-agent") -> bytes:
    """A protobuf export of an OTel GenAI run: chat (calls get_weather), execute_tool, chat."""
    root = bytes.fromhex("b000000000000001")

    def span(number: int, name: str, values: dict[str, Any]) -> Span:
        return Span(
            trace_id=GENAI_TRACE,
            span_id=bytes.fromhex(f"b00000000000000{number}"),
            parent_span_id=b"" if number == 1 else root,
            name=name,
            kind=Span.SPAN_KIND_CLIENT,
            start_time_unix_nano=T0 + number * 1_000_000,
            end_time_unix_nano=T0 + number * 1_000_000 + 500_000,
            attributes=_pb_attributes(values),
            status=Status(code=Status.STATUS_CODE_OK),
        )

    spans = [
        span(1, "invoke_agent weather", {"gen_ai.operation.name": "invoke_agent"}),
        span(
            2,
            "chat gpt-4o",
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": orjson.dumps(_GENAI_INPUT).decode(),
                "gen_ai.output.messages": orjson.dumps([_GENAI_CALL]).decode(),
                "gen_ai.usage.input_tokens": 20,
            },
        ),
        span(
            3,
            "execute_tool get_weather",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_weather",
                "gen_ai.tool.call.id": "call_w",
                "gen_ai.tool.call.arguments": '{"city": "Paris"}',
                "gen_ai.tool.call.result": "rainy, 57°F",
            },
        ),
        span(
            4,
            "chat gpt-4o",
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": orjson.dumps(
                    [*_GENAI_INPUT, _GENAI_CALL, _GENAI_REPLY]
                ).decode(),
                "gen_ai.output.messages": orjson.dumps([_GENAI_ANSWER]).decode(),
            },
        ),
    ]
    resource_values: dict[str, Any] = {"service.name": service}
    if touchpoint is not None:
        resource_values["tracegrade.touchpoint"] = touchpoint
    request = ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(attributes=_pb_attributes(resource_values)),
                scope_spans=[ScopeSpans(scope=InstrumentationScope(name="tests"), spans=spans)],
            )
        ]
    )
    body: bytes = request.SerializeToString()
    return body


def hex_id(text: str, digits: int) -> str:
    """A stable hex id for a fixture's non-hex id (OTLP ids are hex)."""
    return hashlib.sha256(text.encode()).hexdigest()[:digits]


def _nanoseconds(iso: str) -> str:
    moment = datetime.fromisoformat(iso)
    return str(int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1000)


def phoenix_as_otlp(spans: list[dict[str, Any]]) -> dict[str, Any]:
    """Phoenix span JSON as the OTLP JSON export an OpenInference exporter would have sent.

    Ids become hex (hashed), ``span_kind`` the ``openinference.span.kind`` attribute it came
    from, ``start_time`` nanoseconds and ``status_code`` ERROR status code 2.
    """
    converted = []
    for span in spans:
        trace = span["context"]["trace_id"]
        values = {"openinference.span.kind": span["span_kind"], **span["attributes"]}
        otlp: dict[str, Any] = {
            "traceId": hex_id(trace, 32),
            "spanId": hex_id(f"{trace}/{span['context']['span_id']}", 16),
            "name": span["name"],
            "startTimeUnixNano": _nanoseconds(span["start_time"]),
            "attributes": attributes(values),
            "status": {"code": 2} if span.get("status_code") == "ERROR" else {},
        }
        if span.get("parent_id"):
            otlp["parentSpanId"] = hex_id(f"{trace}/{span['parent_id']}", 16)
        converted.append(otlp)
    return json_export(converted)
