"""Trace validation rules of SPEC 1, on in-memory traces."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from tests.helpers.builders import assistant, call, make_trace, result, user
from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    ApprovalFrame,
    AssistantFrame,
    CompactionFrame,
    ToolResultFrame,
    Trace,
    parse_native_trace,
    validate_native_trace,
)
from tracegrade.traces._model import built_frames


def invalid(frames: list[dict[str, Any]], **fields: Any) -> str:
    with pytest.raises(TraceFormatError) as caught:
        make_trace(frames, **fields)
    return str(caught.value)


def test_every_frame_kind_is_accepted_and_extra_keys_are_ignored() -> None:
    trace = make_trace(
        [
            user("go"),
            call("c1", "write_file", [1, "any json"]),
            {"type": "approval", "tool": "write_file", "decision": "allow", "by": "me"},
            result("c1", True, {"ok": True, "file": "a", "bytes": 1, "created": True}),
            {"type": "compaction", "before": 900, "after": 90, "summary": "s"},
            assistant("done"),
        ],
        unknown_key={"nested": True},
    )
    assert isinstance(trace.frames[2], ApprovalFrame)
    assert isinstance(trace.frames[4], CompactionFrame)


def test_result_may_be_any_json_or_missing() -> None:
    frames = [
        call("c1", "x"),
        result("c1", True, [1, 2]),
        {"type": "tool_result", "id": "c1", "ok": False},
    ]
    trace = make_trace(frames)
    missing = trace.frames[2]
    assert isinstance(missing, ToolResultFrame)
    assert missing.result is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", ""),
        ("commit", ""),
        ("model", 3),
        ("task", None),
        ("outcome", "ungraded"),
        ("outcome", "SUCCESS"),
        ("tokens", [-1]),
        ("tokens", [1.5]),
        ("tokens", "1"),
    ],
)
def test_top_level_fields_are_checked(field, value) -> None:
    frames = [assistant("a")]
    message = invalid(frames, **{field: value})
    assert field in message


def test_frames_must_not_be_empty() -> None:
    raw = {"id": "i", "commit": "c", "model": "m", "task": "t", "outcome": "success"}
    with pytest.raises(TraceFormatError, match="frames"):
        validate_native_trace({**raw, "tokens": [], "frames": []})


@pytest.mark.parametrize("field", ["id", "commit", "model", "task", "outcome", "tokens", "frames"])
def test_every_top_level_field_is_required(field) -> None:
    raw: dict[str, Any] = {
        "id": "i",
        "commit": "c",
        "model": "m",
        "task": "t",
        "outcome": "success",
        "tokens": [0],
        "frames": [assistant("a")],
    }
    del raw[field]
    with pytest.raises(TraceFormatError, match=field):
        validate_native_trace(raw)


@pytest.mark.parametrize(
    ("frame", "field"),
    [
        pytest.param({"type": "user"}, "content", id="user-content"),
        pytest.param({"type": "assistant", "content": 1}, "content", id="assistant-content"),
        pytest.param({"type": "tool_call", "id": "c", "name": 5}, "name", id="call-name"),
        pytest.param({"type": "tool_call", "id": 1, "name": "n"}, "id", id="call-id"),
        pytest.param({"type": "tool_result", "id": "c", "ok": "true"}, "ok", id="ok-string"),
        pytest.param({"type": "tool_result", "id": "c", "ok": 0}, "ok", id="ok-zero"),
        pytest.param({"type": "tool_result", "id": "c"}, "ok", id="ok-missing"),
        pytest.param(
            {"type": "compaction", "before": -1, "after": 0, "summary": ""}, "before", id="neg"
        ),
        pytest.param(
            {"type": "compaction", "before": True, "after": 0, "summary": ""}, "before", id="bool"
        ),
        pytest.param({"type": "approval", "tool": "t", "decision": "maybe"}, "decision", id="dec"),
        pytest.param({"content": "no type"}, "type", id="no-type"),
        pytest.param({"type": "System", "content": "x"}, "System", id="type-case"),
    ],
)
def test_frame_errors_name_the_frame_index_and_field(frame, field) -> None:
    message = invalid([user(), assistant("a"), frame, assistant("b")])
    assert "frame 2" in message
    assert field in message


def test_frame_that_is_not_an_object_names_the_frame() -> None:
    assert "frame 1" in invalid([user(), "not a frame"])  # type: ignore[list-item]


def test_parse_native_trace_names_the_given_file() -> None:
    with pytest.raises(TraceFormatError) as caught:
        parse_native_trace(b'{"frames": [', "runs/x.json")
    assert "runs/x.json" in str(caught.value)
    assert caught.value.path == "runs/x.json"


def test_trace_is_frozen() -> None:
    trace = make_trace([assistant("a")])
    with pytest.raises(ValueError, match="frozen"):
        trace.id = "other"  # type: ignore[misc]


def test_frames_a_reader_built_are_taken_as_they_are_and_nothing_else() -> None:
    class Impostor(BaseModel):
        type: str = "assistant"
        content: str = "not a frame"

    made = (AssistantFrame(content="hi"),)
    fields = {"id": "t", "task": "go"}
    trace = Trace.model_validate({**fields, "frames": made}, context=built_frames())
    assert trace.frames[0] is made[0]
    # Anything that is not a tuple of frame instances is validated as usual.
    as_dicts = ({"type": "assistant", "content": "hi"},)
    assert (
        Trace.model_validate({**fields, "frames": as_dicts}, context=built_frames()).frames == made
    )
    for frames in [
        (),
        (Impostor(),),
        ({"type": "assistant", "content": 7},),
        [AssistantFrame(content="hi"), 3],
    ]:
        with pytest.raises(ValidationError):
            Trace.model_validate({**fields, "frames": frames}, context=built_frames())
