"""What a run reports: per touchpoint its verdict, version, drift and cost, and the exit code.

Both endings of a run build these (:func:`~tracegrade.evals._conclude.conclude_run`); the run
page, the API and ``tracegrade run --format json`` show them as they are stored.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracegrade.cost import CostBreakdown
from tracegrade.evals._contract import Lane, Severity, SuiteKind
from tracegrade.evals._drift import FileDrift
from tracegrade.evals._graduation import Graduation
from tracegrade.evals._judge import TouchpointVerdict

__all__ = ["RUN_SCHEMA_VERSION", "RunReport", "TouchpointReport", "case_metric", "new_run_id"]

RUN_SCHEMA_VERSION = 1


class TouchpointReport(BaseModel):
    """One touchpoint's part of a run report.

    Attributes:
        touchpoint: The id.
        suite_kind: How its suite ran.
        severity: Its ``severity_on_fail``.
        verdict: The judgement against its stored baseline.
        baseline_run: The run its baseline was promoted from, if any.
        version: sha256 (16 hex digits) of its contract and file hashes.
        files: sha256 of each of its ``files``.
        drift: Files changed, added or removed since the baseline run; ``None`` when
            there is no baseline run to compare with.
        results: Case results stored for it in this run (all repeats).
        graduation: Whether it has earned auto-apply, this run included
            (:func:`measure_graduation`).
        cost: Its model calls in this run, agent vs judge (unpriced ones counted apart).
        watch: What this run did to the watch after an auto-apply (held, kept, rolled
            back), when one is open; else ``None``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    touchpoint: str
    suite_kind: SuiteKind
    severity: Severity
    verdict: TouchpointVerdict
    baseline_run: str | None
    version: str
    files: dict[str, str]
    drift: tuple[FileDrift, ...] | None
    results: int
    graduation: Graduation | None = None
    cost: CostBreakdown = CostBreakdown()
    watch: str | None = None


class RunReport(BaseModel):
    """What a run concluded: per touchpoint, and the exit code.

    Attributes:
        run_id: The stored run.
        lane: ``pr`` or ``nightly``.
        registry_version: The registry version it ran against.
        resumed: It continued an earlier, unfinished run.
        units: Work units in the run.
        units_skipped: Units already finished before this (resumed) invocation.
        touchpoints: One report per touchpoint, in registry order.
        exit_code: 0 held, 1 a ``block`` touchpoint failed, 3 infrastructure only.
        reason: Why, in one line.
        printed: Verdict sentences to show (failed, unstable, infra or unmeasured
            touchpoints that are not ``info``).
        cost: The run's model calls, agent vs judge (unpriced ones counted apart).
        stopped: Why the run stopped before every unit ran (``--cost-limit``), else ``None``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    run_id: str
    lane: Lane
    registry_version: str
    resumed: bool
    units: int
    units_skipped: int
    touchpoints: tuple[TouchpointReport, ...]
    exit_code: int
    reason: str
    printed: tuple[str, ...]
    cost: CostBreakdown = CostBreakdown()
    stopped: str | None = None


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{secrets.token_hex(3)}"


def case_metric(outcome: str) -> float | None:
    """A case's stored metric: 1 passed, 0 failed or broken, unknown when infra."""
    return None if outcome == "infra" else float(outcome == "passed")
