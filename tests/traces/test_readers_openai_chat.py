"""Golden fixtures of the openai-chat reader: what each valid file reads into, how bad ones fail."""

from __future__ import annotations

from pathlib import Path

import pytest

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

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "openai-chat"


def fails(name: str, **options: str) -> str:
    """The message of the TraceFormatError raised for a fixture; it must name the file."""
    return format_error(FIXTURES / name, **options)


def test_object_with_messages() -> None:
    trace = read_trace(FIXTURES / "valid.json")
    assert (trace.id, trace.model, trace.commit, trace.outcome) == (
        "refund-check-1",
        "gpt-4o-mini",
        None,
        None,
    )
    assert trace.tokens == ()
    assert trace.metadata == {"temperature": 0}
    assert [frame.type for frame in trace.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    system, user, _, read, grep, grep_out, read_out, listing, listing_out, answer = trace.frames
    assert isinstance(system, SystemFrame)
    # Text parts are joined; the image part carries no text.
    assert isinstance(user, UserFrame)
    assert user.content == "How many days is the refund window?"
    assert trace.task == user.content
    assert isinstance(read, ToolCallFrame)
    assert (read.id, read.name, read.args) == ("call_a", "read_file", {"path": "billing/config.py"})
    # Arguments that are not valid JSON are kept as the raw string.
    assert isinstance(grep, ToolCallFrame)
    assert grep.args == "{pattern: REFUND"
    # Results out of order stay in time order, each with its own call's id.
    assert isinstance(grep_out, ToolResultFrame)
    assert (grep_out.id, grep_out.ok, grep_out.result) == ("call_b", True, "")  # null content
    assert isinstance(read_out, ToolResultFrame)
    assert (read_out.id, read_out.result) == ("call_a", "REFUND_WINDOW_DAYS = 45")
    # Arguments given as an object are kept as the object.
    assert isinstance(listing, ToolCallFrame)
    assert listing.args == {"folder": "billing"}
    assert isinstance(listing_out, ToolResultFrame)
    assert listing_out.result == "billing/config.py\nbilling/refunds.py"
    assert isinstance(answer, AssistantFrame)
    assert trace.final_answer == "The refund window is 45 days (billing/config.py)."
    assert "renamed_call_ids" not in trace.metadata


def test_reused_ids_are_rewritten_so_each_result_keeps_its_call() -> None:
    trace = read_trace(FIXTURES / "reused_ids.json")
    assert trace.id == "reused_ids"  # a bare list: the file name
    calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
    results = [f for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert [(c.id, c.name) for c in calls] == [
        ("call_1", "get_plan"),
        ("call_1#2", "get_plan"),
        ("call_1#3", "calculate"),
    ]
    # Two parallel calls under one id: paired by position.
    assert [(r.id, r.result) for r in results] == [
        ("call_1", '{"plan": "basic", "price": 9}'),
        ("call_1#2", '{"plan": "pro", "price": 29}'),
        ("call_1#3", "20"),
    ]
    assert trace.metadata["renamed_call_ids"] == {"call_1#2": "call_1", "call_1#3": "call_1"}
    assert isinstance(trace.frames[0], SystemFrame)  # role developer
    # The simulator's control token is kept as written.
    last = trace.frames[-1]
    assert isinstance(last, UserFrame)
    assert last.content == "Thanks! ###STOP###"


def test_grader_pairing_rule_finds_each_results_own_call() -> None:
    # The grader pairs a result with the latest earlier call of the same id.
    trace = read_trace(FIXTURES / "reused_ids.json")
    answered: dict[str, str] = {}
    latest: dict[str, ToolCallFrame] = {}
    for frame in trace.frames:
        if isinstance(frame, ToolCallFrame):
            latest[frame.id] = frame
        elif isinstance(frame, ToolResultFrame):
            answered[str(frame.result)] = str(latest[frame.id].args)
    assert answered['{"plan": "pro", "price": 29}'] == "{'plan': 'pro'}"
    assert answered["20"] == "{'expression': '29 - 9'}"


def test_jsonl_reads_one_run_per_line() -> None:
    first, second = read_traces(FIXTURES / "valid.jsonl")
    assert first.id == "valid-line-1"
    assert first.task == "What is 2 + 3?"
    assert second.id == "weather-7"
    # The legacy function_call / function message pair.
    call, result = second.frames[1], second.frames[2]
    assert isinstance(call, ToolCallFrame)
    assert isinstance(result, ToolResultFrame)
    assert (call.name, call.args) == ("get_weather", {"city": "Oslo"})
    assert result.id == call.id
    assert result.result == '{"temp_c": -3}'


def test_responses_api_items() -> None:
    trace = read_trace(FIXTURES / "responses.json")
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result", "assistant"]
    call, result = trace.frames[1], trace.frames[2]
    assert isinstance(call, ToolCallFrame)
    assert isinstance(result, ToolResultFrame)
    assert (call.id, call.args, result.id, result.result) == (
        "call_p",
        {"path": "src/server.ts"},
        "call_p",
        "const PORT = 4321",
    )
    assert trace.final_answer == "It listens on 4321."


def test_unknown_role_names_the_message() -> None:
    message = fails("invalid_role.json")
    assert "message 2: unknown role 'robot'" in message
    assert "system, developer, user, assistant, tool" in message


def test_bad_jsonl_line_names_the_line_and_message() -> None:
    message = fails("invalid_line.jsonl")
    assert "line 2, message 1: 'tool_calls' must be a list, got object" in message


def test_truncated_json() -> None:
    message = fails("truncated.json")
    assert "not valid JSON" in message
    assert "truncated" in message


def test_truncated_jsonl_names_the_line() -> None:
    message = fails("truncated.jsonl")
    assert "line 2: not valid JSON" in message


def test_langchain_dump_is_another_shape() -> None:
    # Detected as langchain now (tests/traces/test_readers_langchain.py); forced, it fails here.
    message = fails("other_shape_langchain.json", format_name="openai-chat")
    assert "message 0: unknown item type 'human'" in message


def test_native_trace_forced_through_openai_chat_says_what_it_expected() -> None:
    path = FIXTURES.parent.parent / "traces" / "valid.json"
    with pytest.raises(TraceFormatError) as caught:
        read_trace(path, format_name="openai-chat")
    assert "expected a list of messages or an object with 'messages'" in str(caught.value)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'[{"role": "user", "content": 7}]', "message 0: 'content' must be a string"),
        (b'[{"content": "hi"}]', "message 0: no 'role'"),
        (b'["hi"]', "message 0: a message must be a JSON object, got string"),
        (
            b'[{"role": "assistant", "tool_calls": [{"id": "a", "function": {}}]}]',
            "message 0, tool call 0: the tool call has no function name",
        ),
        (
            b'[{"role": "assistant", "tool_calls": [{"id": 5, "function": {"name": "f"}}]}]',
            "message 0, tool call 0: the call id must be a string, got number",
        ),
        (b'[{"role": "tool", "content": "x"}]', "message 0: a tool result with no call id"),
        (b"[]", "the run has no messages"),
        (b'{"messages": [], "id": "x"}', "the run has no messages"),
        (b'[{"type": "web_search_call", "id": "ws"}]', "unknown item type 'web_search_call'"),
    ],
)
def test_malformed_messages(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_trace(data, format_name="openai-chat")
    assert expected in str(caught.value)
    assert "<bytes>" in str(caught.value)


def test_orphan_result_keeps_its_id_and_a_second_result_joins_the_latest_call() -> None:
    data = (
        b'[{"role": "user", "content": "q"},'
        b'{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}]},'
        b'{"role": "tool", "tool_call_id": "a", "content": "one"},'
        b'{"role": "tool", "tool_call_id": "a", "content": "again"},'
        b'{"role": "tool", "tool_call_id": "zz", "content": "orphan"}]'
    )
    trace = read_trace(data, format_name="openai-chat")
    results = [(f.id, f.result) for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert results == [("a", "one"), ("a", "again"), ("zz", "orphan")]
    call = trace.frames[1]
    assert isinstance(call, ToolCallFrame)
    assert call.args is None


def test_no_user_message_gives_a_placeholder_task() -> None:
    trace = read_trace(b'[{"role": "assistant", "content": "hi"}]', format_name="openai-chat")
    assert trace.task == "(no user message)"


def test_detection_from_bytes_alone() -> None:
    trace = read_trace(b'[{"role": "user", "content": "hello"}]')
    assert trace.id == "trace"
    assert not next(iter(read_traces(FIXTURES / "valid.jsonl"))).metadata


def test_a_renamed_id_never_collides_with_a_source_id() -> None:
    data = (
        b'[{"role": "user", "content": "q"},'
        b'{"role": "assistant", "tool_calls": ['
        b'{"id": "x", "function": {"name": "f"}}, {"id": "x#2", "function": {"name": "g"}},'
        b'{"id": "x", "function": {"name": "h"}}, {"id": "", "function": {"name": "k"}}]},'
        b'{"role": "tool", "tool_call_id": "x", "content": "f out"},'
        b'{"role": "tool", "tool_call_id": "x#2", "content": "g out"},'
        b'{"role": "tool", "tool_call_id": "x", "content": "h out"},'
        b'{"role": "tool", "content": "k out"}]'
    )
    trace = read_trace(data, format_name="openai-chat")
    calls = {f.id: f.name for f in trace.frames if isinstance(f, ToolCallFrame)}
    assert calls == {"x": "f", "x#2": "g", "x#3": "h", "call-4": "k"}
    results = {f.id: f.result for f in trace.frames if isinstance(f, ToolResultFrame)}
    assert results == {"x": "f out", "x#2": "g out", "x#3": "h out", "call-4": "k out"}
