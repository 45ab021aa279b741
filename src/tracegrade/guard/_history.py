"""The guard's haystack: a run's sources of figures under a guard policy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.figures import FigureSources

if TYPE_CHECKING:
    from tracegrade.guard._policy import GuardPolicy

__all__ = ["GuardHistory"]


class GuardHistory(FigureSources):
    """:class:`~tracegrade.figures.FigureSources` configured by a guard policy.

    The system prompt counts when the policy opts in; a guarded tool's own results do not
    (unless named in ``sources.tools``): a write that echoes what it wrote must not source
    the next write.

    Args:
        policy: The guard policy.
    """

    __slots__ = ("policy",)

    def __init__(self, policy: GuardPolicy) -> None:
        super().__init__(system=policy.sources.system, results_of=policy.results_are_sources)
        self.policy = policy
