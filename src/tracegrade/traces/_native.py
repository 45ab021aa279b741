"""The native trace format: one JSON object with ``frames`` (docs/formats/native.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import ValidationError

from tracegrade.errors import TraceFormatError
from tracegrade.traces._limits import bounded_depth
from tracegrade.traces._model import Trace
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pydantic_core import ErrorDetails

__all__ = ["parse_native_trace"]

_FRAME_TYPES = "user, assistant, tool_call, tool_result, compaction, approval"
# The native format's keys; anything else in the file is ignored (not validated).
_TRACE_KEYS = ("id", "commit", "model", "task", "outcome", "tokens", "frames")
_REQUIRED = ("id", "commit", "model", "task", "outcome", "tokens", "frames")
_FRAME_KEYS = {
    "user": ("type", "content"),
    "assistant": ("type", "content"),
    "tool_call": ("type", "id", "name", "args"),
    "tool_result": ("type", "id", "ok", "result"),
    "compaction": ("type", "before", "after", "summary"),
    "approval": ("type", "tool", "decision"),
}


def _json_object(name: str, head: bytes) -> bool:
    # Key order is free, so 'frames' may come after a long header: any JSON object will do.
    # Bytes without a name ("") are judged by their content alone.
    suffix_ok = not name or name.lower().endswith(".json")
    return suffix_ok and head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


_VERSION_2 = re.compile(rb'\A\s*\{\s*"schema_version"\s*:\s*2\b')


def _looks_native(name: str, head: bytes) -> bool:
    """Surely native: schema_version 2 first, or the reference format's keys near the top.

    `tracegrade convert` writes schema_version first, so a trace that quotes another format's
    keys in its text (span attributes, say) is still read as native.
    """
    if not _json_object(name, head):
        return False
    if _VERSION_2.match(head):
        return True
    # Asked first of every file whose reader is detected, so find(), not `in`: bytes' `in`
    # first tries the key as an integer and formats the TypeError it then drops (a third of
    # the sniff); spelled out, not all() over a generator.
    find = head.find
    return (
        find(b'"frames"') >= 0
        and find(b'"tokens"') >= 0
        and find(b'"outcome"') >= 0
        and find(b'"commit"') >= 0
    )


@reader(
    "native",
    description="tracegrade's own JSON trace: a .json file holding one object with 'frames'",
    can_read=_looks_native,
    priority=20,  # its own signature beats any content a trace may quote (span attributes...)
    fallback=_json_object,  # any other JSON object, when no reader recognises it
)
def _read_native(data: bytes, name: str) -> Iterator[Trace]:
    yield parse_native_trace(data, name)


def parse_native_trace(data: bytes | str, name: str = "<bytes>") -> Trace:
    """Parse and validate one native trace.

    Raises:
        TraceFormatError: Not JSON, or not a valid trace; the message names the
            file, the frame index and the field.
    """
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise TraceFormatError(
            f"not valid JSON ({exc})",
            fix="the file may be truncated or not a JSON trace; re-export it",
            path=name,
        ) from exc
    return validate_native_trace(bounded_depth(raw, name, data=data), name)


def validate_native_trace(raw: Any, name: str = "<bytes>") -> Trace:  # noqa: ANN401 - any JSON value
    """Validate an already parsed JSON value as a native trace.

    Raises:
        TraceFormatError: As :func:`parse_native_trace`.
    """
    if not isinstance(raw, dict):
        raise TraceFormatError(
            f"a trace must be a JSON object, got {_json_type(raw)}",
            fix="a native trace is an object with id, commit, model, task, outcome, tokens, frames",
            path=name,
        )
    version = raw.get("schema_version", 1)
    if version == 2:  # tracegrade's full trace model, as `tracegrade convert` writes it
        try:
            return Trace.model_validate(raw)
        except ValidationError as exc:
            raise _format_error(exc.errors(include_url=False)[0], raw, name) from exc
    if version != 1:
        raise TraceFormatError(
            f"field 'schema_version': {version!r} is not a version this tracegrade reads",
            fix="versions read: 1 (the reference format, the default) and 2 (tracegrade's full"
            " trace, written by `tracegrade convert`); upgrade tracegrade for newer files",
            path=name,
        )
    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise TraceFormatError(
            f"field {missing[0]!r}: is missing",
            fix="see docs/formats/native.md for the fields of a trace",
            path=name,
        )
    frames = raw["frames"]
    if isinstance(frames, list):
        frames = [_native_frame(frame, index, name) for index, frame in enumerate(frames)]
    try:
        return Trace.model_validate(
            {key: raw[key] for key in _TRACE_KEYS if key in raw} | {"frames": frames}
        )
    except ValidationError as exc:
        raise _format_error(exc.errors(include_url=False)[0], raw, name) from exc


def _native_frame(frame: object, index: int, name: str) -> object:
    """Keep a frame's native keys only (others are ignored, as the format says)."""
    if not isinstance(frame, dict):
        return frame  # validation names it
    kind = frame.get("type")
    keys = _FRAME_KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        if "type" in frame:
            raise TraceFormatError(
                f"unknown frame type {frame['type']!r}",
                fix=f"a frame's type is one of: {_FRAME_TYPES}",
                path=name,
                frame=index,
            )
        return frame  # validation names the missing type
    return {key: frame[key] for key in keys if key in frame}


def _format_error(error: ErrorDetails, raw: dict[str, Any], name: str) -> TraceFormatError:
    loc = error["loc"]
    if len(loc) >= 2 and loc[0] == "frames" and isinstance(loc[1], int):
        index = loc[1]
        frame = raw["frames"][index]
        if error["type"] in {"union_tag_invalid", "union_tag_not_found"}:
            got = frame.get("type") if isinstance(frame, dict) else None
            what = (
                f"unknown frame type {got!r}"
                if isinstance(frame, dict) and "type" in frame
                else f"frame has no string 'type' (got {_json_type(frame)})"
            )
            return TraceFormatError(
                what, fix=f"a frame's type is one of: {_FRAME_TYPES}", path=name, frame=index
            )
        if not isinstance(frame, dict):
            return TraceFormatError(
                f"a frame must be a JSON object, got {_json_type(frame)}",
                fix=f"a frame is an object with a 'type' ({_FRAME_TYPES}) and its fields",
                path=name,
                frame=index,
            )
        field = ".".join(str(part) for part in loc[3:]) or "frame"
        kind = frame.get("type")
        return TraceFormatError(
            f"{kind} frame, field {field!r}: {_message(error)}",
            fix="see docs/formats/native.md for the fields of each frame type",
            path=name,
            frame=index,
        )
    field = ".".join(str(part) for part in loc) or "trace"
    return TraceFormatError(
        f"field {field!r}: {_message(error)}" if loc else _message(error),
        fix="see docs/formats/native.md for the fields of a trace",
        path=name,
    )


def _message(error: ErrorDetails) -> str:
    text = error["msg"]
    if text.startswith("Value error, "):
        text = text.removeprefix("Value error, ")
    if error["type"] == "missing":
        return "is missing"
    got = error.get("input")
    if error["type"] in {
        "string_type",
        "bool_type",
        "int_type",
        "literal_error",
        "greater_than_equal",
    }:
        shown = _json_type(got) if got is None else f"{_json_type(got)} {_short(got)}"
        return f"{text[0].lower()}{text[1:]} (got {shown})"
    return text


_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),  # before int: a JSON boolean is not a number
    (int, "number"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _short(value: object) -> str:
    text = orjson.dumps(value).decode() if not isinstance(value, (bytes, bytearray)) else "bytes"
    return text if len(text) <= 40 else text[:37] + "..."
