"""The tau-bench reader: golden fixtures, and the real results file read in place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.helpers.readers import format_error, real_corpus_file
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    Trace,
    UserFrame,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "tau-bench"
REAL = "taubench_gpt-4o_airline.sample.json"


def fails(name: str, **options: str) -> str:
    return format_error(FIXTURES / name, **options)


def test_valid_records() -> None:
    first, second = read_traces(FIXTURES / "valid.json")
    assert (first.id, first.outcome, first.model) == ("task-0-trial-0", "success", None)
    assert (second.id, second.outcome) == ("task-1-trial-1", "failure")
    assert first.task == "Hi, I want to cancel order O-1. My id is ada_7."
    assert isinstance(first.frames[0], SystemFrame)
    assert first.metadata["task_id"] == 0
    assert first.metadata["trial"] == 0
    assert first.metadata["reward"] == 1.0
    assert first.metadata["instruction"] == "You are ada_7. You want to cancel order O-1."
    assert first.metadata["actions"] == [{"name": "cancel_order", "kwargs": {"order_id": "O-1"}}]
    assert second.metadata["outputs"] == ["15"]
    # One id for two different calls: the second is renamed and keeps its own result.
    pairs = [(f.type, f.id) for f in first.frames if isinstance(f, ToolCallFrame | ToolResultFrame)]
    assert pairs == [
        ("tool_call", "call_X"),
        ("tool_result", "call_X"),
        ("tool_call", "call_X#2"),
        ("tool_result", "call_X#2"),
    ]
    cancel = first.frames[-3]
    assert isinstance(cancel, ToolResultFrame)
    assert cancel.result == ""  # empty content
    stop = first.frames[-1]
    assert isinstance(stop, UserFrame)
    assert stop.content == "Thanks! ###STOP###"
    assert second.frames[-1] == UserFrame(content="###STOP###", origin="record 1, message 5")


def test_record_without_trial_is_named_by_position() -> None:
    data = b'[{"task_id": 3, "reward": 0.5, "traj": [{"role": "user", "content": "hi"}]}]'
    (trace,) = read_traces(data, format_name="tau-bench")
    assert trace.id == "task-3-record-0"
    assert trace.outcome == "failure"  # only reward 1 is a success


def test_invalid_names_record_message_and_call() -> None:
    message = fails("invalid.json")
    assert "record 1, message 2, tool call 0: the tool call has no function name" in message
    assert "function.name" in message  # how to fix


def test_truncated() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_other_version_without_traj() -> None:
    message = fails("other_version.json")
    assert "record 0: field 'traj' is missing" in message
    assert "docs/formats/tau-bench.md" in message


def test_tau2_file_forced_through_tau_bench_points_to_tau2() -> None:
    path = FIXTURES.parent / "tau2" / "valid.json"
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(path, format_name="tau-bench"))
    assert "--from tau2" in str(caught.value)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'[{"task_id": 1, "traj": {}}]', "record 0: 'traj' must be a list of messages"),
        (b'[{"task_id": 1, "reward": true, "traj": []}]', "record 0: 'reward' must be a number"),
        (b"[1]", "record 0: a record must be a JSON object, got number"),
        (b'[{"traj": []}]', "record 0: field 'task_id' is missing"),
        (b'[{"task_id": 1, "traj": []}]', "record 0: the run has no messages"),
    ],
)
def test_malformed_records(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(data, format_name="tau-bench"))
    assert expected in str(caught.value)


# --- the real file, read in place ---------------------------------------------------


@pytest.fixture(scope="module")
def real_file() -> Path:
    return real_corpus_file("tau_bench", REAL)


def _raw_calls(record: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (call["function"]["name"], orjson.loads(call["function"]["arguments"]))
        for message in record["traj"]
        for call in message.get("tool_calls") or []
    ]


@pytest.mark.corpus
def test_real_file_reads_every_record_call_and_result(real_file: Path) -> None:
    raw = orjson.loads(real_file.read_bytes())
    traces = list(read_traces(real_file))
    # Independent counts from the raw JSON.
    raw_calls = sum(len(m.get("tool_calls") or []) for r in raw for m in r["traj"])
    raw_results = sum(m["role"] == "tool" for r in raw for m in r["traj"])
    assert (len(raw), raw_calls, raw_results) == (34, 172, 172)
    assert len(traces) == len(raw)
    calls = [f for t in traces for f in t.frames if isinstance(f, ToolCallFrame)]
    results = [f for t in traces for f in t.frames if isinstance(f, ToolResultFrame)]
    assert (len(calls), len(results)) == (raw_calls, raw_results)
    assert sum(len(t.frames) for t in traces) == 858
    assert [t.outcome for t in traces].count("success") == sum(r["reward"] == 1 for r in raw) == 15
    for record, trace in zip(raw, traces, strict=True):
        assert trace.id == f"task-{record['task_id']}-trial-{record['trial']}"
        assert [(f.name, f.args) for f in trace.frames if isinstance(f, ToolCallFrame)] == (
            _raw_calls(record)
        )
        raw_outputs = [m["content"] or "" for m in record["traj"] if m["role"] == "tool"]
        assert [f.result for f in trace.frames if isinstance(f, ToolResultFrame)] == raw_outputs
        _assert_each_result_follows_its_call(trace)


def _assert_each_result_follows_its_call(trace: Trace) -> None:
    """In these files every tool message follows its call; it must still after renaming."""
    ids = [f.id for f in trace.frames if isinstance(f, ToolCallFrame)]
    assert len(ids) == len(set(ids)), trace.id
    for before, frame in zip(trace.frames, trace.frames[1:], strict=False):
        if isinstance(frame, ToolResultFrame):
            assert isinstance(before, ToolCallFrame)
            assert before.id == frame.id


@pytest.mark.corpus
def test_real_file_reused_ids_are_renamed(real_file: Path) -> None:
    raw = orjson.loads(real_file.read_bytes())
    reused = 0
    for record in raw:
        ids = [c["id"] for m in record["traj"] for c in m.get("tool_calls") or []]
        reused += len(ids) - len(set(ids))
    renamed = sum(len(t.metadata.get("renamed_call_ids", {})) for t in read_traces(real_file))
    assert renamed == reused == 7
