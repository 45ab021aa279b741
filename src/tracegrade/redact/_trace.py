"""Redact a whole trace: its task, every frame's text and values, its metadata (pure).

What was replaced is recorded in the trace's ``metadata["redactions"]`` (a list of
:meth:`Redaction.as_json` objects: kind, frame index and field), after any recorded
before; the secrets themselves are gone. A trace with no secret comes back as it was (the
same object), so redacting twice is redacting once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.redact._redactor import Redaction, Redactor
    from tracegrade.traces._model import Trace

__all__ = ["REDACTIONS_KEY", "redact_trace", "trace_redactions"]

REDACTIONS_KEY = "redactions"
"""The key of ``Trace.metadata`` that lists the redactions made."""

# The fields of a frame that hold text or values a secret could be in.
_FRAME_FIELDS = ("content", "args", "result", "artifact", "summary")


def _keys(value: Any, keys: set[str]) -> None:  # noqa: ANN401 - any JSON value
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(str(key))
            _keys(item, keys)
    elif isinstance(value, list | tuple):
        for item in value:
            _keys(item, keys)


def _texts(trace: Trace, keys: set[str]) -> Iterator[str]:
    """Every text of the trace, JSON values as JSON (to tell which rules can apply).

    The keys of its JSON values are added to ``keys``.
    """
    yield trace.task
    for frame in trace.frames:
        fields = frame.__dict__  # the model's own values (getattr of a missing one is slow)
        for name in _FRAME_FIELDS:
            value = fields.get(name)
            if isinstance(value, str):
                yield value
            elif value is not None:
                _keys(value, keys)
                yield orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    if trace.metadata:
        _keys(trace.metadata, keys)
        yield orjson.dumps(trace.metadata, option=orjson.OPT_NON_STR_KEYS).decode()


def redact_trace(trace: Trace, redactor: Redactor) -> Trace:
    """The trace with every secret the redactor finds replaced, and each one recorded."""
    # Which rules apply is decided once for the whole trace: most traces hold few triggers.
    keys: set[str] = set()
    text = "\x00".join(_texts(trace, keys))
    redactor = redactor.narrowed(text, keys)
    if redactor.idle:
        return trace
    found: list[Redaction] = []
    update: dict[str, Any] = {}
    task, in_task = redactor.value(trace.task, "task")
    if in_task:
        update["task"], found = task, in_task
    frames = list(trace.frames)
    for index, frame in enumerate(frames):
        changes: dict[str, Any] = {}
        for name in _FRAME_FIELDS:
            if name not in type(frame).model_fields:
                continue
            new, made = redactor.value(getattr(frame, name), name, frame=index)
            if made:
                changes[name] = new
                found.extend(made)
        if changes:
            frames[index] = frame.model_copy(update=changes)
    metadata = {key: value for key, value in trace.metadata.items() if key != REDACTIONS_KEY}
    new_metadata, in_metadata = redactor.value(metadata, "metadata")
    found.extend(in_metadata)
    if not found:
        return trace
    if any(new is not old for new, old in zip(frames, trace.frames, strict=True)):
        update["frames"] = tuple(frames)
    recorded = list(trace.metadata.get(REDACTIONS_KEY) or [])
    update["metadata"] = {
        **new_metadata,
        REDACTIONS_KEY: [*recorded, *(each.as_json() for each in found)],
    }
    return trace.model_copy(update=update)


def trace_redactions(trace: Trace) -> list[dict[str, Any]]:
    """The redactions recorded on a trace (``metadata["redactions"]``), oldest first."""
    recorded = trace.metadata.get(REDACTIONS_KEY)
    return (
        [item for item in recorded if isinstance(item, dict)] if isinstance(recorded, list) else []
    )
