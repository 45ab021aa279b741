"""Golden fixtures of the native trace reader: one valid file and how each bad one fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tracegrade.errors import TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    read_trace,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"


def fails(name: str, **options: Any) -> str:
    """The message of the TraceFormatError raised for a fixture; it must name the file."""
    path = FIXTURES / name
    with pytest.raises(TraceFormatError) as caught:
        read_trace(path, **options)
    message = str(caught.value)
    assert str(path) in message
    assert caught.value.path == str(path)
    return message


def test_valid_fixture_reads_into_a_trace() -> None:
    trace = read_trace(FIXTURES / "valid.json")
    assert (trace.id, trace.commit, trace.model) == (
        "example-1",
        "v6-four-operations",
        "gpt-5-mini",
    )
    assert trace.task == "Which file sets the port?"
    assert trace.outcome == "success"
    assert trace.tokens == (100, 120, 300, 320)
    assert [type(frame) for frame in trace.frames] == [
        UserFrame,
        ToolCallFrame,
        ToolResultFrame,
        AssistantFrame,
    ]
    result = trace.frames[2]
    assert isinstance(result, ToolResultFrame)
    assert result.ok is True
    assert result.result["content"] == "const PORT = 4321\n\nexport {}\n"
    assert trace.tool_path == ("read_file",)
    assert trace.final_answer == "src/server.ts sets it to 4321."
    assert trace.schema_version == 2  # the model version; the file is the version-1 format


def test_valid_fixture_from_bytes_and_str_path() -> None:
    data = (FIXTURES / "valid.json").read_bytes()
    # Bytes have no file name to detect the format from, so the format is named.
    assert read_trace(data, format_name="native") == read_trace(str(FIXTURES / "valid.json"))
    assert len(list(read_traces(FIXTURES / "valid.json"))) == 1


def test_unknown_frame_type_names_the_frame() -> None:
    message = fails("invalid_frame_type.json")
    assert "frame 1" in message
    assert "system" in message


def test_missing_frame_field_names_the_frame_and_field() -> None:
    message = fails("missing_field.json")
    assert "frame 2" in message
    assert "name" in message
    assert "frame 0" not in message


def test_tokens_length_must_equal_frames_length() -> None:
    message = fails("tokens_mismatch.json")
    assert "tokens" in message
    assert "frame " not in message


def test_truncated_file_is_not_valid_json() -> None:
    message = fails("truncated.json")
    assert "json" in message.lower()


def test_other_schema_version_is_rejected() -> None:
    message = fails("other_version.json")
    assert "schema_version" in message


def test_non_object_top_level_is_rejected() -> None:
    fails("non_object.json")
    message = fails("non_object.json", format_name="native")
    assert "object" in message
    assert "array" in message


def test_ok_must_be_a_boolean_not_one() -> None:
    message = fails("ok_as_number.json")
    assert "frame 3" in message
    assert "ok" in message


def test_tokens_must_be_numbers_not_booleans() -> None:
    message = fails("tokens_with_true.json")
    assert "tokens" in message


def test_unknown_file_kind_names_the_file() -> None:
    message = fails("notes.txt")
    assert "`tracegrade formats` lists the formats read" in message


def test_unknown_format_name_names_the_file() -> None:
    message = fails("valid.json", format_name="no-such-format")
    assert "no-such-format" in message


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    with pytest.raises(TraceFormatError) as caught:
        read_trace(path)
    assert str(path) in str(caught.value)


def test_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="frame 1"):
        read_trace(FIXTURES / "invalid_frame_type.json")


def test_every_bad_fixture_fails_and_only_valid_reads() -> None:
    names = sorted(path.name for path in FIXTURES.iterdir())
    read = []
    for name in names:
        try:
            read_trace(FIXTURES / name)
        except TraceFormatError:
            continue
        read.append(name)
    assert read == ["valid.json"]


def test_key_order_and_long_fields_do_not_stop_detection(tmp_path: Path) -> None:
    # SPEC 1: a trace is one JSON object; key order is free and unknown extra keys are
    # ignored. A long task or metadata blob written before 'tokens' and 'frames' is still
    # a valid native trace.
    raw = orjson.loads((FIXTURES / "valid.json").read_bytes())
    reordered = {"metadata": {"notes": "n" * 5000}, **raw}
    path = tmp_path / "long-header.json"
    path.write_bytes(orjson.dumps(reordered))
    assert read_trace(path).id == "example-1"
