"""The Codex CLI reader: golden rollout files written for these tests."""

from __future__ import annotations

import orjson
import pytest

from tests.helpers.readers import READER_FIXTURES, format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import SystemFrame, ToolCallFrame, ToolResultFrame, UserFrame, read_trace

FIXTURES = READER_FIXTURES / "codex"


def test_valid_rollout() -> None:
    trace = read_trace(FIXTURES / "valid.jsonl")
    assert (trace.id, trace.source_format) == ("0199a3c4-7e21-7b10-9f3a-5c2d1e0b4a77", "codex")
    assert (trace.model, trace.commit) == ("gpt-5-codex", "0.63.0")
    # 17 lines: session_meta, turn_context and 4 event_msg lines give no frame, nor does the
    # reasoning item; 11 response items do (counted by hand).
    assert [f.type for f in trace.frames] == [
        "system",  # developer permissions
        "system",  # AGENTS.md instructions, sent as a user message
        "system",  # <environment_context>, sent as a user message
        "user",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    assert trace.tool_path == ("shell", "local_shell", "apply_patch")
    assert trace.metadata["skipped_lines"] == {
        "event_msg:agent_message": 1,
        "event_msg:token_count": 1,
        "event_msg:user_message": 1,
        "response_item:reasoning": 1,
    }
    assert trace.metadata["usage"]["total_tokens"] == 5330
    assert trace.metadata["git"]["commit_hash"] == "4be1c2d"


def test_injected_context_is_not_the_human() -> None:
    trace = read_trace(FIXTURES / "valid.jsonl")
    users = [f.content for f in trace.frames if isinstance(f, UserFrame)]
    assert users == ["How many days is the refund window?"] == [trace.task]
    context = trace.frames[2]
    assert isinstance(context, SystemFrame)
    assert context.content.startswith("<environment_context>")


def test_calls_and_outputs() -> None:
    trace = read_trace(FIXTURES / "valid.jsonl")
    assert trace.frames[4] == ToolCallFrame(
        id="call_a1",
        name="shell",
        args={
            "command": ["bash", "-lc", "rg -n REFUND_WINDOW billing"],
            "workdir": "/home/dev/shop",
        },
        origin="line 9",
    )
    # The command's output, out of the {"output", "metadata"} JSON string Codex wraps it in.
    assert trace.frames[5] == ToolResultFrame(
        id="call_a1",
        ok=True,
        result="billing/config.py:2:REFUND_WINDOW_DAYS = 45\n",
        origin="line 10",
    )
    # {content, success: false} is a failed result; its content is what the model saw.
    assert trace.frames[7] == ToolResultFrame(
        id="call_a2",
        ok=False,
        result="cat: docs/refunds.md: No such file or directory",
        origin="line 13",
    )
    assert trace.frames[8].type == "tool_call"
    patch = trace.frames[8]
    assert isinstance(patch, ToolCallFrame)
    assert patch.args.startswith("*** Begin Patch")
    assert trace.any_tool_failed
    assert trace.final_answer.startswith("The refund window is 45 days")


def test_an_early_rollout_of_bare_items_reads() -> None:
    trace = read_trace(FIXTURES / "rollout-2025-05-02T10-00-00-early.jsonl")
    assert trace.id == "0199a3c4-7e21-7b10-9f3a-5c2d1e0b4a77"
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result", "assistant"]
    assert trace.metadata["skipped_lines"] == {"record_type:state": 2}


def test_invalid_names_the_line() -> None:
    assert "line 6: unknown role 'robot'" in format_error(FIXTURES / "invalid.jsonl")


def test_truncated_names_the_line() -> None:
    assert "line 9: not valid JSON" in format_error(FIXTURES / "truncated.jsonl")


def test_other_version_names_the_line_it_cannot_place() -> None:
    message = format_error(FIXTURES / "other_version.jsonl")
    assert "line 2: the line has neither a 'type' nor a 'payload'" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            b'{"timestamp": "t", "type": "session_meta", "payload": {"id": "s"}}',
            "no response items",
        ),
        (b'{"type": "response_item", "payload": 3}', "line 1: 'payload' must be a JSON object"),
        (
            (
                b'{"type": "response_item",'
                b' "payload": {"type": "function_call_output", "output": "x"}}'
            ),
            "line 1: a function_call_output with no call_id and no call waiting",
        ),
        (
            b'{"type": "response_item", "payload": {"type": "function_call", "arguments": "{}"}}',
            "line 1: the function_call has no 'name'",
        ),
    ],
)
def test_malformed_lines(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_trace(data, format_name="codex").frames)
    assert expected in str(caught.value)


def test_calls_and_results_are_placed_an_orphan_result_too() -> None:
    # The ledger builds calls with their origin; a result naming no call it knows (an orphan)
    # is built without one, and must still point back at its line.
    lines = [
        {"type": "response_item", "payload": {"type": "message", "role": "user", "content": "Go"}},
        {
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "arguments": "{}",
                "call_id": "a",
            },
        },
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "a"}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "zz"}},
    ]
    data = b"\n".join(orjson.dumps(line) for line in lines)
    trace = read_trace(data, format_name="codex")
    assert [(f.type, f.origin) for f in trace.frames] == [
        ("user", "line 1"),
        ("tool_call", "line 2"),
        ("tool_result", "line 3"),
        ("tool_result", "line 4"),
    ]
