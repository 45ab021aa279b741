"""The limits every reader enforces on its input, in one place (docs/fuzzing.md, "Limits").

A value nested deeper than :data:`MAX_DEPTH` is refused when it is parsed: deeper values
break Python's recursion and pydantic's serialiser (255 levels) far from the file that held
them. An integer written with more than :data:`MAX_INT_DIGITS` digits is refused where a
reader converts one (OTLP ``intValue``, nanosecond timestamps): 64-bit values need 20.
"""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING, Any

from tracegrade._engine import compiled_core
from tracegrade.errors import TraceFormatError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "bounded_depth",
    "depth_within",
    "parse_int",
    "parsed_depth_within",
    "refuse_special_file",
]

MAX_DEPTH = 200
"""How deep arrays and objects may nest in a trace file (or a JSON string inside one)."""

MAX_INT_DIGITS = 20
"""How many digits an integer a reader converts from text may have (2**64 has 20)."""

_CONTAINERS = (dict, list)
_COUNTED = 2_048  # texts up to this long have their brackets counted first (str.count)
_COUNTED_BYTES = 4_096  # and lines of bytes up to this long (a 3 KB tool result's line)


def depth_within(value: object, limit: int = MAX_DEPTH) -> bool:
    """True when arrays and objects in ``value`` nest at most ``limit`` levels deep."""
    level = [value] if isinstance(value, _CONTAINERS) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return False
        below: list[dict[Any, Any] | list[Any]] = []
        for node in level:
            children = node.values() if isinstance(node, dict) else node
            below.extend(child for child in children if isinstance(child, _CONTAINERS))
        level = below
    return True


def parsed_depth_within(data: bytes | str, value: object, limit: int = MAX_DEPTH) -> bool:
    """:func:`depth_within` of ``value``, just parsed from the JSON text ``data``.

    The compiled core counts the brackets of ``data`` outside its strings instead of walking
    every container in Python. The text can only nest deeper than its value (a repeated
    object key keeps one value), so a text too deep is confirmed on the value.
    """
    size = len(data)
    if size < 2 * limit + 2:
        return True  # nesting deeper takes limit + 1 opening and as many closing brackets
    # Fewer opening brackets than the limit cannot nest deeper: most lines and arguments are
    # told so for less than asking for the engine costs.
    if isinstance(data, bytes):
        if size <= _COUNTED_BYTES:
            # Counted by deleting them: bytes.replace finds them by memchr, five times as fast
            # as bytes.count on a line of few brackets; at most limit + 1 of each are deleted,
            # so a line full of them costs no more (a capped count is over the limit already).
            most = limit + 1
            kept = len(data.replace(b"[", b"", most)) + len(data.replace(b"{", b"", most))
            if 2 * size - kept <= limit:
                return True
    elif size <= _COUNTED and data.count("[") + data.count("{") <= limit:
        return True
    core = compiled_core()
    if core is not None:
        try:
            if core.json_depth_within(data, limit):
                return True
        except UnicodeEncodeError:
            pass  # a str with a lone surrogate, which a Rust string cannot hold
    return depth_within(value, limit)


def bounded_depth(
    value: Any,  # noqa: ANN401 - any JSON value
    name: str,
    where: str = "",
    *,
    data: bytes | str | None = None,
) -> Any:  # noqa: ANN401 - any JSON value
    """Return ``value`` unchanged, or raise when its arrays and objects nest too deeply.

    Args:
        value: A JSON value.
        name: The file, for the error.
        where: The place in the file (``line 3``), for the error.
        data: The JSON text ``value`` was just parsed from, when there is one: its depth is
            then counted on the text (:func:`parsed_depth_within`).

    Raises:
        TraceFormatError: Nesting deeper than :data:`MAX_DEPTH`; names the file.
    """
    within = depth_within(value) if data is None else parsed_depth_within(data, value)
    if not within:
        prefix = f"{where}: " if where else ""
        raise TraceFormatError(
            f"{prefix}arrays and objects nest more than {MAX_DEPTH} levels deep",
            fix="flatten the deep value (a JSON string that deep is kept as text, not parsed)",
            path=name,
        )
    return value


def parse_int(text: str, name: str, where: str) -> int:
    """An integer written as decimal digits (an optional leading ``-``), at most 20 of them.

    Raises:
        TraceFormatError: More digits than :data:`MAX_INT_DIGITS`; names the file and place.
    """
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise TraceFormatError(
            f"{where}: an integer of {len(text.lstrip('-'))} digits"
            f" (at most {MAX_INT_DIGITS} are read)",
            fix="OTLP integers are 64-bit; the value is damaged or not a count",
            path=name,
        )
    return int(text)


def refuse_special_file(path: Path, name: str) -> None:
    """Refuse a FIFO, socket or device before it is opened: reading one may never end.

    A missing file is left to ``open``, which names the problem itself.

    Raises:
        TraceFormatError: The path exists and is not a regular file.
    """
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, socket or device)"
        raise TraceFormatError(
            f"cannot read the file: it is {kind}",
            fix="save the trace to a regular file and pass that",
            path=name,
        )
