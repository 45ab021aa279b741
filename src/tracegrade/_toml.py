"""Read a TOML file, turning every way it can fail into one input error that names it.

Also where the tables of an array of tables start, which tomllib does not keep: reports
point CI annotations at a suite case's or a touchpoint's line.
"""

from __future__ import annotations

import re
import tomllib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.errors import InputError

__all__ = ["array_table_lines", "read_toml"]


def read_toml(path: Path, error: type[InputError]) -> dict[str, Any]:
    """The file's tables.

    Raises:
        InputError: Of the given class: the file is unreadable, not UTF-8, or not TOML; the
            message names the file and, for syntax, the line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(
            f"cannot read the file ({exc.strerror or exc})",
            fix="check that the path exists and is readable",
            path=str(path),
        ) from exc
    except UnicodeDecodeError as exc:
        raise error("not UTF-8 text", fix="save the file as UTF-8", path=str(path)) from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(
            f"not valid TOML ({exc})", fix="fix the TOML syntax at that place", path=str(path)
        ) from exc


# A table header with a bare (possibly dotted) key: `[[cases]]`, `[suite]`, `[a.b]`.
_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(?:#.*)?$")
_ID = re.compile(r"""^\s*id\s*=\s*["']([^"'\\]*)["']""")


def array_table_lines(text: str, name: str) -> tuple[tuple[int, str | None], ...]:
    """Each ``[[name]]`` table's header line (1-based), with its ``id = "..."`` if written.

    A line scan, not a parse: a header inside a multi-line string would count, and tables
    written inline (``name = [{...}]``) do not; callers compare the count with what the
    parser read and drop the lines when they differ.
    """
    found: list[tuple[int, str | None]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header is not None:
            inside = header.group(1) == "[[" and header.group(2) == name
            if inside:
                found.append((number, None))
            continue
        key = _ID.match(line) if inside and found[-1][1] is None else None
        if key is not None:
            found[-1] = (found[-1][0], key.group(1))
    return tuple(found)
