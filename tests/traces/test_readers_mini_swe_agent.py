"""The mini-swe-agent reader: golden trajectories (v1 text actions, v2 tool calls)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from tests.helpers.readers import READER_FIXTURES, format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import SystemFrame, ToolCallFrame, ToolResultFrame, UserFrame, read_trace

if TYPE_CHECKING:
    from pathlib import Path

FIXTURES = READER_FIXTURES / "mini-swe-agent"


def test_v1_observations_are_results_not_user_turns() -> None:
    trace = read_trace(FIXTURES / "v1_text_actions.traj.json")
    assert (trace.id, trace.source_format) == ("v1_text_actions", "mini-swe-agent")
    assert (trace.model, trace.commit) == ("anthropic/claude-sonnet-4-20250514", "1.14.2")
    # 10 messages: 4 assistant turns, 3 with one fenced command each (the second has two, so
    # the harness answers with a format error), 3 outputs, 1 format error.
    assert [f.type for f in trace.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_result",
        "assistant",
        "system",  # the format error the harness sent as a user message
        "assistant",
        "tool_call",
        "tool_result",
        "assistant",
        "tool_call",
        "tool_result",  # the submission, sent as the last user message
    ]
    assert [f.content for f in trace.frames if isinstance(f, UserFrame)] == [trace.task]
    assert trace.frames[3] == ToolCallFrame(
        id="call-1",
        name="bash",
        args={"command": "grep -rn 'return 30' billing"},
        origin="message 2",
    )
    assert trace.frames[9] == ToolResultFrame(
        id="call-2",
        ok=True,
        result="<returncode>0</returncode>\n<output>\nREFUND_WINDOW_DAYS = 45\n</output>",
        origin="message 7",
    )
    assert trace.metadata["text_action_call_ids"] == ["call-1", "call-2", "call-3"]
    assert trace.metadata["exit_status"] == "Submitted"
    assert trace.metadata["trajectory_format"] == "mini-swe-agent-1"


def test_v2_tool_calls() -> None:
    trace = read_trace(FIXTURES / "v2_tool_calls.traj.json")
    assert (trace.model, trace.commit) == ("openai/gpt-5-mini", "2.1.0")
    assert [f.type for f in trace.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "system",  # FormatError
        "user",  # UserInterruption: the human stepped in
        "tool_call",
        "tool_result",  # timed out: exception_info set
        "assistant",
        "tool_call",
        "tool_result",  # the exit message carries the submitting command's output
    ]
    assert [(f.id, f.ok) for f in trace.frames if isinstance(f, ToolResultFrame)] == [
        ("call_k1", True),
        ("call_k2", True),
        ("call_k3", False),
        ("call_k4", True),
    ]
    assert isinstance(trace.frames[7], SystemFrame)
    assert trace.frames[8] == UserFrame(
        content="Use the setting, do not hard-code it.", origin="message 6"
    )
    assert "text_action_call_ids" not in trace.metadata


def test_a_bare_message_list_named_traj_json_is_detected(tmp_path: Path) -> None:
    raw = orjson.loads((FIXTURES / "v1_text_actions.traj.json").read_bytes())
    path = tmp_path / "run.traj.json"
    path.write_bytes(orjson.dumps(raw["messages"]))
    trace = read_trace(path)
    assert trace.source_format == "mini-swe-agent"
    assert trace.tool_path == ("bash", "bash", "bash")


def test_invalid_names_the_message() -> None:
    assert "message 4: unknown role 'observer'" in format_error(FIXTURES / "invalid.traj.json")


def test_truncated() -> None:
    assert "not valid JSON" in format_error(FIXTURES / "truncated.traj.json")


def test_other_version_is_refused_with_the_known_ones() -> None:
    message = format_error(FIXTURES / "other_version.traj.json")
    assert "unknown trajectory_format 'mini-swe-agent-3'" in message
    assert "mini-swe-agent-1 and mini-swe-agent-1.1" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"info": {"exit_status": "x"}}', "'messages' must be a list, got null"),
        (b'{"messages": [3]}', "message 0 must be a JSON object, got number"),
        (
            b'{"messages": [{"role": "tool", "content": "x"}]}',
            "message 0: a tool message with no tool_call_id",
        ),
        (b'{"messages": [{"role": "user", "content": 4}]}', "message 0: 'content' must be"),
    ],
)
def test_malformed_files(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_trace(data, format_name="mini-swe-agent")
    assert expected in str(caught.value)
