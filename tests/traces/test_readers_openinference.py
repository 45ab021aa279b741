"""The OpenInference reader: golden fixtures, the weather equivalence, the real Phoenix files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.helpers.readers import format_error, real_corpus_file
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    Trace,
    UserFrame,
    read_trace,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "openinference"


def corpus_file(folder: str, name: str) -> Path:
    return real_corpus_file("trace_fixtures", folder, name)


def fails(path: Path, **options: str) -> str:
    return format_error(path, **options)


def without_origin(trace: Trace) -> list[dict[str, Any]]:
    return [frame.model_dump(exclude={"origin"}) for frame in trace.frames]


WEATHER = [
    SystemFrame(content="You are a weather assistant."),
    UserFrame(content="Weather in Paris?"),
    AssistantFrame(content="Let me check."),
    ToolCallFrame(id="call_w1", name="get_weather", args={"location": "Paris"}),
    ToolResultFrame(id="call_w1", ok=True, result="rainy, 57°F"),
    AssistantFrame(content="It is rainy in Paris, 57°F."),
]


def test_valid_phoenix_spans() -> None:
    weather, failing = read_traces(FIXTURES / "valid.json")
    # Spans are listed out of order: the walk follows start times, and the second LLM span's
    # re-sent history (system, user, call, tool message) adds nothing new.
    assert [f.model_copy(update={"origin": None}) for f in weather.frames] == WEATHER
    assert weather.id == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert (weather.model, weather.task) == ("gpt-4.1-mini", "Weather in Paris?")
    assert weather.metadata == {
        "spans": 4,
        "root_span": "agent",
        "session_id": "session-7",
        "usage": {"input_tokens": 80, "output_tokens": 24},
    }
    # The LLM output announced the call; the TOOL span gives the result (its LangChain
    # ToolMessage wrapper unwrapped, and equal to what the next LLM input shows).
    assert [f.origin for f in weather.frames] == [
        "span 5fb397be34d26b51, llm.input_messages.0",
        "span 5fb397be34d26b51, llm.input_messages.1",
        "span 5fb397be34d26b51, llm.output_messages.0",
        "span 5fb397be34d26b51, llm.output_messages.0",
        "span 6e0c63257de34c92",
        "span 00f067aa0ba902b7, llm.output_messages.0",
    ]
    # A second trace in the same file: a failing TOOL span with no call id, alone.
    assert failing.id == "b7ad6b7169203331"
    assert failing.task == "(no user message)"
    call, result = failing.frames
    assert call == ToolCallFrame(id="span-c1", name="lookup", args={"q": "Lyon"}, origin="span c1")
    assert isinstance(result, ToolResultFrame)
    assert (result.id, result.ok, result.result) == ("span-c1", False, "Error: timeout")


def test_otlp_export_reads_like_phoenix_json() -> None:
    otlp = read_trace(FIXTURES / "other_version.json")
    phoenix = next(iter(read_traces(FIXTURES / "valid.json")))
    assert otlp.frames == phoenix.frames
    assert (otlp.id, otlp.model, otlp.metadata) == (phoenix.id, phoenix.model, phoenix.metadata)


def test_nested_attributes_and_jsonl() -> None:
    flat = orjson.loads((FIXTURES / "valid.json").read_bytes())[:4]
    nested = []
    for span in flat:
        tree: dict[str, Any] = {}
        for key, value in span["attributes"].items():
            node = tree
            *path, last = key.split(".")
            for part in path:
                node = node.setdefault(part, {})
            node[last] = value
        nested.append({**span, "attributes": tree})
    # Nested dicts (with numeric keys for indexes) are joined back to the flat names.
    assert (
        read_trace(orjson.dumps(nested), format_name="openinference").frames
        == read_trace(orjson.dumps(flat), format_name="openinference").frames
    )
    export = (FIXTURES / "other_version.json").read_bytes()
    lines = orjson.dumps(orjson.loads(export)) + b"\n\n"
    path_like = read_traces(lines, format_name="openinference")
    assert [f.type for f in next(iter(path_like)).frames][-1] == "assistant"


def test_indexed_lists_as_json_lists() -> None:
    span = {
        "name": "llm",
        "context": {"trace_id": "t", "span_id": "s"},
        "span_kind": "LLM",
        "attributes": {
            "llm": {
                "input_messages": [{"message": {"role": "user", "content": "Hi"}}],
                "output_messages": [{"message": {"role": "assistant", "content": "Hello"}}],
            }
        },
    }
    trace = read_trace(orjson.dumps([span]), format_name="openinference")
    assert [(f.type, f.content) for f in trace.frames] == [("user", "Hi"), ("assistant", "Hello")]  # type: ignore[union-attr]


def test_invalid_names_span_and_message() -> None:
    message = fails(FIXTURES / "invalid.json")
    assert (
        "span 2 (5fb397be…): llm.output_messages.0: tool call 0 has no"
        " 'tool_call.function.name'" in message
    )


def test_truncated_is_not_json() -> None:
    assert "not valid JSON" in fails(FIXTURES / "truncated.json")


@pytest.mark.parametrize(
    ("spans", "expected"),
    [
        ([{"name": "x"}], "span 0: 'context' must be an object with trace_id and span_id"),
        (
            [{"context": {"trace_id": "t", "span_id": "s1"}, "start_time": "yesterday"}],
            "span 0 (s1): 'start_time' must be an ISO 8601 time, got 'yesterday'",
        ),
        (
            [
                {
                    "context": {"trace_id": "t", "span_id": "s1"},
                    "span_kind": "LLM",
                    "attributes": {"llm.input_messages.0.message.role": "robot"},
                }
            ],
            "span 0 (s1): llm.input_messages.0: unknown role 'robot'",
        ),
        ({"resourceSpans": [{"scopeSpans": [{"spans": [{"spanId": "ab"}]}]}]}, "'traceId'"),
        ("spans", "expected spans, got string"),
    ],
)
def test_malformed_spans_name_the_span(spans: Any, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(orjson.dumps(spans), format_name="openinference"))
    assert expected in str(caught.value)


def test_detection() -> None:
    assert read_trace(FIXTURES / "other_version.json").id == "4bf92f3577b34da6a3ce929d0e0e4736"
    weather = corpus_file("otel_span_attributes", "openinference_client_span_tool_calls.json")
    assert read_trace(weather).id == "openinference_client_span_tool_calls"


# --- the two shared weather attribute maps: one call in two conventions -----------------


def test_weather_attribute_maps_normalise_to_the_same_trace() -> None:
    folder = "otel_span_attributes"
    openinference = read_trace(corpus_file(folder, "openinference_client_span_tool_calls.json"))
    genai = read_trace(corpus_file(folder, "otel_genai_client_span_tool_calls.json"))
    assert without_origin(openinference) == without_origin(genai)
    assert [f.type for f in openinference.frames] == [
        "user",
        "assistant",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    call, result = openinference.frames[2:4]
    assert call == ToolCallFrame(
        id="1234", name="get_weather", args={"location": "Paris"}, origin=call.origin
    )
    assert isinstance(result, ToolResultFrame)
    assert result.result == "rainy, 57°F"
    assert openinference.final_answer == genai.final_answer
    assert openinference.final_answer.endswith("57°F.")
    assert (openinference.model, genai.model) == ("gpt-4-0613", "gpt-4-0613")
    assert openinference.task == genai.task == "Weather in Paris?"


# --- the real Phoenix span files, read in place ------------------------------------------


def raw_counts(spans: list[dict[str, Any]]) -> dict[str, int]:
    """Counts taken from the raw JSON, independently of the reader."""
    call_ids: set[str] = set()
    result_ids: set[str] = set()
    tool_spans = 0
    for span in spans:
        attributes = span["attributes"]
        if span["span_kind"] == "TOOL":
            tool_spans += 1
            call_id = attributes.get("tool_call.id") or attributes.get("tool.id")
            call_ids.add(call_id or span["context"]["span_id"])
            result_ids.add(call_id or span["context"]["span_id"])
        for key, value in attributes.items():
            if key.endswith(".tool_call.id"):
                call_ids.add(value)
            if key.endswith(".message.tool_call_id"):
                result_ids.add(value)
    return {"tool_spans": tool_spans, "calls": len(call_ids), "results": len(result_ids)}


def frame_counts(trace: Trace) -> dict[str, int]:
    kinds = [f.type for f in trace.frames]
    return {
        "user": kinds.count("user"),
        "tool_call": kinds.count("tool_call"),
        "tool_result": kinds.count("tool_result"),
        "assistant": kinds.count("assistant"),
    }


def test_real_subagent_trace() -> None:
    path = corpus_file("phoenix_openinference_spans", "pxi_turn_subagent_trace.json")
    raw = orjson.loads(path.read_bytes())
    (trace,) = read_traces(path)
    # Read by hand: 38 spans (18 LLM, 18 TOOL, 2 AGENT); a previous turn re-sent in the
    # history (call-01 and its result), then call-02 (call_subagent) whose child agent
    # makes call-03 to call-19, each run by a TOOL span.
    assert trace.id == "fixture-subagent-trace"
    assert trace.model == "claude-fable-5"
    assert frame_counts(trace) == {"user": 3, "tool_call": 19, "tool_result": 19, "assistant": 3}
    assert [f.content for f in trace.frames if isinstance(f, UserFrame)] == [
        "what happened in the previous trace?",
        "please delegate this analysis",
        "inspect the example project",
    ]
    assert trace.task == "please delegate this analysis"  # the root AGENT span's input
    assert trace.final_answer == "The delegated analysis is complete."
    assert trace.tool_path.count("bash") == 13
    # The result is what the model saw (the tool message), not the TOOL span's output '{}'.
    results = [f for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert {f.result for f in results} == {"[tool result]"}
    assert all(f.ok for f in results)
    # call_subagent's result comes after everything its child agent did.
    ids = [f.id for f in trace.frames if isinstance(f, (ToolCallFrame, ToolResultFrame))]
    assert ids[-1] == "call-02"
    # Independent count from the raw JSON.
    counts = raw_counts(raw)
    assert counts == {"tool_spans": 18, "calls": 19, "results": 19}
    assert len(trace.tool_path) == counts["calls"]
    assert len(results) == counts["results"]
    assert trace.metadata["spans"] == len(raw) == 38
    assert not trace.metadata.get("renamed_call_ids")


def test_real_suggestion_traces() -> None:
    path = corpus_file("phoenix_openinference_spans", "pxi_suggestion_traces.json")
    raw = orjson.loads(path.read_bytes())
    traces = list(read_traces(path))
    # Read by hand: three named span lists, one trace each; the maintainers redacted every
    # LLM span ('redacted input' / 'redacted output', no llm.* messages), so the run's text
    # comes from the root AGENT span; 4 TOOL spans each.
    assert [t.metadata["span_list"] for t in traces] == list(raw)
    assert [frame_counts(t) for t in traces] == [
        {"user": 1, "tool_call": 4, "tool_result": 4, "assistant": 1},
        {"user": 1, "tool_call": 4, "tool_result": 4, "assistant": 0},
        {"user": 1, "tool_call": 4, "tool_result": 4, "assistant": 1},
    ]
    assert [t.final_answer for t in traces] == ["redacted output", "", "redacted output"]
    assert [t.tool_path for t in traces] == [
        ("read_prompt_instance", "edit_prompt_instance", "save_prompt", "open_llm_evaluator_form"),
        ("load_skill", "read_prompt_instance", "edit_prompt_instance", "open_llm_evaluator_form"),
        (
            "update_annotation_config",
            "ask_user",
            "update_annotation_config",
            "batch_span_annotate",
        ),
    ]
    rejected = traces[1]
    # load_skill's span has no tool.id: its call is named after the span.
    assert rejected.frames[1] == ToolCallFrame(
        id="span-0000000000000002",
        name="load_skill",
        args="redacted input",
        origin="span 0000000000000002",
    )
    edit = next(
        f for f in rejected.frames if isinstance(f, ToolResultFrame) and f.id == "call_0006"
    )
    assert orjson.loads(edit.result)["status"] == "rejected"
    for trace, spans in zip(traces, raw.values(), strict=True):
        counts = raw_counts(spans)
        assert len(trace.tool_path) == counts["calls"] == counts["tool_spans"]
        assert trace.id == spans[0]["context"]["trace_id"]
        assert trace.model is None  # no span records llm.model_name
