"""Redact a whole trace: its task, every frame's text and values, its metadata (pure).

What was replaced is recorded in the trace's ``metadata["redactions"]`` (a list of
:meth:`Redaction.as_json` objects: kind, frame index and field), after any recorded
before; the secrets themselves are gone. A trace with no secret comes back as it was (the
same object), so redacting twice is redacting once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.redact._scan import scan_values

if TYPE_CHECKING:
    from pydantic import BaseModel

    from tracegrade.redact._redactor import Redaction, Redactor
    from tracegrade.traces._model import Trace

__all__ = ["REDACTIONS_KEY", "redact_trace", "trace_redactions"]

REDACTIONS_KEY = "redactions"
"""The key of ``Trace.metadata`` that lists the redactions made."""

# The fields of a frame that hold text or values a secret could be in.
_FRAME_FIELDS = ("content", "args", "result", "artifact", "summary")
_FIELDS_OF: dict[type[BaseModel], tuple[str, ...]] = {}  # frame type -> its _FRAME_FIELDS


def _fields_of(kind: type[BaseModel]) -> tuple[str, ...]:
    """Which of :data:`_FRAME_FIELDS` a frame type has, in that order (asked once per type)."""
    names = _FIELDS_OF.get(kind)
    if names is None:
        names = _FIELDS_OF[kind] = tuple(n for n in _FRAME_FIELDS if n in kind.model_fields)
    return names


def _values(trace: Trace) -> list[Any]:
    """Every value of the trace that redaction walks: the task, frame fields, metadata."""
    values: list[Any] = [trace.task]
    append = values.append
    known = _FIELDS_OF
    for frame in trace.frames:
        # Only the fields its type has: a user frame is one lookup, not five.
        names = known.get(type(frame)) or _fields_of(type(frame))
        fields = frame.__dict__  # the model's own values (getattr of a missing one is slow)
        for name in names:
            value = fields.get(name)
            if value is not None:
                append(value)
    metadata = trace.metadata
    if REDACTIONS_KEY in metadata:  # not walked: its own records hold no secret
        metadata = {key: value for key, value in metadata.items() if key != REDACTIONS_KEY}
    values.append(metadata)
    return values


def redact_trace(trace: Trace, redactor: Redactor) -> Trace:
    """The trace with every secret the redactor finds replaced, and each one recorded."""
    # Which rules apply is decided once for the whole trace: most traces hold few triggers.
    present, keys = scan_values(_values(trace), redactor.triggers)
    redactor = redactor.narrowed_to(present, keys)
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
        for name in _fields_of(type(frame)):
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
