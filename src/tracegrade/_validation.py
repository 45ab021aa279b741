"""Word a pydantic validation error for a person: one error, the likeliest cause first."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError
    from pydantic_core import ErrorDetails

__all__ = ["error_message", "first_error"]


def first_error(exc: ValidationError) -> ErrorDetails:
    """The error to report: an unknown field (likely a typo) before what it left missing."""
    errors = exc.errors(include_url=False)
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


def error_message(error: ErrorDetails, *, unknown: str = "field") -> str:
    """The error's message without pydantic's prefixes: 'is missing', 'is not a known field'."""
    if error["type"] == "missing":
        return "is missing"
    if error["type"] == "extra_forbidden":
        return f"is not a known {unknown} (a typo?)"
    return error["msg"].removeprefix("Value error, ")
