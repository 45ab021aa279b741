"""Touchpoints declared in Python: ``@touchpoint`` records the contract and the suite function.

Declared touchpoints land in the same registry as those of ``tracegrade.toml``
(:func:`tracegrade.evals.load_project` merges them); an id declared in both places is an
error naming both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import ValidationError

from tracegrade._plugins import load_plugins
from tracegrade.errors import ProjectError, RegistryError
from tracegrade.evals._contract import Baseline, Touchpoint
from tracegrade.evals._errors import contract_error

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from tracegrade.contract import GateResult
    from tracegrade.evals._contract import (
        GroundingShape,
        Lane,
        Severity,
        SuiteKind,
        TouchpointKind,
    )
    from tracegrade.evals._graduation import GraduationPolicy
    from tracegrade.evals._outcomes import CaseOutcome

__all__ = [
    "SuiteFunction",
    "TouchpointEntry",
    "registered_touchpoints",
    "touchpoint",
    "unregister_touchpoint",
]


class SuiteFunction(Protocol):
    """A Python suite, called once per repeat with the repeat's index (from 0).

    A ``callable`` suite returns its cases' outcomes; a ``gate`` suite returns the
    :class:`~tracegrade.contract.GateResult` of that repeat (see :func:`gate_outcomes`).
    """

    def __call__(self, repeat: int, /) -> Iterable[CaseOutcome] | GateResult: ...


_F = TypeVar("_F", bound=SuiteFunction)


@dataclass(frozen=True, slots=True)
class TouchpointEntry:
    """A contract in the registry and where it was declared.

    Attributes:
        touchpoint: The contract.
        origin: ``tracegrade.toml, touchpoint 2`` or ``python pkg.module:function``.
        function: The suite function of a Python-declared touchpoint; ``None`` for those
            of the project file (a TOML ``call`` is imported by the runner).
    """

    touchpoint: Touchpoint
    origin: str
    function: SuiteFunction | None = None


_TOUCHPOINTS: dict[str, TouchpointEntry] = {}


def touchpoint(
    *,
    id: str,
    kind: TouchpointKind,
    owner: str,
    severity_on_fail: Severity,
    suite_kind: SuiteKind = "callable",
    grounding_shape: GroundingShape = "n/a",
    variance_band: float = 0.0,
    repeats: int = 1,
    nightly_repeats: int | None = None,
    lanes: Sequence[Lane] = ("pr", "nightly"),
    files: Sequence[str] = (),
    baseline: Baseline | Mapping[str, float] | None = None,
    description: str = "",
    graduation: GraduationPolicy | Mapping[str, int | float] | None = None,
) -> Callable[[_F], _F]:
    """Register a touchpoint whose suite is the decorated function.

    The contract records ``call = "module:qualname"``, so a stored run names the function
    that produced it. ``files`` are relative to the project file the registry is merged
    into.

    Example:
        >>> from tracegrade.evals import CaseOutcome, touchpoint
        >>> @touchpoint(id="summarise_ticket", kind="prompt", owner="support",
        ...             severity_on_fail="warn", baseline={"min": 0.9})
        ... def summarise_ticket_suite(repeat):
        ...     return [CaseOutcome(case="short-ticket", outcome="passed")]

    Args:
        id: Unique touchpoint id.
        kind: What the surface is.
        owner: Who answers for it.
        severity_on_fail: ``block``, ``warn``, ``info`` or ``infra``.
        suite_kind: ``callable`` (the function returns case outcomes) or ``gate`` (it
            returns a gate result).
        grounding_shape: How the surface grounds its output.
        variance_band: The noise tolerated across repeats.
        repeats: Runs in the ``pr`` lane.
        nightly_repeats: Runs in the ``nightly`` lane (``repeats`` if unset).
        lanes: The lanes it runs in.
        files: Files that define the surface, hashed to show drift.
        baseline: ``min`` and ``max_drop``.
        description: One line for reports.
        graduation: ``window`` and ``threshold`` of the auto-apply gate (the defaults if
            unset), as ``graduation = {...}`` in tracegrade.toml.

    Returns:
        A decorator that registers the function and returns it unchanged.

    Raises:
        ProjectError: A field is invalid (raised by the decorator; names the function,
            the touchpoint and the field).
        RegistryError: The id is already registered (names both functions).
    """
    fields: dict[str, Any] = {
        "id": id,
        "kind": kind,
        "owner": owner,
        "severity_on_fail": severity_on_fail,
        "suite_kind": suite_kind,
        "grounding_shape": grounding_shape,
        "variance_band": variance_band,
        "repeats": repeats,
        "nightly_repeats": nightly_repeats,
        "lanes": tuple(lanes),
        "files": tuple(files),
        "description": description,
    }
    if baseline is not None:
        fields["baseline"] = baseline
    if graduation is not None:
        fields["graduation"] = graduation

    def register(function: _F) -> _F:
        call = f"{function.__module__}:{getattr(function, '__qualname__', repr(function))}"
        origin = f"python {call}"
        data = {**fields, "call": call}
        if suite_kind not in {"callable", "gate"}:
            raise _not_a_python_kind(origin, id, suite_kind)
        try:
            contract = Touchpoint.model_validate(data)
        except ValidationError as exc:
            raise contract_error(exc, data, path=origin, single=True) from exc
        old = _TOUCHPOINTS.get(id)
        if old is not None:
            raise RegistryError(
                f"touchpoint {id!r} is declared twice: by {old.origin} and by {origin}",
                fix="give one of them another id, or unregister the old one first",
            )
        _TOUCHPOINTS[id] = TouchpointEntry(contract, origin, function)
        return function

    return register


def _not_a_python_kind(origin: str, touchpoint_id: str, suite_kind: str) -> ProjectError:
    """The error for a Python suite of a file-based suite kind."""
    return ProjectError(
        f"is {suite_kind!r}, but a decorated function is a 'callable' or 'gate' suite",
        fix="declare file-based suites in tracegrade.toml",
        path=origin,
        touchpoint=repr(touchpoint_id),
        field="suite_kind",
    )


def unregister_touchpoint(id: str) -> None:
    """Remove a Python-declared touchpoint (for tests and plugins that replace one)."""
    _TOUCHPOINTS.pop(id, None)


def registered_touchpoints() -> tuple[TouchpointEntry, ...]:
    """Every Python-declared touchpoint, in registration order (plugins loaded first)."""
    load_plugins()
    return tuple(_TOUCHPOINTS.values())
