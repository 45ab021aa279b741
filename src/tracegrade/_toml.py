"""Read a TOML file, turning every way it can fail into one input error that names it."""

from __future__ import annotations

import tomllib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.errors import InputError

__all__ = ["read_toml"]


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
