"""``tracegrade proposals try``: a shadow run of a proposal, and how a comparison reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import click

from tracegrade.cli._options import (
    executor_for,
    executor_options,
    opened,
    project_store_options,
)
from tracegrade.evals import describe_verdict

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.cost import CostBreakdown
    from tracegrade.evals import CaseFlip, ShadowComparison

__all__ = ["render_trial", "try_command"]

_SHOWN = 8  # case ids listed per flip before "…"


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _names(cases: list[CaseFlip]) -> str:
    names = [case.case for case in cases]
    more = f", … ({len(names) - _SHOWN} more)" if len(names) > _SHOWN else ""
    return ", ".join(names[:_SHOWN]) + more


def _cost(breakdown: CostBreakdown) -> str:
    from tracegrade.cost import describe_breakdown

    return describe_breakdown(breakdown) if breakdown.total.calls else "no model calls"


def render_trial(trial: ShadowComparison) -> str:
    """A shadow comparison as text: before/after, interval, pairs, flips, cost, verdict."""
    flips: dict[str, list[CaseFlip]] = {}
    for case in trial.cases:
        flips.setdefault(case.flip, []).append(case)
    counted = ", ".join(f"{len(cases)} {flip}" for flip, cases in sorted(flips.items()))
    runs = (
        f"shadow runs  {trial.base_run} (base), {trial.proposed_run} (proposed);"
        f" {trial.repeats} repeat{'s' if trial.repeats != 1 else ''} each, interleaved"
    )
    metric = (
        f"metric       {_value(trial.before)} -> {_value(trial.after)}  ({_signed(trial.delta)};"
        f" {trial.confidence:.0%} bootstrap interval {_signed(trial.low)} .. {_signed(trial.high)},"
        f" {trial.resamples} resamples, seed {trial.seed})"
    )
    pairs = (
        f"pairs        {trial.pairs} measured, {trial.unpaired} unpaired: {trial.fixed_pairs}"
        f" fixed, {trial.broken_pairs} broken (McNemar exact p = {trial.p_value:.4g})"
    )
    lines = [runs, metric, pairs, f"cases        {counted or 'none'}"]
    lines.extend(
        f"  {flip:<10} {_names(flips[flip])}" for flip in ("fixed", "broken") if flips.get(flip)
    )
    lines.extend(
        [
            f"cost         base: {_cost(trial.cost_before)}",
            f"             proposed: {_cost(trial.cost_after)}",
            f"verdict      {describe_verdict(trial)}",
        ]
    )
    return "".join(f"{line}\n" for line in lines)


@click.command("try")
@click.argument("proposal_id", type=int)
@click.option(
    "--repeats",
    type=click.IntRange(min=1),
    default=None,
    help="Repeats of the suite per version (default: the touchpoint's repeats).",
)
@executor_options
@project_store_options
def try_command(
    *,
    proposal_id: int,
    repeats: int | None,
    executor: str,
    workers: int,
    project_path: Path,
    store_url: str | None,
    output_format: Literal["text", "json"],
) -> None:
    """Try proposal PROPOSAL_ID: run its touchpoint's suite on the base and on the change.

    The proposed content is written to a temporary copy of the project (the project's own
    files are not touched); both versions run interleaved, each in its own shadow run
    (never a baseline, never counted for graduation). The comparison is stored with the
    proposal: the metric before and after with a bootstrap interval, per-case flips,
    McNemar's exact test of the paired pass/fail results, and the cost of both runs.

    \b
    Examples:
      tracegrade proposals try 3
      tracegrade proposals try 3 --repeats 5 --executor ray --format json
    """
    from tracegrade.cli._proposals import print_json
    from tracegrade.cli._run import _progress
    from tracegrade.proposals import try_proposal

    chosen = executor_for(executor, workers)
    with opened(project_path, store_url, need_project=True, existing=False) as (project, store):
        if project is None:  # need_project loads it or raises
            raise click.UsageError("a project is needed")
        with _progress(output_format == "text") as progress:
            number, trial = try_proposal(
                store, project, proposal_id, repeats=repeats, executor=chosen, progress=progress
            )
    if output_format == "json":
        print_json({"proposal": proposal_id, "comparison_id": number, "comparison": trial})
        return
    click.echo(f"proposal #{proposal_id} tried on {trial.touchpoint}")
    click.echo(render_trial(trial), nl=False)
