"""Word a project file's validation error as a ProjectError naming touchpoint and field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade._validation import error_message, first_error
from tracegrade.errors import ProjectError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantic import ValidationError

__all__ = ["contract_error"]


_FIX = "see docs/evals.md for the touchpoint contract"


def _label(item: object, index: int) -> str:
    """A touchpoint's name in an error: its id, else its position (1-based)."""
    name = item.get("id") if isinstance(item, dict) else None
    return repr(name) if isinstance(name, str) and name else f"#{index + 1}"


def contract_error(
    exc: ValidationError, data: Mapping[str, Any], *, path: str, single: bool = False
) -> ProjectError:
    """Word pydantic's first error as a :class:`ProjectError` naming touchpoint and field.

    Args:
        exc: The validation error of a :class:`ProjectConfig` (``data`` is the whole file)
            or, with ``single``, of one :class:`Touchpoint` (``data`` is its fields).
        data: What was validated.
        path: The file, or the Python function, the data came from.
        single: ``data`` is one touchpoint's fields.
    """
    error = first_error(exc)
    loc = list(error["loc"])
    ctx = error.get("ctx") or {}
    touchpoint: str | None = None
    if single:
        touchpoint = _label(data, 0)
    elif len(loc) >= 2 and loc[0] == "touchpoints" and isinstance(loc[1], int):
        items = data.get("touchpoints")
        item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
        touchpoint = _label(item, loc[1])
        loc = loc[2:]
    if isinstance(ctx.get("touchpoint"), str):
        touchpoint = repr(ctx["touchpoint"])
    if isinstance(ctx.get("field"), str):
        loc = [*loc, ctx["field"]]
    field = ".".join(str(part) for part in loc if not isinstance(part, int)) or None
    return ProjectError(
        error_message(error), fix=_FIX, path=path, touchpoint=touchpoint, field=field
    )
