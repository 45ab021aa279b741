"""The OTel GenAI reader: golden fixtures and the shared attribute map read in place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import corpus_root
from tests.helpers.readers import format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    read_trace,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "otel-genai"


def fails(path: Path) -> str:
    return format_error(path)


def test_valid_otlp_export() -> None:
    trace = read_trace(FIXTURES / "valid.json")
    assert [f.model_copy(update={"origin": None}) for f in trace.frames] == [
        SystemFrame(content="You are a weather assistant."),
        UserFrame(content="Weather in Paris?"),
        AssistantFrame(content="Let me check."),
        ToolCallFrame(id="call_w1", name="get_weather", args={"location": "Paris"}),
        ToolResultFrame(id="call_w1", ok=True, result="rainy, 57°F"),
        AssistantFrame(content="It is rainy in Paris, 57°F."),
        # An execute_tool span no model output announced: its own call, and a failed result
        # (status ERROR, error.type).
        ToolCallFrame(id="call_f2", name="get_forecast", args={"days": 3}),
        ToolResultFrame(id="call_f2", ok=False, result="service unavailable"),
    ]
    assert trace.id == "0af7651916cd43dd8448eb211c80319c"
    assert trace.model == "gpt-4.1-mini-2025-04-14"  # gen_ai.response.model
    assert trace.metadata["usage"] == {"input_tokens": 80, "output_tokens": 24}
    assert trace.frames[1].origin == "span 00f067aa0ba902b7, gen_ai.input.messages[0]"
    assert trace.frames[4].origin == "span 53995c3f42cd8ad8"


def test_older_conventions() -> None:
    # gen_ai.prompt / gen_ai.completion attributes, then message events and gen_ai.choice.
    trace = read_trace(FIXTURES / "other_version.json")
    assert [f.model_copy(update={"origin": None}) for f in trace.frames] == [
        UserFrame(content="Weather in Paris?"),
        AssistantFrame(content="Let me check."),
        ToolCallFrame(id="call_w1", name="get_weather", args={"location": "Paris"}),
        ToolResultFrame(id="call_w1", ok=True, result="rainy, 57°F"),
        AssistantFrame(content="It is rainy in Paris, 57°F."),
    ]
    assert trace.model == "gpt-4"
    assert trace.frames[3].origin == "span e457b5a2e4d86bd1, event 2"


def test_invalid_names_span_and_attribute() -> None:
    message = fails(FIXTURES / "invalid.json")
    assert (
        "resourceSpans 0, scopeSpans 0, span 3 (e457b5a2…): 'gen_ai.input.messages' is not"
        " valid JSON" in message
    )


def test_truncated_is_not_json() -> None:
    assert "not valid JSON" in fails(FIXTURES / "truncated.json")


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        (
            {"gen_ai.operation.name": "chat", "gen_ai.input.messages": "42"},
            "must be a list of messages, got number",
        ),
        (
            {"gen_ai.operation.name": "chat", "gen_ai.input.messages": '[{"role": "x"}]'},
            "attributes: gen_ai.input.messages[0]: unknown role 'x'",
        ),
        ({"gen_ai.operation.name": "execute_tool"}, "has no 'gen_ai.tool.name'"),
    ],
)
def test_malformed_attribute_maps(attributes: dict[str, Any], expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(orjson.dumps(attributes), format_name="otel-genai"))
    assert expected in str(caught.value)


def test_unknown_otlp_value_type() -> None:
    export = {
        "resourceSpans": [
            {
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": "t",
                                "spanId": "s",
                                "attributes": [
                                    {"key": "gen_ai.tool.name", "value": {"mapValue": {}}}
                                ],
                            }
                        ]
                    }
                ]
            }
        ]
    }
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(orjson.dumps(export), format_name="otel-genai"))
    assert "span 0 (s), attribute 'gen_ai.tool.name': unknown OTLP value type 'mapValue'" in str(
        caught.value
    )


def test_execute_tool_attribute_map() -> None:
    # One execute_tool span on its own: a call and its result, no conversation.
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.arguments": '{"location": "Paris"}',
        "gen_ai.tool.call.result": "rainy, 57°F",
    }
    trace = read_trace(orjson.dumps(attributes))
    assert trace.tool_path == ("get_weather",)
    call, result = trace.frames
    assert isinstance(call, ToolCallFrame)
    assert call.args == {"location": "Paris"}
    assert result == ToolResultFrame(
        id="call_1", ok=True, result="rainy, 57°F", origin="attributes"
    )


def test_real_genai_attribute_map() -> None:
    path = (
        corpus_root()
        / "trace_fixtures"
        / "otel_span_attributes"
        / "otel_genai_client_span_tool_calls.json"
    )
    if not path.is_file():
        pytest.skip(f"real corpus file not found at {path}: set TRACEGRADE_CORPUS to run it")
    raw = orjson.loads(path.read_bytes())
    trace = read_trace(path)
    # Read by hand: one chat span; the input re-sends user, assistant (text and the
    # get_weather call 1234) and the tool response; the output is the answer.
    kinds = [f.type for f in trace.frames]
    assert (kinds.count("user"), kinds.count("tool_call"), kinds.count("tool_result")) == (1, 1, 1)
    assert (
        trace.final_answer == "The weather in Paris is currently rainy with a temperature of 57°F."
    )
    messages = orjson.loads(raw["gen_ai.input.messages"])
    parts = [p for m in messages for p in m["parts"]]
    assert kinds.count("tool_call") == sum(p["type"] == "tool_call" for p in parts)
    assert kinds.count("tool_result") == sum(p["type"] == "tool_call_response" for p in parts)
    assert kinds.count("user") == sum(m["role"] == "user" for m in messages)
    assert trace.metadata["usage"] == {
        "input_tokens": raw["gen_ai.usage.input_tokens"],
        "output_tokens": raw["gen_ai.usage.output_tokens"],
    }
