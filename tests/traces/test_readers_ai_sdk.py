"""The Vercel AI SDK reader: ai.* spans in the OTel JS console-exporter and OTLP envelopes."""

from __future__ import annotations

import orjson
import pytest

from tests.helpers.readers import READER_FIXTURES, format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import ToolCallFrame, ToolResultFrame, UserFrame, read_trace

FIXTURES = READER_FIXTURES / "ai-sdk"


def test_console_exporter_spans() -> None:
    trace = read_trace(FIXTURES / "console_exporter.jsonl")
    assert (trace.id, trace.source_format) == ("4bf92f3577b34da6a3ce929d0e0e4736", "ai-sdk")
    assert trace.model == "gpt-4.1-mini-2025-04-14"
    # 4 spans: the root, two model calls (the second re-sends the first's messages) and a
    # tool call: system, user, the call, its result, the answer.
    assert [f.type for f in trace.frames] == [
        "system",
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    assert trace.frames[2] == ToolCallFrame(
        id="call_w1",
        name="readSetting",
        args={"key": "REFUND_WINDOW_DAYS"},
        origin="span b1b2c3d4e5f60718, ai.response",
    )
    # The value the model saw in the next prompt (v5 output {type: json, value}).
    assert trace.frames[3] == ToolResultFrame(
        id="call_w1",
        ok=True,
        result={"key": "REFUND_WINDOW_DAYS", "value": 45, "file": "billing/config.py"},
        origin="span c1b2c3d4e5f60718",
    )
    assert trace.metadata["usage"] == {"input_tokens": 210, "output_tokens": 40}
    assert trace.metadata["root_span"] == "ai.generateText"
    assert trace.task == "How many days is the refund window?"


def test_otlp_export_of_an_ai_sdk_4_stream() -> None:
    trace = read_trace(FIXTURES / "otlp_stream_text.json")
    assert trace.source_format == "ai-sdk"
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result", "assistant"]
    assert trace.frames[1] == ToolCallFrame(
        id="call_s1",
        name="grep",
        args={"pattern": "REFUND_WINDOW"},
        origin="span 2222222222222222, ai.response",
    )
    assert trace.frames[2] == ToolResultFrame(
        id="call_s1",
        ok=True,
        result="billing/config.py:2:REFUND_WINDOW_DAYS = 45",
        origin="span 3333333333333333",
    )
    assert trace.metadata["usage"] == {"input_tokens": 130, "output_tokens": 26}
    assert trace.model == "claude-3-5-haiku-latest"


def test_a_root_span_alone_gives_the_request_and_the_answer() -> None:
    root = {
        "traceId": "t1",
        "id": "s1",
        "name": "ai.generateText",
        "timestamp": 1,
        "attributes": {
            "ai.operationId": "ai.generateText",
            "ai.prompt": orjson.dumps({"prompt": "Refund window?"}).decode(),
            "ai.response.text": "45 days.",
        },
    }
    trace = read_trace(orjson.dumps([root]), format_name="ai-sdk")
    assert trace.frames == (
        UserFrame(content="Refund window?", origin="span s1, input"),
        trace.frames[1],
    )
    assert trace.final_answer == "45 days."


def test_invalid_names_the_span_and_message() -> None:
    message = format_error(FIXTURES / "invalid.jsonl")
    assert "line 4 (d1b2c3d4…): ai.prompt.messages[0]: unknown role 'robot'" in message


def test_truncated() -> None:
    assert "line 4: not valid JSON" in format_error(FIXTURES / "truncated.jsonl")


def test_a_readable_span_dump_is_refused_with_the_reason() -> None:
    message = format_error(FIXTURES / "other_version.json")
    assert "span 0: an OpenTelemetry JS ReadableSpan serialised as it is in memory" in message


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ({"traceId": "t", "id": ""}, "'id' must be a non-empty string"),
        ({"traceId": "t", "id": "s", "timestamp": "now"}, "'timestamp' must be microseconds"),
        (
            {"traceId": "t", "id": "s", "attributes": {"ai.operationId": "ai.toolCall"}},
            "the ai.toolCall span has no 'ai.toolCall.name'",
        ),
        (
            {
                "traceId": "t",
                "id": "s",
                "attributes": {
                    "ai.operationId": "ai.generateText.doGenerate",
                    "ai.prompt.messages": "[{",
                },
            },
            "'ai.prompt.messages' is not valid JSON",
        ),
    ],
)
def test_malformed_spans(span: dict[str, object], expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_trace(orjson.dumps([span]), format_name="ai-sdk")
    assert expected in str(caught.value)
