"""The SWE-agent reader: golden fixtures, and the real .traj files read in place."""

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

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "swe-agent"
SIMPLE = "function_calling_simple.traj"
MARSHMALLOW = "marshmallow-code__marshmallow-1867.function_calling.traj"


def fails(name: str, **options: str) -> str:
    return format_error(FIXTURES / name, **options)


def test_valid_function_calling() -> None:
    trace = read_trace(FIXTURES / "valid_function_calling.traj")
    assert (trace.id, trace.model, trace.commit, trace.outcome) == (
        "parser-bug-7",
        "claude-3-7-sonnet",
        "3ea751c",
        None,  # exit_cost: the run stopped, which says nothing about the fix
    )
    assert trace.metadata["exit_status"] == "exit_cost"
    assert trace.task == "Fix the parser bug."
    assert [f.type for f in trace.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "assistant",
        "tool_call",
        "tool_result",
        "assistant",
        "tool_call",
        "tool_result",
    ]
    # One id for two calls: each result to its own call.
    assert [(f.id, f.result) for f in trace.frames[5:7] if isinstance(f, ToolResultFrame)] == [
        ("call_1", "print('a')"),
        ("call_1#2", "print('b')"),
    ]
    # A result sent back as a user observation answers the waiting call.
    assert trace.frames[9] == ToolResultFrame(
        id="call_2", ok=True, result="a\n(Open file: n/a)", origin="history 6"
    )
    assert trace.frames[12] == ToolResultFrame(id="call_3", ok=True, result="", origin="history 8")
    assert trace.final_answer == "Both files print their name; the bug is in a.py."


def test_valid_text_action() -> None:
    trace = read_trace(FIXTURES / "valid_text_action.traj")
    assert (trace.id, trace.model, trace.commit) == ("valid_text_action", "gpt4", None)
    assert trace.metadata["exit_status"] == "submitted"
    assert trace.metadata["text_action_call_ids"] == ["call-1", "call-2", "call-3"]
    # The demonstration is prompt material, not a user turn.
    assert trace.frames[1].type == "system"
    assert trace.task.startswith("We're currently solving the following issue")
    assert trace.frames[3:6] == (
        AssistantFrame(content="Let's look around first.\n", origin="history 3"),
        ToolCallFrame(id="call-1", name="ls", args={"command": "ls\n"}, origin="history 3"),
        ToolResultFrame(
            id="call-1",
            ok=True,
            result="setup.py\nsrc\n(Open file: n/a)\n(Current directory: /repo)\nbash-$",
            origin="history 4",
        ),
    )
    assert trace.tool_path == ("ls", "python", "submit")
    assert trace.frames[-1] == ToolResultFrame(id="call-3", ok=True, result="", origin="history 8")
    assert not any(isinstance(f, UserFrame) for f in trace.frames[3:])


def test_trajectory_only_file() -> None:
    trace = read_trace(FIXTURES / "trajectory_only.traj")
    assert [f.type for f in trace.frames] == [
        "assistant",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
    ]
    assert trace.frames[2] == ToolResultFrame(
        id="call-1", ok=True, result="12:    total = 1", origin="trajectory 0"
    )
    assert trace.frames[4] == ToolResultFrame(
        id="call-2", ok=True, result=None, origin="trajectory 1"
    )


def test_invalid_names_history_index() -> None:
    assert "history 3: unknown role 'robot'" in fails("invalid.traj")


def test_truncated() -> None:
    assert "not valid JSON" in fails("truncated.traj")


def test_mini_swe_agent_file_is_refused_with_the_reason() -> None:
    # Detection hands this file to the mini-swe-agent reader; forced, this reader says why not.
    message = fails("other_version.traj", format_name="swe-agent")
    assert "needs a non-empty 'history' or 'trajectory' list, got null and null" in message


def test_mini_swe_agent_file_is_detected_as_mini_swe_agent() -> None:
    trace = read_trace(FIXTURES / "other_version.traj")
    assert (trace.source_format, trace.task) == ("mini-swe-agent", "Fix it.")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[]", "a .traj file must be a JSON object, got array"),
        (b'{"history": [3]}', "history 0: a message must be a JSON object, got number"),
        (b'{"history": [{"role": "tool", "content": "x"}]}', "history 0: a tool message with no"),
        (
            b'{"history": [{"role": "tool", "tool_call_ids": "c1", "content": "x"}]}',
            "history 0: 'tool_call_ids' must be a list of strings, got string",
        ),
        (b'{"history": [{"role": "user", "content": 4}]}', "history 0: 'content' must be a string"),
        (b'{"trajectory": ["x"]}', "trajectory 0 must be a JSON object, got string"),
    ],
)
def test_malformed_files(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(data, format_name="swe-agent"))
    assert expected in str(caught.value)


# --- the real files, read in place ---------------------------------------------------


@pytest.fixture(scope="module")
def real_folder() -> Path:
    folder = corpus_root() / "trace_fixtures" / "swe_agent_traj"
    if not (folder / SIMPLE).is_file():
        pytest.skip(
            f"real SWE-agent trajectories not found in {folder}: set TRACEGRADE_CORPUS to the"
            " folder that holds trace_fixtures/ to run this test"
        )
    return folder


def _raw_counts(path: Path) -> tuple[int, int, int]:
    history = orjson.loads(path.read_bytes())["history"]
    return (
        sum(m["role"] == "user" for m in history),
        sum(len(m.get("tool_calls") or []) for m in history),
        sum(len(m["tool_call_ids"]) for m in history if m["role"] == "tool"),
    )


def _counts(trace: Any) -> tuple[int, int, int]:
    return (
        sum(isinstance(f, UserFrame) for f in trace.frames),
        sum(isinstance(f, ToolCallFrame) for f in trace.frames),
        sum(isinstance(f, ToolResultFrame) for f in trace.frames),
    )


@pytest.mark.corpus
def test_real_function_calling_simple(real_folder: Path) -> None:
    path = real_folder / SIMPLE
    trace = read_trace(path)
    assert _counts(trace) == _raw_counts(path) == (1, 5, 5)
    assert len(trace.frames) == 17
    assert trace.tool_path == ("find_file", "open", "edit", "bash", "submit")
    assert (trace.id, trace.model, trace.outcome) == ("function_calling_simple", None, None)
    assert trace.final_answer.startswith("The script ran successfully, printing the result `8.2`")
    bash = trace.frames[13]
    assert isinstance(bash, ToolResultFrame)
    assert bash.result.startswith("8.2\n")
    assert isinstance(trace.frames[0], SystemFrame)


@pytest.mark.corpus
def test_real_marshmallow_run_reuses_call_ids(real_folder: Path) -> None:
    path = real_folder / MARSHMALLOW
    raw = orjson.loads(path.read_bytes())
    trace = read_trace(path)
    assert _counts(trace) == _raw_counts(path) == (1, 11, 11)
    assert len(trace.frames) == 35
    assert (trace.id, trace.model) == ("marshmallow-code__marshmallow-1867", "gpt-4o")
    assert trace.metadata["exit_status"] == "submitted"
    assert trace.metadata["submission"] == raw["info"]["submission"]
    ids = [c["id"] for m in raw["history"] for c in m.get("tool_calls") or []]
    assert len(ids) - len(set(ids)) == len(trace.metadata["renamed_call_ids"]) == 5
    calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
    assert len({c.id for c in calls}) == 11
    # Every result follows its own call.
    for before, frame in zip(trace.frames, trace.frames[1:], strict=False):
        if isinstance(frame, ToolResultFrame):
            assert isinstance(before, ToolCallFrame)
            assert before.id == frame.id
    outputs = [m["content"] for m in raw["history"] if m["role"] == "tool"]
    assert [f.result for f in trace.frames if isinstance(f, ToolResultFrame)] == outputs
    assert trace.final_answer == "Calling `submit` to submit."
