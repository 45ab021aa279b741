"""The grades a pytest session made, kept for ``--tracegrade-report`` (no heavy imports).

The plugin opens a :class:`Collector` for the session and names the running test; each
assertion notes its grade here. Outside a session (the assertions called from a script)
nothing is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tracegrade.verdicts import Grade

__all__ = ["Collector", "NotedGrade", "active", "note", "start", "stop"]


@dataclass(frozen=True, slots=True)
class NotedGrade:
    """One assertion's grade, and the test that made it."""

    test: str | None
    assertion: str
    trace_id: str
    passed: bool
    grade: Grade | None


@dataclass(slots=True)
class Collector:
    """What one session noted; ``test`` is the node id of the running test."""

    test: str | None = None
    grades: list[NotedGrade] = field(default_factory=list)

    def as_json(self) -> list[dict[str, Any]]:
        """Every noted grade as JSON values, in the order the assertions ran."""
        return [
            {
                "test": noted.test,
                "assertion": noted.assertion,
                "trace_id": noted.trace_id,
                "passed": noted.passed,
                "grade": None if noted.grade is None else noted.grade.model_dump(mode="json"),
            }
            for noted in self.grades
        ]


_active: list[Collector] = []  # a stack: pytester runs a session inside a session


def start() -> Collector:
    """Open a collector for a new session."""
    collector = Collector()
    _active.append(collector)
    return collector


def stop(collector: Collector) -> None:
    """Close the session's collector."""
    if collector in _active:
        _active.remove(collector)


def active() -> Collector | None:
    """The innermost session's collector, if a session is running."""
    return _active[-1] if _active else None


def note(assertion: str, grade: Grade | None, *, passed: bool, trace_id: str) -> None:
    """Keep an assertion's grade for the running test, when a session is collecting."""
    collector = active()
    if collector is not None:
        collector.grades.append(NotedGrade(collector.test, assertion, trace_id, passed, grade))
