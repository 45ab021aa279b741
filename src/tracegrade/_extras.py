"""Which optional extra a missing module comes from, so the error can say what to install."""

from __future__ import annotations

from tracegrade.errors import MissingExtraError

__all__ = ["EXTRA_OF_MODULE", "missing_extra"]

EXTRA_OF_MODULE = {
    "anthropic": "judges",
    "fastapi": "web",
    "inspect_ai": "inspect",
    "jinja2": "web",
    "langchain": "langgraph",
    "langchain_core": "langgraph",
    "langgraph": "langgraph",
    "multipart": "web",
    "openai": "judges",
    "opentelemetry": "web",
    "psycopg": "postgres",
    "python_multipart": "web",
    "ray": "ray",
    "starlette": "web",
    "uvicorn": "web",
}
"""The top-level module of each extra's dependencies (pyproject.toml), and its extra."""


def missing_extra(exc: ImportError, what: str = "this") -> MissingExtraError | None:
    """The error to raise for ``exc`` when the missing module belongs to an extra, else ``None``.

    Args:
        exc: The import error (``No module named 'uvicorn'``).
        what: What needs it, for the message (``tracegrade serve``, ``touchpoint 'x'``).
    """
    module = (exc.name or "").partition(".")[0]
    extra = EXTRA_OF_MODULE.get(module)
    if extra is None:
        return None
    return MissingExtraError(
        f"{what} needs the {extra} extra ({module} is not installed)", extra=extra
    )
