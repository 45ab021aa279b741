"""The ATIF reader: golden fixtures, and the real Harbor trajectories read in place."""

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

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "atif"


def fails(name: str, **options: str) -> str:
    return format_error(FIXTURES / name, **options)


def test_valid_trajectory_and_its_subagent() -> None:
    root, hotels = read_traces(FIXTURES / "valid.json")
    assert (root.id, root.model, root.commit, root.outcome) == (
        "traj-root",
        "claude-sonnet-4",
        "3.2.0",
        None,
    )
    assert root.task == "Find a flight to Lisbon"  # the image part carries no text
    assert [f.type for f in root.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "tool_result",
        "system",
        "assistant",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    tap, easyjet, delegate = root.frames[3:6]
    assert isinstance(tap, ToolCallFrame)
    assert isinstance(easyjet, ToolCallFrame)
    assert isinstance(delegate, ToolCallFrame)
    assert [(c.id, c.args) for c in (tap, easyjet)] == [
        ("t1", {"airline": "TAP"}),
        ("t1#2", {"airline": "easyJet"}),
    ]
    # Results out of order and under a reused id: each to its own call.
    assert root.frames[6:9] == (
        ToolResultFrame(
            id="t2", ok=True, result="Hotel agent: Casa Azul, 120 EUR", origin="step 3"
        ),
        ToolResultFrame(id="t1", ok=True, result="TAP 812: 09:10, 189 EUR", origin="step 3"),
        ToolResultFrame(id="t1#2", ok=True, result=None, origin="step 3"),  # content null
    )
    # A system operation's result is not a tool result.
    assert root.frames[9] == SystemFrame(content="Context compacted.", origin="step 4")
    # An agent action outside the tool-calling format: a call named 'action'.
    action, output = root.frames[11:13]
    assert action == ToolCallFrame(id="call-4", name="action", args=None, origin="step 5")
    assert output == ToolResultFrame(id="call-4", ok=True, result="quote-1.txt", origin="step 5")
    assert root.final_answer == "TAP 812 leaves at 09:10 for 189 EUR; stay at Casa Azul."
    assert root.metadata["synthetic_call_ids"] == ["call-4"]
    assert root.metadata["subagent_refs"] == {"t2": [{"trajectory_id": "traj-hotels"}]}
    assert root.metadata["renamed_call_ids"] == {"t1#2": "t1", "call-4": None}
    assert root.metadata["final_metrics"] == {"total_prompt_tokens": 900, "total_steps": 6}
    # The embedded subagent: its own trace, linked to its parent; its step's model.
    assert (hotels.id, hotels.model, hotels.metadata["parent_trajectory"]) == (
        "traj-hotels",
        "claude-haiku-4",
        "traj-root",
    )
    assert hotels.frames[0] == UserFrame(content="hotels", origin="subagent 0, step 1")
    call, result = hotels.frames[1:3]
    assert call == ToolCallFrame(
        id="h1", name="search_hotels", args={"city": "Lisbon"}, origin="subagent 0, step 2"
    )
    assert isinstance(result, ToolResultFrame)
    assert result.result == "Casa Azul, 120 EUR"
    assert hotels.frames[-1] == AssistantFrame(
        content="Casa Azul, 120 EUR", origin="subagent 0, step 3"
    )


def test_invalid_names_step_and_call() -> None:
    message = fails("invalid.json")
    assert "step 3, tool call 1: the tool call has no 'function_name'" in message


def test_truncated() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_other_version_is_refused() -> None:
    message = fails("other_version.json")
    assert "'schema_version' must be 'ATIF-v1.<minor>', got 'ATIF-v2.0'" in message


def _doc(steps: list[Any], **extra: Any) -> bytes:
    return orjson.dumps({"schema_version": "ATIF-v1.5", "agent": {}, "steps": steps, **extra})


USER = {"step_id": 1, "source": "user", "message": "x"}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_doc([]), "'steps' must be a non-empty list"),
        (orjson.dumps({"schema_version": "ATIF-v1.5", "steps": [{}]}), "'agent' must be a JSON"),
        (_doc([{"step_id": 1, "source": "bot"}]), "step 1: unknown source 'bot'"),
        (
            _doc([{"step_id": 1, "source": "user", "message": 5}]),
            "step 1: 'message' must be a string or a list of content parts, got number",
        ),
        (
            _doc([{"source": "agent", "observation": {"results": [{"source_call_id": 3}]}}]),
            "steps[0], result 0: 'source_call_id' must be a string",
        ),
        (
            _doc(
                [USER],
                subagent_trajectories=[
                    {
                        "schema_version": "ATIF-v1.5",
                        "agent": {},
                        "steps": [USER, {"step_id": 2, "source": "agent", "tool_calls": [{}]}],
                    }
                ],
            ),
            "subagent 0, step 2, tool call 0: the tool call has no 'function_name'",
        ),
    ],
)
def test_malformed_trajectories(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(data, format_name="atif"))
    assert expected in str(caught.value)


def test_detected_from_bytes() -> None:
    assert (
        read_trace(
            b'{"schema_version": "ATIF-v1.2", "agent": {"name": "a"}, "steps":'
            b' [{"step_id": 1, "source": "user", "message": "hi"}]}'
        ).task
        == "hi"
    )


# --- the real trajectories, read in place --------------------------------------------


@pytest.fixture(scope="module")
def real_folder() -> Path:
    folder = corpus_root() / "trace_fixtures" / "atif_harbor"
    if not (folder / "harbor_openhands.json").is_file():
        pytest.skip(
            f"real ATIF trajectories not found in {folder}: set TRACEGRADE_CORPUS to the folder"
            " that holds trace_fixtures/ to run this test"
        )
    return folder


def _raw_counts(path: Path) -> tuple[int, int, int]:
    steps = orjson.loads(path.read_bytes())["steps"]
    return (
        sum(s["source"] == "user" for s in steps),
        sum(len(s.get("tool_calls") or []) for s in steps),
        sum(len((s.get("observation") or {}).get("results", [])) for s in steps),
    )


def _counts(trace: Any) -> tuple[int, int, int]:
    return (
        sum(isinstance(f, UserFrame) for f in trace.frames),
        sum(isinstance(f, ToolCallFrame) for f in trace.frames),
        sum(isinstance(f, ToolResultFrame) for f in trace.frames),
    )


@pytest.mark.corpus
def test_real_openhands_trajectory(real_folder: Path) -> None:
    path = real_folder / "harbor_openhands.json"
    (trace,) = read_traces(path)
    assert _counts(trace) == _raw_counts(path) == (1, 2, 1)
    assert len(trace.frames) == 9
    assert sum(isinstance(f, SystemFrame) for f in trace.frames) == 3
    assert trace.tool_path == ("str_replace_editor", "finish")  # finish has no result
    assert (trace.id, trace.model, trace.commit) == ("harbor-openhands-hello-world", None, "1.1.0")
    assert trace.task == 'Create a file called hello.txt with "Hello, world!" as the content.\n'
    assert trace.final_answer == "All done! What's next on the agenda?"
    result = next(f for f in trace.frames if isinstance(f, ToolResultFrame))
    assert (result.id, result.result, result.origin) == (
        "call_fake_1",
        "File created successfully at: /app/hello.txt",
        "step 5",
    )


@pytest.mark.corpus
def test_real_multi_tool_trajectory(real_folder: Path) -> None:
    path = real_folder / "multi_tool_trajectory.json"
    (trace,) = read_traces(path)
    assert _counts(trace) == _raw_counts(path) == (1, 4, 4)
    assert len(trace.frames) == 13
    assert (trace.id, trace.model, trace.commit) == ("sess-def456-multi", "gpt-4-turbo", "2.1.0")
    assert trace.tool_path == (
        "financial_search",
        "financial_search",
        "news_search",
        "analyst_estimates",
    )
    results = {f.id: f.result for f in trace.frames if isinstance(f, ToolResultFrame)}
    assert set(results) == {"call_fin_aapl", "call_fin_msft", "call_news", "call_analyst"}
    assert "$94.9 billion" in results["call_fin_aapl"]
    # The earnings-call dates come from a system step, not a tool.
    (system,) = [f for f in trace.frames if isinstance(f, SystemFrame)]
    assert "January 28, 2025" in system.content
    assert system.origin == "step 3"
    assert trace.final_answer.startswith(
        "Here is a comparison of the latest quarterly revenue for Apple and Microsoft"
    )
