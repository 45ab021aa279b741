"""Compare two stored runs, per touchpoint and per case (pure over their case results)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.store import CaseResultRecord

__all__ = ["CaseShift", "RunComparison", "Shift", "TouchpointShift", "compare_runs"]

Shift = Literal["improved", "regressed", "unchanged", "new", "gone", "unmeasured"]
"""``new``: only in the second run; ``gone``: only in the first; ``unmeasured``: in both,
but one of them measured nothing (every result ``infra``), so there is nothing to compare."""

_EPSILON = 1e-9


class CaseShift(BaseModel):
    """How one case moved: its pass rate over its measured repeats in each run.

    Attributes:
        touchpoint: The touchpoint.
        case: The case id.
        shift: See :data:`Shift`.
        before: The pass rate in the first run (``None``: absent or not measured).
        after: The pass rate in the second run.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    touchpoint: str
    case: str
    shift: Shift
    before: float | None
    after: float | None


class TouchpointShift(BaseModel):
    """How a touchpoint's metric (share of passing case results) moved, and its cases.

    Attributes:
        touchpoint: The touchpoint.
        shift: See :data:`Shift`.
        before: The metric in the first run.
        after: The metric in the second run.
        cases: Every case of either run, sorted by id.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    touchpoint: str
    shift: Shift
    before: float | None
    after: float | None
    cases: tuple[CaseShift, ...]


class RunComparison(BaseModel):
    """Two runs side by side.

    Attributes:
        before: The first run's id.
        after: The second run's id.
        touchpoints: Every touchpoint of either run, sorted by id.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    before: str
    after: str
    touchpoints: tuple[TouchpointShift, ...]

    def count(self, shift: Shift) -> int:
        """How many cases moved this way, over every touchpoint."""
        return sum(1 for t in self.touchpoints for case in t.cases if case.shift == shift)


def _rate(outcomes: list[str]) -> float | None:
    measured = [outcome for outcome in outcomes if outcome != "infra"]
    return sum(o == "passed" for o in measured) / len(measured) if measured else None


def _shift(present: tuple[bool, bool], before: float | None, after: float | None) -> Shift:
    if not present[0]:
        return "new"
    if not present[1]:
        return "gone"
    if before is None or after is None:
        return "unmeasured"
    if after > before + _EPSILON:
        return "improved"
    if after < before - _EPSILON:
        return "regressed"
    return "unchanged"


def _group(results: Iterable[CaseResultRecord]) -> dict[str, dict[str, list[str]]]:
    grouped: dict[str, dict[str, list[str]]] = {}
    for result in results:
        grouped.setdefault(result.touchpoint, {}).setdefault(result.case_id, []).append(
            result.outcome
        )
    return grouped


def compare_runs(
    before: str,
    before_results: Iterable[CaseResultRecord],
    after: str,
    after_results: Iterable[CaseResultRecord],
) -> RunComparison:
    """Compare two runs' case results: per touchpoint and per case, what moved.

    A case's value is its pass rate over its measured (not ``infra``) repeats; a
    touchpoint's is the share of its measured results that passed. A rise is
    ``improved``, a fall ``regressed``.
    """
    old, new = _group(before_results), _group(after_results)
    touchpoints = []
    for name in sorted(set(old) | set(new)):
        cases_old, cases_new = old.get(name, {}), new.get(name, {})
        cases = tuple(
            CaseShift(
                touchpoint=name,
                case=case,
                shift=_shift(
                    (case in cases_old, case in cases_new),
                    _rate(cases_old.get(case, [])),
                    _rate(cases_new.get(case, [])),
                ),
                before=_rate(cases_old.get(case, [])),
                after=_rate(cases_new.get(case, [])),
            )
            for case in sorted(set(cases_old) | set(cases_new))
        )
        value_old = _rate([o for each in cases_old.values() for o in each])
        value_new = _rate([o for each in cases_new.values() for o in each])
        touchpoints.append(
            TouchpointShift(
                touchpoint=name,
                shift=_shift((name in old, name in new), value_old, value_new),
                before=value_old,
                after=value_new,
                cases=cases,
            )
        )
    return RunComparison(before=before, after=after, touchpoints=tuple(touchpoints))
