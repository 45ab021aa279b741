"""The tau2 reader: golden fixtures, and the real results file read in place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.helpers.readers import format_error, real_corpus_file
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "tau2"
REAL = "tau2_whissle-agent_airline.sample.json"


def fails(name: str, **options: str) -> str:
    return format_error(FIXTURES / name, **options)


def test_valid_simulations() -> None:
    first, second = read_traces(FIXTURES / "valid.json")
    assert (first.id, first.model, first.outcome) == ("sim-0001", "gpt-4.1-mini", "success")
    assert first.metadata == {
        "task_id": "4",
        "trial": 0,
        "termination_reason": "user_stop",
        "reward": 1.0,
        "user_call_ids": ["user_reboot_0"],
        "renamed_call_ids": {"tool_get_line_0#2": "tool_get_line_0"},
    }
    assert first.task == "My phone has no signal. Can you check line L-5?"
    assert [f.type for f in first.frames] == [
        "assistant",
        "user",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "assistant",
        "tool_call",  # the user simulator's own call (no text: no user frame)
        "tool_result",
        "user",
    ]
    line, line_out, other, other_out = first.frames[2:6]
    assert isinstance(line, ToolCallFrame)
    assert (line.id, line.args) == ("tool_get_line_0", {"line_id": "L-5"})
    assert isinstance(line_out, ToolResultFrame)
    assert (line_out.id, line_out.ok) == ("tool_get_line_0", True)
    assert isinstance(other, ToolCallFrame)
    assert (other.id, other.args) == ("tool_get_line_0#2", {"line_id": "L-6"})
    assert isinstance(other_out, ToolResultFrame)
    assert (other_out.id, other_out.ok) == ("tool_get_line_0#2", False)  # error: true
    assert other_out.result == "Error: line L-6 not found"
    reboot_out = first.frames[8]
    assert isinstance(reboot_out, ToolResultFrame)
    assert reboot_out.result == ""  # content null
    assert first.frames[-1] == UserFrame(
        content="I restarted it. ###STOP###", origin="simulation 0, message 9"
    )
    # No simulation id: task and trial.
    assert (second.id, second.outcome) == ("task-7-trial-2", "failure")
    assert second.frames[-1] == UserFrame(
        content="###TRANSFER###", origin="simulation 1, message 5"
    )
    assert isinstance(second.frames[0], AssistantFrame)


def test_invalid_names_simulation_and_message() -> None:
    message = fails("invalid.json")
    assert "simulation 1, message 3: 'error' must be true or false, got string" in message


def test_truncated() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_full_duplex_version_is_refused_with_the_reason() -> None:
    message = fails("other_version.json")
    assert "simulation 0: 'messages' must be a non-empty list, got null" in message
    assert "ticks" in message


def test_tau_bench_file_forced_through_tau2_points_to_tau_bench() -> None:
    path = FIXTURES.parent / "tau-bench" / "valid.json"
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(path, format_name="tau2"))
    assert "--from tau-bench" in str(caught.value)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"simulations": [3]}', "simulation 0: a simulation must be a JSON object"),
        (
            b'{"simulations": [{"messages": [{"role": "robot", "content": "x"}]}]}',
            "simulation 0, message 0: unknown role 'robot'",
        ),
        (
            b'{"simulations": [{"messages": [{"role": "tool", "id": 4, "content": "x"}]}]}',
            "simulation 0, message 0: the tool message 'id' must be a string",
        ),
        (
            b'{"simulations": [{"messages": [{"role": "tool", "content": "x"}]}]}',
            "simulation 0, message 0: a tool result with no id",
        ),
        (
            (
                b'{"simulations": [{"reward_info": {"reward": "1"},'
                b' "messages": [{"role": "user", "content": "x"}]}]}'
            ),
            "simulation 0: 'reward_info.reward' must be a number",
        ),
        (b'{"results": []}', "an object with a 'simulations' list"),
    ],
)
def test_malformed_simulations(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(data, format_name="tau2"))
    assert expected in str(caught.value)


# --- the real file, read in place ---------------------------------------------------


@pytest.fixture(scope="module")
def real_file() -> Path:
    return real_corpus_file("tau_bench", REAL)


def _raw_calls(simulation: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (call["name"], call["arguments"])
        for message in simulation["messages"]
        for call in message.get("tool_calls") or []
    ]


@pytest.mark.corpus
def test_real_file_reads_every_simulation_call_and_result(real_file: Path) -> None:
    raw = orjson.loads(real_file.read_bytes())["simulations"]
    traces = list(read_traces(real_file))
    raw_messages = [m for s in raw for m in s["messages"]]
    raw_calls = sum(len(m.get("tool_calls") or []) for m in raw_messages)
    raw_results = sum(m["role"] == "tool" for m in raw_messages)
    raw_errors = sum(m["role"] == "tool" and m["error"] for m in raw_messages)
    assert (len(raw), raw_calls, raw_results, raw_errors) == (12, 53, 53, 2)
    assert len(traces) == len(raw)
    frames = [f for t in traces for f in t.frames]
    assert len(frames) == 286
    assert sum(isinstance(f, ToolCallFrame) for f in frames) == raw_calls
    assert sum(isinstance(f, ToolResultFrame) for f in frames) == raw_results
    assert sum(isinstance(f, ToolResultFrame) and not f.ok for f in frames) == raw_errors
    assert [t.outcome for t in traces].count("success") == 8
    assert {t.model for t in traces} == {"whissle"}
    reused = 0
    for simulation, trace in zip(raw, traces, strict=True):
        assert trace.id == simulation["id"]
        assert trace.metadata["task_id"] == simulation["task_id"]
        calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
        assert [(f.name, f.args) for f in calls] == _raw_calls(simulation)
        outputs = [m["content"] or "" for m in simulation["messages"] if m["role"] == "tool"]
        assert [f.result for f in trace.frames if isinstance(f, ToolResultFrame)] == outputs
        ids = [c["id"] for m in simulation["messages"] for c in m.get("tool_calls") or []]
        reused += len(ids) - len(set(ids))
        assert len({c.id for c in calls}) == len(calls)
        # Every tool message follows its call in this file; so must every result frame.
        for before, frame in zip(trace.frames, trace.frames[1:], strict=False):
            if isinstance(frame, ToolResultFrame):
                assert isinstance(before, ToolCallFrame)
                assert before.id == frame.id
    assert sum(len(t.metadata.get("renamed_call_ids", {})) for t in traces) == reused == 18
