"""Golden fixtures of the anthropic reader: what each valid file reads into, how bad ones fail."""

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
    trace_readers,
)

READERS = Path(__file__).resolve().parent.parent / "fixtures" / "readers"
FIXTURES = READERS / "anthropic"


def fails(name: str, **options: str) -> str:
    """The message of the TraceFormatError raised for a fixture; it must name the file."""
    return format_error(FIXTURES / name, **options)


def test_request_with_system_tool_use_and_tool_result_blocks() -> None:
    trace = read_trace(FIXTURES / "valid.json")
    assert (trace.id, trace.model, trace.outcome) == ("valid", "claude-sonnet-4-5-20250929", None)
    assert [f.type for f in trace.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "user",
        "assistant",
    ]
    system, user, thinking_free, read, grep, read_out, grep_out, follow_up, answer = trace.frames
    assert isinstance(system, SystemFrame)
    assert system.origin == "system"
    assert isinstance(user, UserFrame)
    assert trace.task == "How many days is the refund window?"
    # The thinking block is skipped; the text block is the assistant frame.
    assert isinstance(thinking_free, AssistantFrame)
    assert thinking_free.content == "Let me check the billing config."
    assert isinstance(read, ToolCallFrame)
    assert (read.id, read.name, read.args, read.origin) == (
        "toolu_01A",
        "read_file",
        {"path": "billing/config.py"},
        "message 1, block 2",
    )
    assert isinstance(grep, ToolCallFrame)
    assert isinstance(read_out, ToolResultFrame)
    assert (read_out.id, read_out.ok, read_out.result) == (
        "toolu_01A",
        True,
        "REFUND_WINDOW_DAYS = 45",
    )
    # Block content is joined text; is_error makes ok false.
    assert isinstance(grep_out, ToolResultFrame)
    assert (grep_out.id, grep_out.ok, grep_out.result) == (
        "toolu_01B",
        False,
        "grep: billing/: permission denied",
    )
    assert trace.any_tool_failed
    # Text after the tool results in the same user message is a user turn of its own.
    assert isinstance(follow_up, UserFrame)
    assert follow_up.content == "Also, is it calendar days?"
    # Adjacent text blocks make one frame.
    assert isinstance(answer, AssistantFrame)
    assert trace.final_answer == (
        "The refund window is 45 days (billing/config.py).\n"
        "The file does not say whether they are calendar days."
    )
    assert trace.metadata["stop_reason"] == "end_turn"
    assert trace.metadata["max_tokens"] == 1024


def test_jsonl_lists_requests_and_server_tools() -> None:
    first, second = read_traces(FIXTURES / "valid.jsonl")
    assert first.id == "valid-line-1"
    assert [f.type for f in first.frames] == ["user", "tool_call", "tool_result", "assistant"]
    assert first.final_answer == "5"
    assert second.id == "weather-7"
    assert second.frames[0] == SystemFrame(content="Be brief.", origin="line 3, system")
    call, result = second.frames[2], second.frames[3]
    assert isinstance(call, ToolCallFrame)
    assert isinstance(result, ToolResultFrame)
    assert (call.id, call.name) == ("srvtoolu_1", "web_search")
    # A server tool's structured result is kept as JSON.
    assert result.id == call.id
    assert isinstance(result.result, list)
    assert result.result[0]["url"] == "https://yr.no/oslo"
    assert second.final_answer == "It is -3 °C in Oslo."


def test_a_single_response_object() -> None:
    trace = read_trace(FIXTURES / "response.json")
    assert trace.model == "claude-haiku-4-5"
    assert [f.type for f in trace.frames] == ["assistant", "tool_call"]
    assert trace.metadata == {"stop_reason": "tool_use"}
    assert trace.task == "(no user message)"


def test_invalid_block_field_names_message_and_block() -> None:
    message = fails("invalid.json")
    assert "message 2, block 0: 'is_error' must be true or false, got string" in message


def test_unknown_block_type_is_an_error() -> None:
    data = (
        b'[{"role": "user", "content": "hi"}, {"role": "assistant", "content":'
        b' [{"type": "tool_use", "id": "t", "name": "ls", "input": {}},'
        b' {"type": "tool_call", "id": "c"}]}]'
    )
    with pytest.raises(TraceFormatError, match=r"message 1, block 1: unknown content block type"):
        read_trace(data)


def test_truncated_names_the_file() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_other_version_legacy_text_completions() -> None:
    # Detected as anthropic (so the message is about the right format), then refused.
    message = fails("other_version.json")
    assert "legacy Text Completions record" in message
    assert "Messages API" in message


@pytest.mark.parametrize("name", ["valid.json", "valid.jsonl", "response.json", "invalid.json"])
def test_each_fixture_is_detected_as_anthropic(name: str) -> None:
    path = FIXTURES / name
    head = path.read_bytes()[:4096]
    chosen = next(r for r in trace_readers() if r.can_read(str(path), head))
    assert chosen.name == "anthropic"


@pytest.mark.parametrize("path", sorted((READERS / "openai-chat").iterdir()), ids=lambda p: p.name)
def test_openai_chat_fixtures_are_not_taken(path: Path) -> None:
    head = path.read_bytes()[:4096]
    anthropic = next(r for r in trace_readers() if r.name == "anthropic")
    assert not anthropic.can_read(str(path), head)
