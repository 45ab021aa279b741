"""The runtime figure-provenance guard: stop a tool call that would write an unsourced figure.

The decision (:func:`check_tool_call`) is pure and shares its rules with the offline
audit (``tracegrade guard replay``) and the grader: :mod:`tracegrade.figures` owns what a
figure is and when it is sourced. Framework adapters (LangGraph) live in submodules.
"""

from tracegrade._paths import ArgPath, PathSyntaxError
from tracegrade.guard._check import (
    NOT_IN_DOCUMENTS,
    GuardAction,
    GuardDecision,
    UnsourcedValue,
    check_tool_call,
    denial_message,
)
from tracegrade.guard._history import GuardHistory
from tracegrade.guard._policy import GuardPolicy, SourcePolicy, ToolRule, load_policy, parse_policy
from tracegrade.guard._replay import ReplayedCall, replay

__all__ = [
    "NOT_IN_DOCUMENTS",
    "ArgPath",
    "GuardAction",
    "GuardDecision",
    "GuardHistory",
    "GuardPolicy",
    "PathSyntaxError",
    "ReplayedCall",
    "SourcePolicy",
    "ToolRule",
    "UnsourcedValue",
    "check_tool_call",
    "denial_message",
    "load_policy",
    "parse_policy",
    "replay",
]
