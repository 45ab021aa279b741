"""Each suite kind's metric, and the spread of a metric across repeats (pure)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from tracegrade.evals._contract import SuiteKind

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from tracegrade.evals._outcomes import CaseOutcome, Outcome

__all__ = ["CONFIDENCE", "METRIC_NAMES", "Metric", "Spread", "metric_for", "spread"]

METRIC_NAMES: dict[SuiteKind, str] = {
    "grade": "share of cases whose verdicts match their predictions",
    "guard": "share of write calls with every figure sourced",
    "contract": "share of traces that keep the grounding contract",
    "gate": "share of passing case runs",
    "command": "share of passing test cases",
    "callable": "share of passing cases",
}
"""What each suite kind's metric is, as reports say it."""

CONFIDENCE = 0.95
"""The level of :func:`spread`'s interval."""

# Student's t, two-sided 95 %: the 0.975 quantile for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_Z975 = 1.959964
_Share = Annotated[float, Field(ge=0.0, le=1.0)]
_Count = Annotated[StrictInt, Field(ge=0)]


class Metric(BaseModel):
    """A suite's metric over its case outcomes.

    Attributes:
        kind: The suite kind it was taken for.
        name: What it measures (:data:`METRIC_NAMES`).
        value: ``passed / measured``; ``None`` when nothing was measured (unknown is
            never zero).
        passed: Cases that passed.
        measured: Cases counted: passed, failed and error.
        errors: Of the measured, cases that broke (counted as not passed).
        skipped: Cases left out as ``infra`` (a provider or infrastructure failure).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: SuiteKind
    name: StrictStr
    value: _Share | None
    passed: _Count
    measured: _Count
    errors: _Count
    skipped: _Count

    @property
    def infra_only(self) -> bool:
        """Nothing was measured because every case hit an infrastructure failure."""
        return self.measured == 0 and self.skipped > 0


def metric_for(kind: SuiteKind, outcomes: Iterable[CaseOutcome | Outcome]) -> Metric:
    """The metric of a suite kind: the share of passed cases among those not ``infra``.

    Every kind measures a share of passing cases; what a case is differs (a graded trace,
    a write call, a gate run, a test) and :data:`METRIC_NAMES` says it. ``error`` cases
    count as not passed; ``infra`` cases are skipped and counted.
    """
    counts = {"passed": 0, "failed": 0, "infra": 0, "error": 0}
    for item in outcomes:
        counts[item if isinstance(item, str) else item.outcome] += 1
    measured = counts["passed"] + counts["failed"] + counts["error"]
    return Metric(
        kind=kind,
        name=METRIC_NAMES[kind],
        value=counts["passed"] / measured if measured else None,
        passed=counts["passed"],
        measured=measured,
        errors=counts["error"],
        skipped=counts["infra"],
    )


class Spread(BaseModel):
    """How a metric varied across repeats.

    The interval is Student's t interval for the mean of the repeat values at
    :data:`CONFIDENCE` (mean ± t(0.975, n-1)·s/√n with the sample standard deviation),
    clipped to [0, 1] because metrics are shares. With fewer than two measured repeats
    the spread is unknown: ``low``, ``high``, ``width`` and ``range`` are ``None``.

    Attributes:
        n: Repeats with a value.
        skipped: Repeats with nothing measured (``None`` values), left out.
        mean: Mean of the repeat values (``None`` when there is none).
        low: Lower end of the interval.
        high: Upper end of the interval.
        width: ``high - low``.
        range: Highest minus lowest repeat value: the observed spread that is compared with
            the variance band.
        confidence: The interval's level.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    n: _Count
    skipped: _Count = 0
    mean: _Share | None
    low: _Share | None = None
    high: _Share | None = None
    width: _Share | None = None
    range: _Share | None = None
    confidence: float = CONFIDENCE


def _t975(degrees: int) -> float:
    if degrees <= len(_T975):
        return _T975[degrees - 1]
    # Cornish-Fisher expansion of the t quantile around the normal one (error < 1e-3 here).
    z = _Z975
    return z + (z**3 + z) / (4 * degrees) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * degrees**2)


def spread(values: Sequence[float | None]) -> Spread:
    """The mean of per-repeat metric values, its 95 % t interval and the observed range.

    Args:
        values: One metric value per repeat; ``None`` (nothing measured) is skipped and
            counted.
    """
    known = [value for value in values if value is not None]
    skipped = len(values) - len(known)
    if not known:
        return Spread(n=0, skipped=skipped, mean=None)
    n = len(known)
    mean = math.fsum(known) / n
    if n < 2:
        return Spread(n=n, skipped=skipped, mean=mean)
    deviation = math.sqrt(math.fsum((value - mean) ** 2 for value in known) / (n - 1))
    half = _t975(n - 1) * deviation / math.sqrt(n)
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return Spread(
        n=n,
        skipped=skipped,
        mean=mean,
        low=low,
        high=high,
        width=high - low,
        range=max(known) - min(known),
    )
