"""observe(): pair tool results with their calls and decode each into observations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.errors import UnreadableResultError
from tracegrade.figures import result_text
from tracegrade.observations._model import Document, Observations
from tracegrade.observations._registry import decoders_for
from tracegrade.traces import ToolCallFrame, ToolResultFrame

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations._model import Source
    from tracegrade.observations._registry import Decoder
    from tracegrade.traces import Trace

__all__ = ["observe"]


def observe(
    trace: Trace, *, strict: bool | None = None, decoders: Sequence[Decoder] = ()
) -> Observations:
    """Decode every tool result of a trace into observations, in frame order.

    A result is paired with the latest earlier call of the same id. A failed result yields
    nothing. A result no decoder recognises is an error in strict mode; otherwise it becomes
    one text source named after its tool (a string as it is, other JSON serialised), listed
    in :attr:`Observations.as_text` so reports can say so; before that, a text result that
    shows one named file (SWE-agent's ``[File: PATH ...]`` window, ``cat PATH``, ``nl -ba
    PATH``, ``sed -n 'A,Bp' PATH``) becomes that file's numbered lines.

    Args:
        trace: The run.
        strict: Raise on a result no decoder recognises, and on a failed result whose body
            is not ``{"ok": false, ...}``. Default: strict for native traces (the reference
            grader's rules), lenient for other formats, whose tools return free text.
        decoders: Extra decoders tried first for their tools (e.g. a suite's declarative
            ``[decoders.TOOL]`` tables), without touching the global registry.

    Raises:
        UnreadableResultError: A result answers no earlier call, or (strict) a failed
            result has the wrong body or no decoder recognises a result. The error names
            the frame and the tool; a grade is never made from unread evidence.
    """
    if strict is None:
        strict = trace.source_format == "native"
    calls: dict[str, str] = {}
    arguments: dict[str, object] = {}
    sources: list[tuple[int, str, Source]] = []
    as_text: list[tuple[int, str]] = []
    for index, frame in enumerate(trace.frames):
        if isinstance(frame, ToolCallFrame):
            calls[frame.id] = frame.name
            arguments[frame.id] = frame.args
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
            if not strict or (isinstance(result, dict) and result.get("ok") is False):
                continue
            raise UnreadableResultError(
                "failed result (ok: false) must be an object whose own 'ok' is false",
                fix='record failures as {"ok": false, "error": "..."}',
                frame=index,
                tool=tool,
            )
        found = _decode(result, tool, index, decoders, strict=strict)
        if found is None:  # lenient only: strict mode raised
            # Imported here: only a lenient run with an unknown result shape gets this far.
            from tracegrade.observations._views import decode_file_view  # noqa: PLC0415

            view = decode_file_view(result, tool, arguments.get(frame.id))
            found = None if view is None else list(view)
        if found is None:
            as_text.append((index, tool))
            found = [Document(tool, result_text(result))]
        sources.extend((index, tool, source) for source in found)
    return Observations(sources, as_text=as_text)


def _decode(
    result: object, tool: str, index: int, extra: Sequence[Decoder], *, strict: bool
) -> list[Source] | None:
    tried = (*(d for d in extra if not d.tools or tool in d.tools), *decoders_for(tool))
    for candidate in tried:
        sources = candidate.decode(result)
        if sources is not None:
            return list(sources)
    if not strict:
        return None
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
            f"known shapes: {shapes}. Fix the result, declare a decoder for this tool"
            " ([decoders.TOOL] in the suite), or register one with"
            " tracegrade.observations.decoder"
        ),
        frame=index,
        tool=tool,
    )
