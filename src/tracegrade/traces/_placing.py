"""Helpers for the readers: frame origins, typed field access, pausing the garbage collector."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from tracegrade.errors import TraceFormatError
from tracegrade.traces._reading import json_type

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from tracegrade.traces._model import Trace

__all__ = [
    "gc_paused",
    "object_or_empty",
    "placed",
    "read_first",
    "require_list",
    "require_object",
    "text_or_none",
]

_F = TypeVar("_F", bound=BaseModel)


def placed(frame: _F, origin: str) -> _F:
    """The frame with ``origin`` set: where in the source file it came from.

    Readers call this on a frame they have just built and nobody else holds, so it is set in
    place (``model_copy`` per frame was the largest cost of reading, benchmarks/RESULTS.md).
    """
    object.__setattr__(frame, "origin", origin)
    frame.__pydantic_fields_set__.add("origin")
    return frame


def require_object(value: Any, what: str, name: str, fix: str) -> dict[str, Any]:  # noqa: ANN401 - any JSON value
    """``value`` as a JSON object, or a TraceFormatError saying what it was instead."""
    if not isinstance(value, dict):
        raise TraceFormatError(
            f"{what} must be a JSON object, got {json_type(value)}", fix=fix, path=name
        )
    return value


def require_list(value: Any, what: str, name: str, fix: str) -> list[Any]:  # noqa: ANN401 - any JSON value
    """``value`` as a JSON array, or a TraceFormatError saying what it was instead."""
    if not isinstance(value, list):
        raise TraceFormatError(f"{what} must be a list, got {json_type(value)}", fix=fix, path=name)
    return value


def object_or_empty(value: Any) -> dict[str, Any]:  # noqa: ANN401 - any JSON value
    """``value`` when it is a JSON object, else ``{}`` (for optional nested objects)."""
    return value if isinstance(value, dict) else {}


def text_or_none(value: Any) -> str | None:  # noqa: ANN401 - any JSON value
    """A non-empty string as is; anything else as ``None`` (for optional names and ids)."""
    return value if isinstance(value, str) and value else None


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off (as it was, after).

    A reader allocates a frame's objects while the whole parsed file is alive; every
    collection the allocations trigger walks that parsed tree again, which cost a third
    to a half of reading a large file (benchmarks/_readers.py). Readers make little or
    no cyclic garbage, so pausing only defers collecting it. Drop the parsed tree
    before the block ends, or the collection on resuming walks it once more. Never
    hold it across a ``yield``: the caller's code would run with the collector off.
    ``read_traces`` runs every reader this way, so a reader need not pause it itself.
    """
    if not gc.isenabled():
        yield  # the caller paused it already, and will resume it
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def read_first(read: Callable[[], Iterable[Trace]]) -> Iterator[Trace]:
    """Every trace ``read()`` gives, all read before the first is handed back.

    For a document whose traces all come from one parsed tree: the tree is freed once
    ``read()`` is exhausted, while ``read_traces`` still has the collector paused; held
    across a ``yield``, the collector walked it again after each trace. A bad trace's error
    is raised after the traces before it, as when each was read when asked for.
    """
    traces: list[Trace] = []
    failure: TraceFormatError | None = None
    try:
        traces.extend(read())
    except TraceFormatError as exc:
        failure = exc
    yield from traces
    if failure is not None:
        raise failure
