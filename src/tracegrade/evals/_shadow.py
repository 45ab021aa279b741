"""A shadow run's comparison: before and after, per-case flips, the paired test, the cost (pure).

The base and the proposed version of a touchpoint ran the same cases and repeats
(:func:`~tracegrade.evals.run_shadow`). Each (case, repeat) measured in both is a pair.
The verdict is ``better`` when McNemar's exact test on the discordant pairs gives
``p < alpha`` and more pairs were fixed than broken, ``worse`` when significant the other
way, else ``noise``: the change is not distinguishable from chance on these cases.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from tracegrade.cost import CostBreakdown, cost_breakdown
from tracegrade.evals._compare import compare_runs
from tracegrade.evals._contract import Severity
from tracegrade.evals._run_report import case_metric
from tracegrade.evals._shadow_stats import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    mcnemar_exact,
    paired_bootstrap,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from tracegrade.store import AiCallRecord, CaseResultRecord

__all__ = [
    "ALPHA",
    "CaseFlip",
    "Flip",
    "ShadowComparison",
    "ShadowVerdict",
    "compare_shadow",
    "describe_verdict",
]

ALPHA = 0.05
"""The significance level of a shadow run's paired test."""

Flip = Literal["fixed", "broken", "unchanged", "unmeasured", "new", "gone"]
"""Per case: ``fixed`` its pass rate rose, ``broken`` it fell, ``unchanged``;
``unmeasured`` only infrastructure results on one side; ``new``/``gone`` only in one."""

ShadowVerdict = Literal["better", "worse", "noise"]

_FLIPS: dict[str, Flip] = {
    "improved": "fixed",
    "regressed": "broken",
    "unchanged": "unchanged",
    "unmeasured": "unmeasured",
    "new": "new",
    "gone": "gone",
}


class CaseFlip(BaseModel):
    """How one case moved between the base and the proposed version.

    Attributes:
        case: The case id.
        flip: See :data:`Flip`.
        before: Its pass rate over the base repeats (``None``: not measured).
        after: Its pass rate over the proposed repeats.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    case: str
    flip: Flip
    before: float | None
    after: float | None


class ShadowComparison(BaseModel):
    """What a shadow run measured: the base against the proposed version, paired.

    Attributes:
        touchpoint: The touchpoint.
        severity: Its ``severity_on_fail``.
        base_run: The shadow run of the base version.
        proposed_run: The shadow run of the proposed version.
        repeats: Repeats each version ran.
        before: The base's metric (share of passing measured results).
        after: The proposed version's.
        delta: ``after - before``.
        low: Lower end of the bootstrap interval of the mean paired difference.
        high: Its upper end.
        confidence: The interval's level.
        resamples: Bootstrap resamples.
        seed: The bootstrap's seed.
        pairs: (case, repeat) pairs measured in both versions.
        unpaired: Results left out: ``infra`` on either side, or a case in one only.
        fixed_pairs: Pairs failed before and passed after.
        broken_pairs: Pairs passed before and failed after.
        p_value: McNemar's exact two-sided p-value on those.
        alpha: The significance level.
        verdict: ``better``, ``worse`` or ``noise``.
        cases: Every case's flip, sorted by id.
        broken_block: Cases broken while the touchpoint's severity is ``block``.
        cost_before: The base run's model calls, agent vs judge.
        cost_after: The proposed run's.
        sentence: One line for a person.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    touchpoint: str
    severity: Severity
    base_run: str
    proposed_run: str
    repeats: int
    before: float | None
    after: float | None
    delta: float | None
    low: float | None
    high: float | None
    confidence: float = 0.95
    resamples: int = BOOTSTRAP_RESAMPLES
    seed: int = BOOTSTRAP_SEED
    pairs: int
    unpaired: int
    fixed_pairs: int
    broken_pairs: int
    p_value: float
    alpha: float = ALPHA
    verdict: ShadowVerdict
    cases: tuple[CaseFlip, ...]
    broken_block: tuple[str, ...]
    cost_before: CostBreakdown = CostBreakdown()
    cost_after: CostBreakdown = CostBreakdown()
    sentence: str

    @property
    def significant_gain(self) -> bool:
        """The proposed version is better beyond noise, and broke no ``block`` case."""
        return self.verdict == "better" and not self.broken_block

    def count(self, flip: Flip) -> int:
        """How many cases flipped this way."""
        return sum(1 for case in self.cases if case.flip == flip)


def _share(results: Iterable[CaseResultRecord]) -> float | None:
    values = [value for r in results if (value := case_metric(r.outcome)) is not None]
    return math.fsum(values) / len(values) if values else None


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _sentence(
    touchpoint: str,
    values: tuple[float | None, float | None],
    flips: tuple[int, int],
    p: float,
    *,
    verdict: ShadowVerdict,
    alpha: float,
) -> str:
    head = (
        f"{touchpoint}: {_f(values[0])} -> {_f(values[1])} ({flips[0]} pairs fixed,"
        f" {flips[1]} broken, McNemar p = {p:.4g})"
    )
    if verdict == "better":
        return f"{head}: a significant gain at alpha {alpha:g}"
    if verdict == "worse":
        return f"{head}: significantly worse at alpha {alpha:g}"
    return f"{head}: not better than noise at alpha {alpha:g}"


def compare_shadow(
    touchpoint: str,
    severity: Severity,
    base: tuple[str, Sequence[CaseResultRecord]],
    proposed: tuple[str, Sequence[CaseResultRecord]],
    *,
    repeats: int,
    calls: Sequence[AiCallRecord] = (),
    alpha: float = ALPHA,
    seed: int = BOOTSTRAP_SEED,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> ShadowComparison:
    """Compare the two shadow runs of a touchpoint (pure over their results and calls).

    Args:
        touchpoint: The touchpoint id.
        severity: Its ``severity_on_fail`` (a broken case of a ``block`` one is named).
        base: The base run's id and its results.
        proposed: The proposed run's id and its results.
        repeats: Repeats each version ran.
        calls: Both runs' model calls (split by run id for the cost).
        alpha: The significance level.
        seed: The bootstrap's seed.
        resamples: The bootstrap's resamples.
    """
    (base_id, before), (proposed_id, after) = base, proposed
    mine = [r for r in before if r.touchpoint == touchpoint]
    theirs = [r for r in after if r.touchpoint == touchpoint]
    old = {(r.case_id, r.repeat): case_metric(r.outcome) for r in mine}
    new = {(r.case_id, r.repeat): case_metric(r.outcome) for r in theirs}
    differences = [
        value_after - value_before
        for key, value_before in sorted(old.items())
        if value_before is not None and (value_after := new.get(key)) is not None
    ]
    fixed = sum(1 for d in differences if d > 0)
    broken = sum(1 for d in differences if d < 0)
    p = mcnemar_exact(fixed, broken)
    interval = paired_bootstrap(differences, resamples=resamples, seed=seed)
    verdict: ShadowVerdict = "noise"
    if p < alpha and fixed != broken:
        verdict = "better" if fixed > broken else "worse"
    shifts = compare_runs(base_id, mine, proposed_id, theirs).touchpoints
    cases = tuple(
        CaseFlip(
            case=case.case,
            flip=_FLIPS[case.shift],
            before=case.before,
            after=case.after,
        )
        for shift in shifts
        for case in shift.cases
    )
    value_before, value_after = _share(mine), _share(theirs)
    return ShadowComparison(
        touchpoint=touchpoint,
        severity=severity,
        base_run=base_id,
        proposed_run=proposed_id,
        repeats=repeats,
        before=value_before,
        after=value_after,
        delta=(
            value_after - value_before
            if value_after is not None and value_before is not None
            else None
        ),
        low=interval[0] if interval else None,
        high=interval[1] if interval else None,
        resamples=resamples,
        seed=seed,
        pairs=len(differences),
        unpaired=len(mine) + len(theirs) - 2 * len(differences),
        fixed_pairs=fixed,
        broken_pairs=broken,
        p_value=p,
        alpha=alpha,
        verdict=verdict,
        cases=cases,
        broken_block=tuple(c.case for c in cases if c.flip == "broken" and severity == "block"),
        cost_before=cost_breakdown(c for c in calls if c.run_id == base_id),
        cost_after=cost_breakdown(c for c in calls if c.run_id == proposed_id),
        sentence=_sentence(
            touchpoint,
            (value_before, value_after),
            (fixed, broken),
            p,
            verdict=verdict,
            alpha=alpha,
        ),
    )


def describe_verdict(trial: ShadowComparison) -> str:
    """What a person must read before approving: better, worse, or not better than noise."""
    test = f"McNemar p = {trial.p_value:.4g}"
    if trial.verdict == "better":
        line = f"better: a significant gain ({test} < {trial.alpha:g})"
    elif trial.verdict == "worse":
        line = f"worse: significantly ({test} < {trial.alpha:g})"
    else:
        line = (
            f"not better than noise ({test}, not below {trial.alpha:g}): this run does not"
            " show the change helps"
        )
    if trial.broken_block:
        line += (
            f"; it breaks {len(trial.broken_block)} case(s) of block touchpoint {trial.touchpoint}"
        )
    return line
