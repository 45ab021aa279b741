"""observe(): pair tool results with their calls and decode each into observations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.errors import UnreadableResultError
from tracegrade.observations._model import Observations
from tracegrade.observations._registry import decoders_for
from tracegrade.traces import ToolCallFrame, ToolResultFrame

if TYPE_CHECKING:
    from tracegrade.observations._model import Source
    from tracegrade.traces import Trace

__all__ = ["observe"]


def observe(trace: Trace) -> Observations:
    """Decode every tool result of a trace into observations, in frame order.

    A result is paired with the latest earlier call of the same id. A failed
    result (``ok: false`` with a body whose own ``ok`` is false) yields nothing.

    Raises:
        UnreadableResultError: A result answers no earlier call, a failed result
            has the wrong body, or no decoder recognises a result. The error names
            the frame and the tool; a grade is never made from unread evidence.
    """
    calls: dict[str, str] = {}
    sources: list[tuple[int, str, Source]] = []
    for index, frame in enumerate(trace.frames):
        if isinstance(frame, ToolCallFrame):
            calls[frame.id] = frame.name
            continue
        if not isinstance(frame, ToolResultFrame):
            continue
        tool = calls.get(frame.id)
        if tool is None:
            raise UnreadableResultError(
                f"orphan tool result: no earlier tool_call has id {frame.id!r}",
                fix="a tool_result must come after the tool_call with the same id",
                frame=index,
            )
        result = frame.result
        if not frame.ok:
            if isinstance(result, dict) and result.get("ok") is False:
                continue
            raise UnreadableResultError(
                "failed result (ok: false) must be an object whose own 'ok' is false",
                fix='record failures as {"ok": false, "error": "..."}',
                frame=index,
                tool=tool,
            )
        sources.extend((index, tool, source) for source in _decode(result, tool, index))
    return Observations(sources)


def _decode(result: object, tool: str, index: int) -> list[Source]:
    tried = decoders_for(tool)
    for candidate in tried:
        sources = candidate.decode(result)
        if sources is not None:
            return list(sources)
    if not isinstance(result, dict):
        detail = f"the result is {'null or missing' if result is None else type(result).__name__}"
    elif result.get("ok") is not True:
        detail = "the result's own 'ok' is not true"
    else:
        detail = f"keys {sorted(result)} fit no shape"
    shapes = "; ".join(d.description for d in tried)
    raise UnreadableResultError(
        f"unreadable result: {detail}",
        fix=(
            f"known shapes: {shapes}. Fix the result, or register a decoder for this tool"
            " with tracegrade.observations.decoder"
        ),
        frame=index,
        tool=tool,
    )
