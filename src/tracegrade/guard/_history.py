"""The guard's haystack: sources of figures seen so far in a run, indexed as they arrive."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from tracegrade.figures import FigureIndex
from tracegrade.traces import SystemFrame, ToolCallFrame, ToolResultFrame, UserFrame

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.guard._policy import GuardPolicy
    from tracegrade.traces import Frame

__all__ = ["GuardHistory", "result_text"]


def result_text(result: object) -> str:
    """A tool result as the text the model saw: strings as they are, other JSON serialised."""
    if isinstance(result, str):
        return result
    try:
        return orjson.dumps(result).decode()
    except TypeError:
        return str(result)


class GuardHistory:
    """Sources of figures in one run, indexed incrementally.

    Each :meth:`add` indexes one frame in time proportional to its text, so checking a
    call costs the same after ten messages or ten thousand. Human messages and successful
    tool results are sources; assistant text, call arguments and failed results never
    are; the system prompt and guarded tools' own results only when the policy opts in.

    Args:
        policy: Decides which frames are sources.
    """

    __slots__ = ("_calls", "frames_seen", "index", "policy")

    def __init__(self, policy: GuardPolicy) -> None:
        self.policy = policy
        self.index = FigureIndex()
        self._calls: dict[str, str] = {}
        self.frames_seen = 0
        """How many frames were added; the next one gets this index."""

    def add(self, frame: Frame, evidence: str | None = None) -> None:
        """Index one frame (the next in the run).

        Args:
            frame: The frame.
            evidence: How reports refer to it; defaults to ``f<index>``.
        """
        where = evidence or f"f{self.frames_seen}"
        self.frames_seen += 1
        if isinstance(frame, UserFrame):
            self.index.add(frame.content, where)
        elif isinstance(frame, SystemFrame):
            if self.policy.sources.system:
                self.index.add(frame.content, where)
        elif isinstance(frame, ToolCallFrame):
            self._calls[frame.id] = frame.name
        elif isinstance(frame, ToolResultFrame) and frame.ok:
            # A failed result is not a source: errors often echo the failed call's own
            # arguments, which would let an invented figure launder itself through a retry.
            # A result whose call is unknown is still something a tool returned.
            tool = self._calls.get(frame.id)
            if tool is None or self.policy.results_are_sources(tool):
                self.index.add(result_text(frame.result), where)

    def extend(self, frames: Iterable[Frame]) -> GuardHistory:
        """Index several frames in order; returns self."""
        for frame in frames:
            self.add(frame)
        return self
