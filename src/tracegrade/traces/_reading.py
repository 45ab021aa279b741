"""Helpers shared by the readers of other tools' formats: JSON loading, sniffing, text parts."""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import ValidationError

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._limits import MAX_DEPTH, bounded_depth, parsed_depth_within
from tracegrade.traces._model import Trace, UserFrame, built_frames

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from tracegrade.traces._model import Frame
    from tracegrade.traces._pairing import CallLedger

__all__ = [
    "NO_TASK",
    "build_trace",
    "json_type",
    "jsonl_runs",
    "load_json",
    "loads_nested",
    "parse_arguments",
    "parts_text",
    "starts_with",
    "suffix_ok",
    "trace_stem",
]

NO_TASK = "(no user message)"
"""The task of a run that has no non-blank user message (a trace's task may not be empty)."""

_TEXT_PART_KEYS = ("text", "refusal")


def suffix_ok(name: str, *suffixes: str) -> bool:
    """True when the file name ends in one of ``suffixes``, or there is no name (bytes)."""
    return not name or name.lower().endswith(suffixes)


def starts_with(head: bytes, pattern: bytes) -> bool:
    """True when the head, after a BOM and white space, matches the regular expression."""
    return re.match(pattern, head.lstrip(b"\xef\xbb\xbf \t\r\n")) is not None


def trace_stem(name: str) -> str:
    """The file name without folder and suffix, for trace ids; ``trace`` for bytes."""
    stem = PurePath(name).stem if name and not name.startswith("<") else ""
    return stem or "trace"


def load_json(data: bytes | str, name: str, where: str = "") -> Any:  # noqa: ANN401 - any JSON value
    """Parse JSON, or raise a TraceFormatError naming the file (and line)."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        prefix = f"{where}: " if where else ""
        raise TraceFormatError(
            f"{prefix}not valid JSON ({exc})",
            fix="the file may be truncated or not JSON; re-export it",
            path=name,
        ) from exc
    if parsed_depth_within(data, value):  # once per JSON line: one call fewer than below
        return value
    return bounded_depth(value, name, where, data=data)  # raises, naming the place


_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),  # before int: a JSON boolean is not a number
    (int, "number"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def json_type(value: object) -> str:
    """The JSON name of a parsed value's type, for error messages."""
    if value is None:
        return "null"
    return next(
        (json for kind, json in _JSON_TYPES if isinstance(value, kind)), type(value).__name__
    )


def parts_text(parts: list[Any]) -> str:
    """Join the text of content parts (``text``, ``input_text``, ``output_text``, ``refusal``).

    Other parts (images, audio, files) carry no text and are skipped; a bare string part
    is text. Parts are joined with a newline.
    """
    texts: list[str] = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict):
            for key in _TEXT_PART_KEYS:
                value = part.get(key)
                if isinstance(value, str):
                    texts.append(value)
                    break
    return "\n".join(texts)


def loads_nested(text: bytes | str) -> Any:  # noqa: ANN401 - any JSON value
    """``orjson.loads`` of a JSON text found inside a trace (arguments, attributes, outputs).

    A value nested deeper than :data:`MAX_DEPTH` is refused as text that is not JSON is, so
    each caller's handling of that (keep the text, or say the field is not JSON) applies.

    Raises:
        orjson.JSONDecodeError: Not JSON, or nested too deeply.
    """
    parsed = orjson.loads(text)
    if not parsed_depth_within(text, parsed):
        msg = f"arrays and objects nest more than {MAX_DEPTH} levels deep"
        raise orjson.JSONDecodeError(msg, "", 0)
    return parsed


def parse_arguments(arguments: Any) -> Any:  # noqa: ANN401 - any JSON value
    """Call arguments as JSON: a JSON string is parsed; a string that is not JSON is kept.

    So is one nested too deeply to read safely.
    """
    if isinstance(arguments, str):
        try:
            return loads_nested(arguments)
        except orjson.JSONDecodeError:
            return arguments
    return arguments


def build_trace(
    *,
    trace_id: str,
    frames: Sequence[Frame],
    ledger: CallLedger,
    name: str,
    where: str,
    model: str | None = None,
    outcome: str | None = None,
    metadata: dict[str, Any] | None = None,
    task: str | None = None,
) -> Trace:
    """Assemble and validate a trace; its task is ``task``, else the first non-blank user message.

    Raises:
        TraceFormatError: The run has no frames, or a field is invalid.
    """
    if not frames:
        raise TraceFormatError(
            f"{where}: the run has no messages to read",
            fix="a run needs at least one message; remove the empty run",
            path=name,
        )
    if not task:
        task = next(
            (f.content for f in frames if isinstance(f, UserFrame) and not is_blank(f.content)),
            NO_TASK,
        )
    extra = dict(metadata or {})
    if ledger.renamed:
        extra["renamed_call_ids"] = dict(ledger.renamed)
    try:
        return Trace.model_validate(
            {
                "id": trace_id,
                "model": model or None,
                "task": task,
                "outcome": outcome,
                "frames": tuple(frames),
                "metadata": extra,
            },
            context=built_frames(),
        )
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        field = ".".join(str(part) for part in error["loc"]) or "trace"
        raise TraceFormatError(
            f"{where}: field {field!r}: {error['msg']}",
            fix="check the run's id and fields against the format's documentation",
            path=name,
        ) from exc


def jsonl_runs(
    lines: Iterable[bytes], name: str, run: Callable[[Any, str, str, str], Trace]
) -> Iterator[Trace]:
    """One run per line of a ``.jsonl`` file, read one line at a time (a file streams).

    Args:
        lines: The file's lines.
        name: The file, for errors.
        run: Builds a trace from ``(parsed line, name, "line N", default id)``.
    """
    stem = trace_stem(name)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        yield run(load_json(line, name, where), name, where, f"{stem}-line-{number}")
