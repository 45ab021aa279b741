"""Agent runs as the OTLP exports an instrumented agent sends: OpenInference JSON, GenAI protobuf.

Each run is a support agent answering a customer: a user question, two to four tool calls
(``read_file`` of a config, ``search_orders`` returning JSON rows, ``get_policy`` returning
prose), each result holding figures, dates and paths, and a final answer that cites some of
them and, in about one run in four, a figure no tool returned (seeded). Half the runs are
OpenInference spans (an AGENT root, an LLM span per turn carrying the whole message history,
a TOOL span per call) sent as OTLP JSON; the other half are OTel GenAI spans
(``invoke_agent``, ``chat`` with ``gen_ai.input.messages``/``output.messages``,
``execute_tool``) sent as protobuf, the two encodings docs/otlp.md says the receiver takes.
Several runs go in one request, as a batch span processor sends them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import orjson
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, InstrumentationScope, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

JSON = "application/json"
PROTOBUF = "application/x-protobuf"
T0 = 1_767_000_000_000_000_000  # nanoseconds since the epoch
SERVICE = "support-agent"


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call of a run: its id, tool, JSON arguments and result text."""

    call_id: str
    tool: str
    arguments: str
    result: str


@dataclass(frozen=True, slots=True)
class Run:
    """One agent run: the question, its tool calls and the final answer."""

    trace_id: str
    question: str
    calls: tuple[Call, ...]
    answer: str


@dataclass(frozen=True, slots=True)
class Request:
    """One ``POST /v1/traces`` body, its content type and the trace ids it carries."""

    content_type: str
    body: bytes
    trace_ids: tuple[str, ...]


def _calls(number: int, rng: random.Random) -> tuple[list[Call], list[str]]:
    """Tool calls with figures in their results, and the facts an answer may cite."""
    window = rng.choice((14, 30, 45, 60, 90))
    limit = rng.randrange(100, 2_000, 50)
    orders = [
        {
            "order": f"A-{rng.randrange(10_000, 99_999)}",
            "total": f"${rng.randrange(20, 3_000)}.{rng.randrange(100):02d}",
            "placed": f"2026-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}",
            "status": rng.choice(("shipped", "delivered", "returned", "pending")),
        }
        for _ in range(rng.randrange(2, 7))
    ]
    config = "\n".join(
        [
            "# refund settings, owned by billing",
            f"REFUND_WINDOW_DAYS = {window}",
            f"MANAGER_APPROVAL_OVER = {limit}",
            f"RESTOCKING_FEE_PERCENT = {rng.randrange(0, 25)}",
            *(f"# note {k}: reviewed in 2025-Q{k % 4 + 1}" for k in range(rng.randrange(5, 30))),
        ]
    )
    policy = (
        f"Customers may return an item within {window} days of delivery. Refunds above"
        f" ${limit} need a manager's approval; store credit is issued within"
        f" {rng.randrange(2, 10)} business days. See https://help.example.com/refunds."
    ) * rng.randrange(1, 6)
    every = [
        Call("", "read_file", '{"path": "billing/refunds.py"}', config),
        Call(
            "", "search_orders", f'{{"customer": "C-{number:05d}"}}', orjson.dumps(orders).decode()
        ),
        Call("", "get_policy", '{"topic": "refunds"}', policy),
    ]
    chosen = every[: rng.randrange(2, 4)]
    if rng.random() < 0.3:  # a second search: four calls
        chosen.append(every[1])
    calls = [
        Call(f"call_{number}_{k}", c.tool, c.arguments, c.result) for k, c in enumerate(chosen)
    ]
    first = orders[0]
    facts = [
        f"the refund window is {window} days (billing/refunds.py)",
        f"order {first['order']} totalled {first['total']} and was placed on {first['placed']}",
        f"refunds over ${limit} need a manager's approval",
    ]
    return calls, facts


def make_runs(count: int, seed: int = 20_261_201) -> list[Run]:
    """``count`` runs, the same for the same seed."""
    rng = random.Random(seed)
    runs = []
    for number in range(count):
        calls, facts = _calls(number, rng)
        said = rng.sample(facts, k=rng.randrange(1, len(facts) + 1))
        if rng.random() < 0.25:  # a figure no tool returned
            said.append(f"the refund reaches the card within {rng.randrange(3, 12)} days")
        answer = "Here is what I found: " + "; ".join(said) + "."
        question = f"Customer C-{number:05d} asks whether their latest order can be refunded."
        runs.append(Run(f"{seed:08x}{number + 1:024x}"[-32:], question, tuple(calls), answer))
    return runs


def _span_id(run: int, number: int) -> str:
    return f"{run % 0xFFFFFFFF:08x}{number + 1:08x}"


def _any_value(value: object) -> dict[str, Any]:
    if isinstance(value, int):
        return {"intValue": str(value)}
    return {"stringValue": str(value)}


def _openinference_spans(run: Run, index: int) -> list[dict[str, Any]]:
    """AGENT root, then per turn an LLM span (whole history) and the TOOL span it asked for."""
    root = _span_id(index, 0)
    spans: list[tuple[str, dict[str, object]]] = [
        (
            "agent",
            {
                "openinference.span.kind": "AGENT",
                "input.value": run.question,
                "output.value": run.answer,
            },
        )
    ]
    history: dict[str, object] = {
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": run.question,
    }
    at = 1  # the index of the next message in the history
    for call in run.calls:
        asked = {
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.tool_calls.0.tool_call.id": call.call_id,
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": call.tool,
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": (
                call.arguments
            ),
        }
        llm: dict[str, object] = {
            "openinference.span.kind": "LLM",
            "llm.model_name": "gpt-4o",
            **history,
            **asked,
        }
        spans.append(("ChatCompletion", llm))
        tool: dict[str, object] = {
            "openinference.span.kind": "TOOL",
            "tool.name": call.tool,
            "tool_call.id": call.call_id,
            "input.value": call.arguments,
            "output.value": call.result,
        }
        spans.append((call.tool, tool))
        history.update(
            {
                key.replace("output_messages.0", f"input_messages.{at}"): value
                for key, value in asked.items()
            }
        )
        history[f"llm.input_messages.{at + 1}.message.role"] = "tool"
        history[f"llm.input_messages.{at + 1}.message.tool_call_id"] = call.call_id
        history[f"llm.input_messages.{at + 1}.message.content"] = call.result
        at += 2
    last = {
        "openinference.span.kind": "LLM",
        "llm.model_name": "gpt-4o",
        **history,
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": run.answer,
    }
    spans.append(("ChatCompletion", last))
    out = []
    for number, (name, values) in enumerate(spans):
        span: dict[str, Any] = {
            "traceId": run.trace_id,
            "spanId": _span_id(index, number),
            "name": name,
            "kind": 1,
            "startTimeUnixNano": str(T0 + index * 10**9 + number * 10**6),
            "endTimeUnixNano": str(T0 + index * 10**9 + number * 10**6 + 500_000),
            "attributes": [{"key": k, "value": _any_value(v)} for k, v in values.items()],
            "status": {},
        }
        if number:
            span["parentSpanId"] = root
        out.append(span)
    return out


def json_request(runs: list[tuple[int, Run]]) -> Request:
    """An OTLP JSON export of OpenInference runs."""
    spans = [span for index, run in runs for span in _openinference_spans(run, index)]
    export = {
        "resourceSpans": [
            {
                "resource": {"attributes": [{"key": "service.name", "value": _any_value(SERVICE)}]},
                "scopeSpans": [
                    {"scope": {"name": "openinference.instrumentation"}, "spans": spans}
                ],
            }
        ]
    }
    return Request(JSON, orjson.dumps(export), tuple(run.trace_id for _, run in runs))


def _pb_attributes(values: dict[str, object]) -> list[KeyValue]:
    return [
        KeyValue(
            key=key,
            value=AnyValue(int_value=value)
            if isinstance(value, int)
            else AnyValue(string_value=str(value)),
        )
        for key, value in values.items()
    ]


def _genai_spans(run: Run, index: int) -> list[Span]:
    """``invoke_agent`` root, then per turn a ``chat`` span and its ``execute_tool`` span."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "parts": [{"type": "text", "content": run.question}]}
    ]
    spans: list[tuple[str, dict[str, object]]] = [
        ("invoke_agent support", {"gen_ai.operation.name": "invoke_agent"})
    ]
    chat = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"}
    for call in run.calls:
        part = {
            "type": "tool_call",
            "id": call.call_id,
            "name": call.tool,
            "arguments": orjson.loads(call.arguments),
        }
        asked = {"role": "assistant", "parts": [part]}
        spans.append(
            (
                "chat gpt-4o",
                {
                    **chat,
                    "gen_ai.input.messages": orjson.dumps(messages).decode(),
                    "gen_ai.output.messages": orjson.dumps([asked]).decode(),
                    "gen_ai.usage.input_tokens": 40 * len(messages),
                },
            )
        )
        tool: dict[str, object] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.tool,
            "gen_ai.tool.call.id": call.call_id,
            "gen_ai.tool.call.arguments": call.arguments,
            "gen_ai.tool.call.result": call.result,
        }
        spans.append((f"execute_tool {call.tool}", tool))
        reply = {"type": "tool_call_response", "id": call.call_id, "response": call.result}
        messages += [asked, {"role": "tool", "parts": [reply]}]
    answer = {"role": "assistant", "parts": [{"type": "text", "content": run.answer}]}
    spans.append(
        (
            "chat gpt-4o",
            {
                **chat,
                "gen_ai.input.messages": orjson.dumps(messages).decode(),
                "gen_ai.output.messages": orjson.dumps([answer]).decode(),
            },
        )
    )
    trace_id = bytes.fromhex(run.trace_id)
    root = bytes.fromhex(_span_id(index, 0))
    return [
        Span(
            trace_id=trace_id,
            span_id=bytes.fromhex(_span_id(index, number)),
            parent_span_id=root if number else b"",
            name=name,
            kind=Span.SPAN_KIND_CLIENT,
            start_time_unix_nano=T0 + index * 10**9 + number * 10**6,
            end_time_unix_nano=T0 + index * 10**9 + number * 10**6 + 500_000,
            attributes=_pb_attributes(values),
        )
        for number, (name, values) in enumerate(spans)
    ]


def protobuf_request(runs: list[tuple[int, Run]]) -> Request:
    """An OTLP protobuf export of OTel GenAI runs."""
    spans = [span for index, run in runs for span in _genai_spans(run, index)]
    export = ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(attributes=_pb_attributes({"service.name": SERVICE})),
                scope_spans=[ScopeSpans(scope=InstrumentationScope(name="genai"), spans=spans)],
            )
        ]
    )
    body: bytes = export.SerializeToString()
    return Request(PROTOBUF, body, tuple(run.trace_id for _, run in runs))


def requests(runs: list[Run], per_request: int) -> list[Request]:
    """The runs in requests of ``per_request``: OpenInference JSON and GenAI protobuf in turn."""
    out = []
    for start in range(0, len(runs), per_request):
        chunk = list(enumerate(runs))[start : start + per_request]
        number = start // per_request
        out.append(json_request(chunk) if number % 2 == 0 else protobuf_request(chunk))
    return out
