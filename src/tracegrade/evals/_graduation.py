"""Graduation: whether a touchpoint has earned auto-apply, from its measured recent runs.

Over a touchpoint's last ``window`` finished runs, its case pass rate is
``passed / (passed + failed)`` (``error`` cases count as failed; ``infra`` ones are left out
and counted). The touchpoint has graduated when it has ``window`` runs, the Wilson score
lower bound of that rate (95%) is at least ``threshold``, and no run in the window failed it
with severity ``block``. It is recomputed on every read, so a later regression demotes it.
:func:`graduation` is pure; :func:`measure_graduation` reads the runs from a store.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.store import JsonObject, Store

__all__ = [
    "WILSON_Z",
    "Graduation",
    "GraduationPolicy",
    "RunTally",
    "graduation",
    "measure_graduation",
    "wilson_lower_bound",
]

WILSON_Z = 1.96
"""The normal quantile of a two-sided 95% interval."""

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_PAGE = 25  # runs read at a time while filling the window
_Count = Annotated[StrictInt, Field(ge=0)]


class GraduationPolicy(BaseModel):
    """A touchpoint's ``graduation`` table: what earns it auto-apply.

    Attributes:
        window: How many of its latest finished runs are measured.
        threshold: The least Wilson lower bound (95%) of the pass rate over the window.
    """

    model_config = _FROZEN
    window: Annotated[StrictInt, Field(ge=1)] = 10
    threshold: Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)] = 0.9


class RunTally(BaseModel):
    """One run's case counts for a touchpoint.

    Attributes:
        run_id: The run.
        passed: Cases that passed (every repeat counts).
        failed: Cases that failed or broke.
        infra: Cases left out for an infrastructure failure.
        blocked: The run failed the touchpoint and its severity was ``block``.
    """

    model_config = _FROZEN
    run_id: str
    passed: _Count
    failed: _Count
    infra: _Count = 0
    blocked: bool = False


class Graduation(BaseModel):
    """Whether a touchpoint may be auto-applied, and the figures that decide it.

    Attributes:
        touchpoint: The touchpoint id.
        window: Runs the policy measures.
        threshold: The least lower bound it asks for.
        runs: The run ids measured, newest first (at most ``window``).
        passed: Passed cases over those runs.
        failed: Failed (and broken) cases.
        infra: Cases left out for infrastructure failures.
        pass_rate: ``passed / (passed + failed)``; ``None`` when nothing was measured.
        lower_bound: Its Wilson score lower bound at 95%; ``None`` likewise.
        blocked_runs: Runs in the window that failed the touchpoint with severity ``block``.
        graduated: Auto-apply is allowed.
        reason: One line saying why or why not.
    """

    model_config = _FROZEN
    schema_version: Literal[1] = 1
    touchpoint: str
    window: int
    threshold: float
    runs: tuple[str, ...]
    passed: int
    failed: int
    infra: int
    pass_rate: float | None
    lower_bound: float | None
    blocked_runs: tuple[str, ...]
    graduated: bool
    reason: str


def wilson_lower_bound(passed: int, total: int, z: float = WILSON_Z) -> float | None:
    """The Wilson score interval's lower bound of ``passed / total``; ``None`` when total is 0.

    Example:
        >>> round(wilson_lower_bound(81, 100), 4)
        0.7222
    """
    if total <= 0:
        return None
    if not 0 <= passed <= total:
        msg = f"passed ({passed}) must be between 0 and total ({total})"
        raise ValueError(msg)
    share = passed / total
    z2 = z * z
    centre = share + z2 / (2 * total)
    margin = z * math.sqrt(share * (1 - share) / total + z2 / (4 * total * total))
    return max(0.0, (centre - margin) / (1 + z2 / total))


def _f(value: float) -> str:
    return f"{value:.3f}"


def graduation(
    touchpoint: str, tallies: Iterable[RunTally], policy: GraduationPolicy
) -> Graduation:
    """Decide graduation from run tallies, newest first (pure).

    Only the first ``policy.window`` tallies are measured.
    """
    window = list(tallies)[: policy.window]
    passed = sum(tally.passed for tally in window)
    failed = sum(tally.failed for tally in window)
    infra = sum(tally.infra for tally in window)
    measured = passed + failed
    bound = wilson_lower_bound(passed, measured)
    blocked = tuple(tally.run_id for tally in window if tally.blocked)
    if len(window) < policy.window:
        reason = f"{len(window)} of {policy.window} runs measured so far"
    elif bound is None:
        reason = f"no measured case in the last {policy.window} runs"
    elif blocked:
        reason = f"run {blocked[0]} failed it with severity block"
    elif bound < policy.threshold:
        reason = (
            f"lower bound {_f(bound)} of pass rate {_f(passed / measured)} ({passed}/{measured})"
            f" is below {_f(policy.threshold)}"
        )
    else:
        reason = (
            f"lower bound {_f(bound)} of pass rate {_f(passed / measured)} ({passed}/{measured})"
            f" over {policy.window} runs is at least {_f(policy.threshold)}"
        )
    graduated = (
        len(window) >= policy.window
        and bound is not None
        and bound >= policy.threshold
        and not blocked
    )
    return Graduation(
        touchpoint=touchpoint,
        window=policy.window,
        threshold=policy.threshold,
        runs=tuple(tally.run_id for tally in window),
        passed=passed,
        failed=failed,
        infra=infra,
        pass_rate=passed / measured if measured else None,
        lower_bound=bound,
        blocked_runs=blocked,
        graduated=graduated,
        reason=("graduated: " if graduated else "not graduated: ") + reason,
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _tally(run_id: str, summary: JsonObject, touchpoint: str) -> RunTally | None:
    """The touchpoint's tally from a finished run's stored report; ``None`` if it did not run."""
    report = summary.get("report")
    items = report.get("touchpoints") if isinstance(report, dict) else None
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or item.get("touchpoint") != touchpoint:
            continue
        verdict = item.get("verdict")
        verdict = verdict if isinstance(verdict, dict) else {}
        metric = verdict.get("metric")
        metric = metric if isinstance(metric, dict) else {}
        passed, measured = _count(metric.get("passed")), _count(metric.get("measured"))
        return RunTally(
            run_id=run_id,
            passed=passed,
            failed=max(measured - passed, 0),
            infra=_count(metric.get("skipped")),
            blocked=verdict.get("failed") is True and item.get("severity") == "block",
        )
    return None


def measure_graduation(
    store: Store,
    touchpoint: str,
    policy: GraduationPolicy | None = None,
    *,
    current: RunTally | None = None,
) -> Graduation:
    """A touchpoint's graduation over its latest finished runs in ``store``.

    Args:
        store: Where the runs are.
        touchpoint: The touchpoint id.
        policy: Its contract's ``graduation`` (the defaults if ``None``).
        current: A run still being reported (the runner passes its own), counted as the
            newest.
    """
    chosen = policy or GraduationPolicy()
    tallies = [current] if current is not None else []
    offset = 0
    while len(tallies) < chosen.window:
        # Newest finished runs a page at a time: each carries its whole report.
        page = store.list_runs(limit=_PAGE, offset=offset, status="finished")
        offset += len(page)
        for run in page:
            if len(tallies) >= chosen.window:
                break
            if current is not None and run.run_id == current.run_id:
                continue
            tally = _tally(run.run_id, run.summary, touchpoint)
            if tally is not None:
                tallies.append(tally)
        if len(page) < _PAGE:
            break
    return graduation(touchpoint, tallies, chosen)
