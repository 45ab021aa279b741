"""FigureSources: which frames of a run are sources of figures, indexed as they arrive.

The one evidence policy, shared by the grader (figures in final answers), the offline audit
and the runtime guard: human messages and tool results are sources; assistant prose and
tool-call arguments (the pending call's above all) never are; the system prompt only when
asked for. A failed result, or the result of a tool whose results the caller does not trust
(a write echoing what it wrote), still vouches for what it adds, but never for a figure of
the call it answers: an error that says "total is 608, you paid 304" sources 608, not 304.
A tool result's structured values source money too (``"price": 466.75`` sources
``$466.75``; see :meth:`FigureIndex.add_values`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import orjson

from tracegrade.figures._index import FigureIndex
from tracegrade.traces import SystemFrame, ToolCallFrame, ToolResultFrame, UserFrame

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Self

    from tracegrade.traces import Frame

__all__ = ["FigureSources", "result_text"]


def result_text(result: object) -> str:
    """A tool result as the text the model saw: strings as they are, other JSON serialised."""
    if isinstance(result, str):
        return result
    try:
        return orjson.dumps(result).decode()
    except TypeError:
        return str(result)


# A figure's written form is short ("thirty (30) business days"): the text this far around an
# anchor, widened to whitespace so no word or number is cut, holds every figure through it.
_REACH = 80
_SPACE = re.compile(r"\s")


def _windows(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Merged spans of ``text`` around each match of ``pattern``, cut only at whitespace.

    Tool results serialised as JSON are one long line, so lines would not narrow anything.
    """
    spans: list[tuple[int, int]] = []
    for match in pattern.finditer(text):
        start = max(match.start() - _REACH, 0)
        if start:
            start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
        end = match.end() + _REACH
        found = _SPACE.search(text, end) if end < len(text) else None
        end = found.start() if found else len(text)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _every_tool(tool: str) -> bool:  # the default: every tool's results count
    return True


class FigureSources:
    """The sources of figures in one run, indexed incrementally.

    Each :meth:`add` indexes one frame in time proportional to its text, so a lookup costs
    the same after ten frames or ten thousand.

    Args:
        system: Whether the system prompt is a source (policy documents quote figures).
        results_of: Whether a tool's results are trusted whole (default: every tool's); the
            others, like failed results, vouch only for what their call did not say.
        lines_matching: Index only the text around this pattern's matches (see
            :func:`~tracegrade.figures.anchor_pattern`): far cheaper when only a few known
            figures will be looked up.
        bare_numbers: See :class:`~tracegrade.figures.FigureIndex`.
        humans: Whether human messages are sources (an expected fact is read only when a
            tool returned it, so its figure is looked up without them).
    """

    __slots__ = (
        "_args", "_calls", "_humans", "_lines", "_results_of", "_system", "frames_seen", "index",
    )  # fmt: skip

    def __init__(
        self,
        *,
        system: bool = False,
        results_of: Callable[[str], bool] = _every_tool,
        lines_matching: re.Pattern[str] | None = None,
        bare_numbers: bool = True,
        humans: bool = True,
    ) -> None:
        self._humans = humans
        self._system = system
        self._results_of = results_of
        self._lines = lines_matching
        self._calls: dict[str, str] = {}
        self._args: dict[str, object] = {}
        self.index = FigureIndex(bare_numbers=bare_numbers)
        """The figures seen so far, with where each was first seen."""
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
        text = self._source_text(frame)
        if text is None:
            return
        echo_of = self._echo_of(frame)
        if self._lines is None:
            self.index.add(text, where, echo_of=echo_of)
        else:
            windows = _windows(text, self._lines)
            for start, end in windows:
                self.index.add(text[start:end], where, echo_of=echo_of)
            if not windows:  # a structured value writes its digits too: nothing to find
                return
        if isinstance(frame, ToolResultFrame):
            self.index.add_values(frame.result, where, echo_of=echo_of)

    def _echo_of(self, frame: Frame) -> str | None:
        """For a failed or untrusted result, the arguments of the call it answers."""
        if not isinstance(frame, ToolResultFrame):
            return None
        tool = self._calls.get(frame.id)
        if frame.ok and (tool is None or self._results_of(tool)):
            return None
        return result_text(self._args.get(frame.id))

    def _source_text(self, frame: Frame) -> str | None:
        """The frame's text when it is a source of figures, else ``None``."""
        if isinstance(frame, UserFrame):
            return frame.content if self._humans else None
        if isinstance(frame, SystemFrame):
            return frame.content if self._system else None
        if isinstance(frame, ToolCallFrame):
            self._calls[frame.id] = frame.name
            self._args[frame.id] = frame.args
            return None
        if isinstance(frame, ToolResultFrame):
            return result_text(frame.result)
        return None

    def extend(self, frames: Iterable[Frame]) -> Self:
        """Index several frames in order; returns self."""
        for frame in frames:
            self.add(frame)
        return self
