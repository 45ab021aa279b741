"""The pass/fail decision of a touchpoint, and the run's exit code (pure).

A touchpoint fails when its metric is below ``baseline.min`` (with or without a stored
baseline), or when it dropped from its stored baseline by more than ``baseline.max_drop``
plus its ``variance_band``. A rise never counts as a regression. A spread across repeats
wider than the band flags the touchpoint unstable; the flag alone fails nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr

from tracegrade.evals._contract import Severity
from tracegrade.evals._metric import Metric, Spread

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.evals._contract import Touchpoint

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_HELD",
    "EXIT_INFRA",
    "VERDICT_SCHEMA_VERSION",
    "ExitDecision",
    "Status",
    "TouchpointVerdict",
    "exit_code",
    "judge",
]

VERDICT_SCHEMA_VERSION = 1
EXIT_HELD = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INFRA = 3

Status = Literal["held", "improved", "failed-min", "regressed", "infra", "unmeasured"]
"""``held``: at or above ``min`` and within the allowed drop (or no baseline);
``improved``: above its baseline and at or above ``min``; ``failed-min``: below ``min``;
``regressed``: dropped more than ``max_drop + variance_band``; ``infra``: every case hit
an infrastructure failure; ``unmeasured``: no case was measurable (none to run)."""

# Metrics are shares computed by division; compare with a tolerance well below any
# meaningful difference so that 0.90 - 0.83 is not read as more than 0.05 + 0.02.
_EPSILON = 1e-9


class TouchpointVerdict(BaseModel):
    """What a touchpoint's run concluded, as stored and reported.

    Attributes:
        touchpoint: The touchpoint id.
        severity: Its ``severity_on_fail``.
        status: See :data:`Status`.
        failed: ``failed-min`` or ``regressed``.
        unstable: The range across repeats is wider than the variance band.
        metric: The metric over all repeats' cases.
        baseline: The stored baseline value it was compared with, if any.
        delta: ``metric - baseline`` (negative is a drop), when both are known.
        min: The contract's ``baseline.min``.
        allowed_drop: ``baseline.max_drop + variance_band``.
        variance_band: The contract's band.
        spread: The spread across repeats, when the suite ran more than once.
        sentence: One line for a human.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    touchpoint: StrictStr
    severity: Severity
    status: Status
    failed: StrictBool
    unstable: StrictBool
    metric: Metric
    baseline: float | None
    delta: float | None
    min: float
    allowed_drop: float
    variance_band: float
    spread: Spread | None
    sentence: StrictStr


def _f(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"


def judge(
    touchpoint: Touchpoint,
    metric: Metric,
    baseline: float | None,
    spread: Spread | None = None,
) -> TouchpointVerdict:
    """Decide whether a touchpoint held, failed its minimum, regressed or improved.

    Args:
        touchpoint: The contract.
        metric: The metric over all repeats' cases (:func:`metric_for`).
        baseline: The stored baseline metric, or ``None`` when none was promoted yet.
        spread: The per-repeat spread (:func:`spread`), for the unstable flag.
    """
    band = touchpoint.variance_band
    floor = touchpoint.baseline.min
    allowed = touchpoint.baseline.max_drop + band
    unstable = bool(spread and spread.range is not None and spread.range > band + _EPSILON)
    value = metric.value
    delta = value - baseline if value is not None and baseline is not None else None
    name = touchpoint.id
    status: Status
    if value is None:
        status = "infra" if metric.infra_only else "unmeasured"
        sentence = (
            f"{name}: not measured, all {metric.skipped} cases hit infrastructure failures"
            " (retry when the provider is back)"
            if status == "infra"
            else f"{name}: not measured, the suite gave no measurable case"
        )
    else:
        shown = f"{_f(value)} ({metric.passed}/{metric.measured} {metric.name})"
        dropped = delta is not None and -delta > allowed + _EPSILON
        drop_text = (
            f"dropped {_f(-delta)} from baseline {_f(baseline)}, more than max_drop"
            f" {_f(touchpoint.baseline.max_drop)} + band {_f(band)} = {_f(allowed)}"
            if delta is not None and baseline is not None
            else ""
        )
        if value < floor - _EPSILON:
            status = "failed-min"
            sentence = f"{name} failed: {shown} is below min {_f(floor)}"
            if dropped:
                sentence += f", and {drop_text}"
        elif dropped:
            status = "regressed"
            sentence = f"{name} regressed: {shown} {drop_text}"
        elif delta is not None and delta > _EPSILON:
            status = "improved"
            sentence = f"{name} improved: {shown}, up {_f(delta)} from baseline {_f(baseline or 0)}"
        else:
            status = "held"
            against = (
                f", within {_f(allowed)} of baseline {_f(baseline)}"
                if baseline is not None
                else ", no baseline yet"
            )
            sentence = f"{name} held: {shown}, at least min {_f(floor)}{against}"
    if unstable and spread is not None and spread.range is not None:
        sentence += (
            f"; unstable: repeats ranged {_f(spread.range)}, wider than band {_f(band)}"
            f" (mean {_f(spread.mean or 0)}, 95% CI {_f(spread.low or 0)}-{_f(spread.high or 0)})"
        )
    return TouchpointVerdict(
        touchpoint=name,
        severity=touchpoint.severity_on_fail,
        status=status,
        failed=status in {"failed-min", "regressed"},
        unstable=unstable,
        metric=metric,
        baseline=baseline,
        delta=delta,
        min=floor,
        allowed_drop=allowed,
        variance_band=band,
        spread=spread,
        sentence=sentence,
    )


@dataclass(frozen=True, slots=True)
class ExitDecision:
    """The run's exit code and what to show.

    Attributes:
        code: 0 all held; 1 a ``block`` touchpoint failed; 3 nothing blocked but some
            touchpoint could not be measured for infrastructure reasons (or an ``infra``
            touchpoint failed). Code 2 (bad input) is raised before any verdict exists.
        reason: One line saying why.
        printed: Verdicts to print: failures of ``block``, ``warn`` and ``infra``
            touchpoints, infra-only and unmeasured ones, and unstable ones, except those of
            ``info`` touchpoints, which are only recorded.
        blocking: Ids of the failed ``block`` touchpoints.
        infra: Ids of the touchpoints that make the code 3.
    """

    code: int
    reason: str
    printed: tuple[TouchpointVerdict, ...]
    blocking: tuple[str, ...]
    infra: tuple[str, ...]


def exit_code(verdicts: Iterable[TouchpointVerdict]) -> ExitDecision:
    """The exit code of a run from its verdicts (DESIGN.md §5).

    1 when a ``block`` touchpoint failed; else 3 when a touchpoint was infra-only or an
    ``infra``-severity touchpoint failed; else 0. ``warn`` failures are printed and do not
    change the code; ``info`` failures are recorded only; ``unmeasured`` is printed and
    does not change the code.
    """
    verdicts = tuple(verdicts)
    blocking = tuple(v.touchpoint for v in verdicts if v.failed and v.severity == "block")
    infra = tuple(
        v.touchpoint
        for v in verdicts
        if v.status == "infra" or (v.failed and v.severity == "infra")
    )
    printed = tuple(
        v
        for v in verdicts
        if v.severity != "info" and (v.failed or v.unstable or v.status in {"infra", "unmeasured"})
    )
    if blocking:
        return ExitDecision(
            EXIT_FAILED,
            f"blocking touchpoints failed: {', '.join(blocking)}",
            printed,
            blocking,
            infra,
        )
    if infra:
        return ExitDecision(
            EXIT_INFRA,
            f"no blocking failure, but infrastructure problems in: {', '.join(infra)}",
            printed,
            blocking,
            infra,
        )
    return ExitDecision(EXIT_HELD, "every blocking touchpoint held", printed, blocking, infra)
