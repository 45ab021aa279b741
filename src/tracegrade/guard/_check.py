"""check_tool_call(): may this call write its figures, or did no source ever show them?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade.figures import extract_figures, number_figure
from tracegrade.guard._history import GuardHistory

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.figures import Figure
    from tracegrade.guard._policy import GuardPolicy
    from tracegrade.traces import Frame, ToolCallFrame

__all__ = [
    "NOT_IN_DOCUMENTS",
    "GuardAction",
    "GuardDecision",
    "UnsourcedValue",
    "check_tool_call",
    "denial_message",
]

GuardAction = Literal["allow", "deny"]
NOT_IN_DOCUMENTS = "not in retrieved documents"
_NAMED_IN_MESSAGE = 5  # figures named in a denial; the rest are counted


@dataclass(frozen=True, slots=True)
class UnsourcedValue:
    """A figure in a scanned argument that no source showed.

    Attributes:
        figure: The figure, with its span inside the argument value.
        location: Where in the arguments, e.g. ``sheets[0].rows[3][2]``.
    """

    figure: Figure
    location: str


@dataclass(frozen=True, slots=True)
class GuardDecision:
    """The guard's answer for one tool call.

    Attributes:
        action: ``allow`` or ``deny``.
        tool: The tool called.
        call_id: The call's id.
        unsourced: The figures no source showed, in argument order.
        evidence: For the sourced figures, where each was first seen (``f4``: frame 4).
        checked: How many figures were checked (0 for a tool the policy does not guard).
        message: On deny, the error the agent receives instead of the tool's result.
    """

    action: GuardAction
    tool: str
    call_id: str
    unsourced: tuple[UnsourcedValue, ...] = ()
    evidence: tuple[str, ...] = ()
    checked: int = 0
    message: str | None = None

    @property
    def allowed(self) -> bool:
        """True when the call may run."""
        return self.action == "allow"


def _figures_of(value: object) -> tuple[Figure, ...]:
    """A scanned value's figures: a bare number is one whatever its size, text by the rules."""
    whole = number_figure(value)
    if whole is not None:
        return (whole,)
    return extract_figures(value) if isinstance(value, str) else ()


def denial_message(
    tool: str, unsourced: tuple[UnsourcedValue, ...], calculators: Iterable[str]
) -> str:
    """The error tool message for a denied call: which tool, which figures, what to do."""
    figures = ", ".join(
        f"{item.figure.raw} ({item.location})" for item in unsourced[:_NAMED_IN_MESSAGE]
    )
    more = len(unsourced) - _NAMED_IN_MESSAGE
    if more > 0:
        figures += f" and {more} more"
    tools = list(calculators)
    named = " or ".join(tools)
    calculate = f"compute it with the {named} tool" if tools else "compute it with a tool"
    noun = "figure" if len(unsourced) == 1 else "figures"
    return (
        f"{tool} was not run: {len(unsourced)} {noun} in its arguments never came from a tool"
        f" result or the user: {figures}. Retrieve or read each value first, or {calculate},"
        f' or leave it blank as "{NOT_IN_DOCUMENTS}".'
    )


def check_tool_call(
    call: ToolCallFrame, history: GuardHistory | Iterable[Frame], policy: GuardPolicy | None = None
) -> GuardDecision:
    """Decide whether a tool call may run.

    Only the argument slices the policy names for the tool are scanned; every figure
    there must have been shown by a source earlier in the run (see :class:`GuardHistory`).

    Args:
        call: The pending call; its own arguments are never a source.
        history: The run so far, as an incrementally built :class:`GuardHistory` (cheap) or
            as frames (indexed now).
        policy: Needed when ``history`` is frames; otherwise the history's policy is used.

    Returns:
        ``allow`` when the tool is not guarded or every figure is sourced; ``deny`` with
        the unsourced figures and the message for the agent otherwise.
    """
    if not isinstance(history, GuardHistory):
        if policy is None:
            msg = "check_tool_call needs a policy when the history is given as frames"
            raise TypeError(msg)
        history = GuardHistory(policy).extend(history)
    rule = history.policy.rule_for(call.name)
    if rule is None:
        return GuardDecision("allow", call.name, call.id)
    unsourced: list[UnsourcedValue] = []
    evidence: dict[str, None] = {}
    checked = 0
    for path in rule.paths:
        for location, value in path.select(call.args):
            for figure in _figures_of(value):
                checked += 1
                seen = history.index.evidence_for(figure)
                if seen is None:
                    unsourced.append(UnsourcedValue(figure, location))
                else:
                    evidence[seen] = None
    if not unsourced:
        return GuardDecision("allow", call.name, call.id, (), tuple(evidence), checked)
    found = tuple(unsourced)
    return GuardDecision(
        "deny",
        call.name,
        call.id,
        found,
        tuple(evidence),
        checked,
        denial_message(call.name, found, history.policy.sources.calculators),
    )
