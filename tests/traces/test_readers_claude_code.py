"""The Claude Code reader: golden session files written for these tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from tests.helpers.readers import READER_FIXTURES, format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    read_traces,
)

if TYPE_CHECKING:
    from pathlib import Path

FIXTURES = READER_FIXTURES / "claude-code"
SESSION = "7f3c2a10-5b1e-4c8d-9a21-0e6f4d3b2c11"


def test_a_session_and_its_sub_agent_are_two_traces() -> None:
    main, agent = read_traces(FIXTURES / "valid.jsonl")
    assert (main.source_format, agent.source_format) == ("claude-code", "claude-code")
    assert (main.id, agent.id) == (SESSION, f"{SESSION}/a1b2c3d4")
    assert main.metadata["sidechains"] == [agent.id]
    assert agent.metadata["sidechain_of"] == SESSION
    # 21 lines: summary, snapshot, progress and system lines and a repeated line are skipped;
    # counted by hand from the fixture: 13 frames in the main thread, 4 in the sub-agent.
    assert [f.type for f in main.frames] == [
        "system",  # the isMeta caveat
        "system",  # the <system-reminder> before the question
        "user",
        "assistant",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "system",  # the reminder Claude Code appended to the Read result
        "tool_call",  # Task
        "tool_result",
        "system",  # a reminder beside the Task result
        "assistant",
    ]
    assert [f.type for f in agent.frames] == ["user", "tool_call", "tool_result", "assistant"]
    assert main.metadata["skipped_lines"] == {
        "file-history-snapshot": 1,
        "progress": 1,
        "summary": 1,
        "system": 1,
    }
    assert main.metadata["summaries"] == ["Refund window lookup"]
    assert main.metadata["thinking_blocks"] == 1


def test_the_human_turn_is_split_from_the_injected_reminder() -> None:
    main, _ = read_traces(FIXTURES / "valid.jsonl")
    assert main.task == "How many days is the refund window?"
    reminder, question = main.frames[1], main.frames[2]
    assert isinstance(reminder, SystemFrame)
    assert reminder.content.startswith("<system-reminder>")
    assert "The billing service lives in billing/." in reminder.content
    assert question == UserFrame(
        content="How many days is the refund window?", origin="line 4, block 0"
    )
    assert [f.content for f in main.frames if isinstance(f, UserFrame)] == [main.task]


def test_tool_results_in_user_lines_answer_their_calls() -> None:
    main, agent = read_traces(FIXTURES / "valid.jsonl")
    assert main.tool_path == ("Grep", "Read", "Task")
    assert main.frames[4] == ToolCallFrame(
        id="toolu_01",
        name="Grep",
        args={"pattern": "REFUND_WINDOW", "path": "billing", "output_mode": "files_with_matches"},
        origin="line 7, block 0",
    )
    # The reminder appended to the file's text is not what the tool returned.
    assert main.frames[7] == ToolResultFrame(
        id="toolu_02",
        ok=True,
        result='     1\tCURRENCY = "EUR"\n     2\tREFUND_WINDOW_DAYS = 45\n',
        origin="line 11, block 0",
    )
    reminder = main.frames[8]
    assert isinstance(reminder, SystemFrame)
    assert reminder.content == (
        "<system-reminder>\nWhenever you read a file, you should consider whether it looks"
        " malicious.\n</system-reminder>"
    )
    assert agent.frames[2] == ToolResultFrame(
        id="toolu_10",
        ok=True,
        result="     1\tRefunds are accepted within 45 days of delivery.\n",
        origin="line 15, block 0",
    )
    assert main.final_answer == (
        "The refund window is 45 days (REFUND_WINDOW_DAYS in billing/config.py)."
    )
    assert (main.model, main.commit) == ("claude-sonnet-4-5-20250929", "2.0.61")
    assert main.metadata["cwd"] == "/home/dev/shop"


def test_stream_json_output_of_claude_p_reads_too() -> None:
    (trace,) = read_traces(FIXTURES / "stream_json.jsonl")
    assert trace.id == "9d8e7f60-1a2b-4c3d-8e9f-a0b1c2d3e4f5"
    assert [f.type for f in trace.frames] == ["tool_call", "tool_result", "assistant"]
    assert trace.metadata["skipped_lines"] == {"result": 1, "system": 1}
    assert trace.final_answer == "The refund window is 45 days."


def test_invalid_names_the_line_and_block() -> None:
    message = format_error(FIXTURES / "invalid.jsonl")
    assert "line 4, block 0: unknown content block type 'widget'" in message


def test_truncated_names_the_line() -> None:
    assert "line 5: not valid JSON" in format_error(FIXTURES / "truncated.jsonl")


def test_a_session_of_only_bookkeeping_lines_is_an_error() -> None:
    message = format_error(FIXTURES / "only_bookkeeping.jsonl")
    assert "the session has no user or assistant lines to read" in message


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"type": "user", "parentUuid": null, "message": 3}', "'message' must be an object"),
        (b'{"parentUuid": null, "uuid": "u1"}', "line 1: the line has no 'type'"),
        (b'{"type": [], "uuid": "u1"}', "line 1: the line has no 'type'"),
        (b'{"type": {"a": 1}, "uuid": "u1"}', "line 1: the line has no 'type'"),
        (b"[1]", "line 1: a line must be a JSON object, got array"),
        (
            b'{"type": "user", "message": {"role": "user", "content": [{"type": "tool_result"}]}}',
            "a tool_result with no tool_use_id and no call waiting",
        ),
    ],
)
def test_malformed_lines(line: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(line, format_name="claude-code"))
    assert expected in str(caught.value)


def test_sidechains_without_an_agent_id_are_grouped_by_their_chain() -> None:
    def line(uuid: str, parent: str | None, text: str) -> bytes:
        role = "user" if uuid.endswith("u") else "assistant"
        content = [{"type": "text", "text": text}]
        body = {"role": role, "content": content}
        return (
            b'{"type": "%s", "uuid": "%s", "parentUuid": %s, "isSidechain": true, "message": %s}'
            % (
                role.encode(),
                uuid.encode(),
                b"null" if parent is None else b'"' + parent.encode() + b'"',
                str(body).replace("'", '"').encode(),
            )
        )

    data = b"\n".join(
        [line("1u", None, "first task"), line("2u", None, "second task"), line("3a", "1u", "one")]
    )
    first, second = read_traces(data, format_name="claude-code")
    assert [f.content for f in first.frames if isinstance(f, AssistantFrame)] == ["one"]
    assert (first.id, second.id) == ("trace/sidechain-1", "trace/sidechain-2")
    assert second.task == "second task"


def test_a_reminder_in_a_string_tool_result_is_split_off() -> None:
    call = (
        b'{"type": "assistant", "parentUuid": null, "message": {"role": "assistant",'
        b' "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}}'
    )
    result = (
        b'{"type": "user", "parentUuid": null, "message": {"role": "user", "content":'
        b' [{"type": "tool_result", "tool_use_id": "t1", "content":'
        b' "45\\n<system-reminder>Keep going.</system-reminder>"}]}}'
    )
    data = call + b"\n" + result
    (trace,) = read_traces(data, format_name="claude-code")
    assert [f.type for f in trace.frames] == ["tool_call", "tool_result", "system"]
    output = trace.frames[1]
    assert isinstance(output, ToolResultFrame)
    assert output.result == "45"
    assert trace.frames[2] == SystemFrame(
        content="<system-reminder>Keep going.</system-reminder>", origin="line 2, block 0"
    )


def test_a_long_queued_prompt_first_is_still_detected(tmp_path: Path) -> None:
    queued = {"type": "queue-operation", "operation": "enqueue", "content": "x" * 5000}
    user = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "Hi?"}}
    path = tmp_path / "session.jsonl"
    path.write_bytes(orjson.dumps(queued) + b"\n" + orjson.dumps(user) + b"\n")
    (trace,) = read_traces(path)
    assert (trace.source_format, trace.task) == ("claude-code", "Hi?")


def test_a_sub_agent_file_of_its_own_is_one_trace(tmp_path: Path) -> None:
    # Newer versions write each sub-agent to agent-<id>.jsonl: every line a sidechain line.
    main = READER_FIXTURES / "claude-code" / "valid.jsonl"
    lines = [
        line for line in main.read_bytes().splitlines() if orjson.loads(line).get("isSidechain")
    ]
    path = tmp_path / "agent-a1b2c3d4.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    (trace,) = read_traces(path)
    assert trace.id == f"{SESSION}/a1b2c3d4"
    assert trace.metadata["sidechain_of"] == SESSION
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result", "assistant"]


def _user_line(content: str) -> bytes:
    message = {"role": "user", "content": content}
    return orjson.dumps({"type": "user", "parentUuid": None, "message": message})


def test_an_interruption_note_in_a_user_turn_is_not_the_human() -> None:
    # No '<' in it: the note alone must still reach the injected-text pattern.
    data = _user_line("fix the bug\n[Request interrupted by user for tool use]")
    (trace,) = read_traces(data, format_name="claude-code")
    assert [(f.type, f.content) for f in trace.frames if hasattr(f, "content")] == [
        ("system", "[Request interrupted by user for tool use]"),
        ("user", "fix the bug"),
    ]


def test_reminders_between_other_tags_are_cut_where_they_are() -> None:
    call = (
        b'{"type": "assistant", "parentUuid": null, "message": {"role": "assistant",'
        b' "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}}'
    )
    one, two = "<system-reminder>one</system-reminder>", "<system-reminder>two</system-reminder>"
    text = f"a<b> <c{one}mid <{two}"
    result = {"type": "tool_result", "tool_use_id": "t1", "content": text + " end"}
    line = {"type": "user", "parentUuid": None, "message": {"role": "user", "content": [result]}}
    (trace,) = read_traces(call + b"\n" + orjson.dumps(line), format_name="claude-code")
    output, reminders = trace.frames[1], trace.frames[2]
    assert isinstance(output, ToolResultFrame)
    assert output.result == "a<b> <cmid < end"
    assert reminders == SystemFrame(
        content=f"{one}\n{two}",
        origin="line 2, block 0",
    )


def test_a_reminder_after_many_other_tags_is_still_found() -> None:
    call = (
        b'{"type": "assistant", "parentUuid": null, "message": {"role": "assistant",'
        b' "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}}'
    )
    html = "<p>x</p>" * 20  # more '<' than the reader tries one by one
    content = f"{html}<system-reminder>r</system-reminder>"
    result = {"type": "tool_result", "tool_use_id": "t1", "content": content}
    line = {"type": "user", "parentUuid": None, "message": {"role": "user", "content": [result]}}
    (trace,) = read_traces(call + b"\n" + orjson.dumps(line), format_name="claude-code")
    assert [f.type for f in trace.frames] == ["tool_call", "tool_result", "system"]
    output = trace.frames[1]
    assert isinstance(output, ToolResultFrame)
    assert output.result == html


def test_calls_and_results_are_placed_an_orphan_result_too() -> None:
    # The ledger builds calls with their origin; a result naming no call it knows (an orphan)
    # is built without one, and must still point back at its block.
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}
    results = [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
        {"type": "tool_result", "tool_use_id": "t9", "content": "lost"},
    ]
    lines = [
        {"type": "assistant", "message": {"role": "assistant", "content": [call]}},
        {"type": "user", "message": {"role": "user", "content": results}},
    ]
    data = b"\n".join(orjson.dumps(line) for line in lines)
    (trace,) = read_traces(data, format_name="claude-code")
    assert [(f.type, f.origin) for f in trace.frames] == [
        ("tool_call", "line 1, block 0"),
        ("tool_result", "line 2, block 0"),
        ("tool_result", "line 2, block 1"),
    ]
