"""The OpenHands reader: golden event trajectories and an evaluation output.jsonl."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
import pytest

from tests.helpers.readers import READER_FIXTURES, format_error
from tracegrade.errors import TraceFormatError
from tracegrade.traces import SystemFrame, ToolCallFrame, ToolResultFrame, read_trace, read_traces

if TYPE_CHECKING:
    from pathlib import Path

FIXTURES = READER_FIXTURES / "openhands"
FRAMES = [
    "system",
    "user",
    "assistant",  # the run action's thought
    "tool_call",
    "tool_result",
    "tool_call",
    "tool_result",
    "assistant",  # finish
]


def test_trajectory() -> None:
    trace = read_trace(FIXTURES / "trajectory.json")
    assert (trace.id, trace.source_format) == ("trajectory", "openhands")
    assert trace.model == "litellm_proxy/claude-sonnet-4-5-20250929"
    # 10 events: recall, its observation and agent_state_changed give no frame.
    assert [f.type for f in trace.frames] == FRAMES
    assert trace.metadata["skipped_events"] == {
        "action:recall": 1,
        "observation:agent_state_changed": 1,
        "observation:recall": 1,
    }
    assert trace.frames[3] == ToolCallFrame(
        id="toolu_01",
        name="execute_bash",
        args={
            "command": "grep -rn REFUND_WINDOW billing",
            "is_input": False,
            "blocking": False,
            "is_static": False,
            "cwd": None,
            "hidden": False,
            "confirmation_state": "confirmed",
            "security_risk": 0,
        },
        origin="event 4",
    )
    assert trace.frames[4] == ToolResultFrame(
        id="toolu_01",
        ok=True,
        result="billing/config.py:2:REFUND_WINDOW_DAYS = 45",
        origin="event 5",
    )
    failed = trace.frames[6]
    assert isinstance(failed, ToolResultFrame)
    assert (failed.id, failed.ok) == ("toolu_02", False)  # an error observation
    assert trace.task == "How many days is the refund window?"
    assert trace.final_answer.startswith("The refund window is 45 days")


def test_output_jsonl_is_one_run_a_line() -> None:
    first, second = read_traces(FIXTURES / "output.jsonl")
    assert (first.id, second.id) == ("shop__refund-1", "shop__refund-2")
    assert [f.type for f in first.frames] == FRAMES
    assert [f.type for f in second.frames] == [*FRAMES[:5], "assistant"]
    assert first.metadata["test_result"]["report"] == {"resolved": True}
    assert first.metadata["agent_class"] == "CodeActAgent"
    assert second.final_answer == "45 days."
    assert second.frames[0].origin == "line 2, event 0"


def test_early_histories_of_pairs_read_by_position() -> None:
    data = (
        b'{"history": [[{"source": "user", "action": "message", "args": {"content": "Hi?"}},'
        b' {"source": "user", "observation": "null", "content": ""}],'
        b' [{"source": "agent", "action": "run", "args": {"command": "ls"}},'
        b' {"source": "agent", "observation": "run", "content": "a.py"}]]}'
    )
    trace = read_trace(data, format_name="openhands")
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result"]
    assert trace.frames[2] == ToolResultFrame(id="call-1", ok=True, result="a.py", origin="event 3")


def test_an_observation_no_action_asked_for_is_system_text() -> None:
    data = (
        b'[{"id": 1, "source": "agent", "observation": "error", "content": "LLM down", "cause": 0}]'
    )
    trace = read_trace(data, format_name="openhands")
    assert trace.frames == (SystemFrame(content="LLM down", origin="event 1"),)


def test_invalid_names_the_event() -> None:
    message = format_error(FIXTURES / "invalid.json")
    assert "event 5: the event has neither 'action' nor 'observation'" in message


def test_truncated() -> None:
    assert "not valid JSON" in format_error(FIXTURES / "truncated.json")


def test_v1_sdk_events_are_refused_with_the_reason() -> None:
    message = format_error(FIXTURES / "other_version.json")
    assert "event 0: an OpenHands V1 (software-agent-sdk) event ('SystemPromptEvent')" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"instance_id": "x", "test_result": {}}', "got an object without a 'history' list"),
        (b"[3]", "event 0: an event must be a JSON object, got number"),
        (b'[{"action": 3, "source": "agent"}]', "event 0: 'action' must be a string"),
        (b"[]", "the run has no messages to read"),
    ],
)
def test_malformed_files(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_trace(data, format_name="openhands")
    assert expected in str(caught.value)


def test_the_harness_answering_for_the_human_is_system_text() -> None:
    reply = "Please continue working on the task on whatever approach you think is suitable.\n"
    events = [
        {"id": 0, "source": "user", "action": "message", "args": {"content": "Fix it."}},
        {"id": 1, "source": "agent", "action": "message", "args": {"content": "Done?"}},
        {"id": 2, "source": "user", "action": "message", "args": {"content": reply}},
    ]
    trace = read_trace(orjson.dumps(events), format_name="openhands")
    assert [f.type for f in trace.frames] == ["user", "assistant", "system"]
    assert trace.task == "Fix it."


def test_a_long_system_prompt_first_is_still_detected(tmp_path: Path) -> None:
    prompt = "You are OpenHands agent. " * 400  # ~10 KB: "action" is past the first 4 KB
    events = [
        {"id": 0, "timestamp": "2026-11-22T08:30:00", "source": "agent", "message": prompt,
         "action": "system", "args": {"content": prompt}},
        {"id": 1, "timestamp": "2026-11-22T08:30:01", "source": "user", "message": "Hi?",
         "action": "message", "args": {"content": "Hi?"}},
    ]  # fmt: skip
    path = tmp_path / "trajectory.json"
    path.write_bytes(orjson.dumps(events, option=orjson.OPT_INDENT_2))
    assert read_trace(path).source_format == "openhands"
