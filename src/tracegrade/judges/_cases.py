"""Panel cases: what a judge is shown, a control's known answer, the citable evidence (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.judges._citations import CitationIndex
from tracegrade.observations import LineObservation, observe

if TYPE_CHECKING:
    from tracegrade.observations import Observations
    from tracegrade.traces import Trace

__all__ = ["PanelCase", "case_from_trace", "render_trace"]


def _number(line: float) -> str:
    return str(int(line)) if float(line).is_integer() else str(line)


def render_trace(trace: Trace, observations: Observations | None = None) -> str:
    """The run as a judge reads it: the task, every observation with its id, the answer.

    Each line observation is shown as ``[id] file:line: text`` and each name as
    ``[id] name: file``, so a judge can cite either form and the citation can be checked.

    Args:
        trace: The run.
        observations: ``observe(trace)``, when already computed.
    """
    seen = observations if observations is not None else observe(trace)
    shown = []
    for observation in seen:
        if isinstance(observation, LineObservation):
            where = f"{observation.file}:{_number(observation.line)}"
            shown.append(f"[{observation.id}] {where}: {observation.text}")
        else:
            shown.append(f"[{observation.id}] name: {observation.file}")
    evidence = "\n".join(shown) if shown else "(no tool output)"
    return (
        f"Task: {trace.task}\n\n"
        f"Tool output the agent saw (cite as file:line or by the id in brackets):\n{evidence}\n\n"
        f"Final answer:\n{trace.final_answer or '(none)'}"
    )


@dataclass(frozen=True, slots=True)
class PanelCase:
    """One case a panel judges.

    Attributes:
        id: Unique within the panel.
        content: What each judge is shown (:func:`render_trace` for a run).
        expected: The known answer of a control case; ``None`` for an open case.
        citations: The run's citable observations; ``None`` when there is no trace to
            check citations against (then none is checked).
    """

    id: str
    content: str
    expected: str | None = None
    citations: CitationIndex | None = None

    @property
    def control(self) -> bool:
        """A known-answer case, run beside the open ones to measure the panel."""
        return self.expected is not None


def case_from_trace(
    trace: Trace,
    *,
    id: str | None = None,
    expected: str | None = None,
    observations: Observations | None = None,
) -> PanelCase:
    """A panel case of a recorded run, whose citations are checked against its observations.

    Args:
        trace: The run.
        id: The case id (default the trace's id).
        expected: The known verdict, making it a control case.
        observations: ``observe(trace, ...)`` when the run needs decoders of its own
            (default: ``observe(trace)``).
    """
    observations = observations if observations is not None else observe(trace)
    return PanelCase(
        id=id or trace.id,
        content=render_trace(trace, observations),
        expected=expected,
        citations=CitationIndex(observations),
    )
