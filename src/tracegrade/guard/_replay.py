"""replay(): run the guard over a recorded run, as if it had been in place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.guard._check import check_tool_call
from tracegrade.guard._history import GuardHistory
from tracegrade.traces import ToolCallFrame

if TYPE_CHECKING:
    from tracegrade.guard._check import GuardDecision
    from tracegrade.guard._policy import GuardPolicy
    from tracegrade.traces import Trace

__all__ = ["ReplayedCall", "replay"]


@dataclass(frozen=True, slots=True)
class ReplayedCall:
    """The guard's decision on one recorded call of a guarded tool.

    Attributes:
        frame: The call's frame index.
        decision: What the guard would have decided.
    """

    frame: int
    decision: GuardDecision


def replay(trace: Trace, policy: GuardPolicy) -> tuple[ReplayedCall, ...]:
    """Check every call of a guarded tool against the frames before it.

    Calls of tools the policy does not guard are not reported. The recorded run went
    on after a call the guard would deny; so does the replay.
    """
    history = GuardHistory(policy)
    decisions: list[ReplayedCall] = []
    for index, frame in enumerate(trace.frames):
        if isinstance(frame, ToolCallFrame) and policy.rule_for(frame.name) is not None:
            decisions.append(ReplayedCall(index, check_tool_call(frame, history)))
        history.add(frame)
    return tuple(decisions)
