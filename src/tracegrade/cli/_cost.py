"""``tracegrade cost``: what the model calls cost, per touchpoint, model, UTC day or role."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import click

from tracegrade.cli._options import (
    check_run,
    check_touchpoint,
    open_store_for,
    opened,
    prices_option,
    project_store_options,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.store import CostRollup, RollupKey

__all__ = ["cost_command"]


def _cost_cell(row: CostRollup) -> str:
    from tracegrade.cost import format_usd

    if row.cost_usd is None:
        return f"unpriced ({row.unpriced_calls} call{'s' if row.unpriced_calls != 1 else ''})"
    extra = f" ({row.unpriced_calls} unpriced)" if row.unpriced_calls else ""
    return f"{format_usd(row.cost_usd)}{extra}"


def _total(rows: list[CostRollup]) -> CostRollup:
    from tracegrade.cost import priced_total
    from tracegrade.store import CostRollup

    return CostRollup(
        key="total",
        calls=sum(row.calls for row in rows),
        input_tokens=sum(row.input_tokens for row in rows),
        output_tokens=sum(row.output_tokens for row in rows),
        cost_usd=priced_total(row.cost_usd for row in rows),
        unpriced_calls=sum(row.unpriced_calls for row in rows),
    )


def render_costs(by: RollupKey, rows: list[CostRollup]) -> str:
    """The rollup as a table: one line per group, then the total."""
    from tracegrade.cost import format_usd

    if not rows:
        return "no model calls recorded\n"
    total = _total(rows)
    width = max(len(by), len("total"), *(len(row.key) for row in rows))
    header = f"{by:<{width}}  {'calls':>6}  {'input tokens':>12}  {'output tokens':>13}  cost"
    lines = [header]
    lines.extend(
        f"{row.key:<{width}}  {row.calls:>6}  {row.input_tokens:>12,}  {row.output_tokens:>13,}"
        f"  {_cost_cell(row)}"
        for row in rows
    )
    unpriced = total.unpriced_calls
    note = f" ({unpriced} call{'s' if unpriced != 1 else ''} unpriced)" if unpriced else ""
    lines.append(
        f"{'total':<{width}}  {total.calls:>6}  {total.input_tokens:>12,}"
        f"  {total.output_tokens:>13,}  {format_usd(total.cost_usd)}{note}"
    )
    return "".join(f"{line}\n" for line in lines)


@click.command("cost")
@click.option(
    "--by",
    type=click.Choice(["touchpoint", "model", "day", "role"]),
    default="touchpoint",
    show_default=True,
    help="Group the calls by touchpoint, model, day (UTC) or role (agent, judge).",
)
@click.option("--run", "run_id", metavar="RUN_ID", help="Only the calls of this run.")
@click.option("--touchpoint", metavar="ID", help="Only the calls of this touchpoint.")
@click.option(
    "--since",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Only calls recorded on or after this day (UTC).",
)
@click.option(
    "--reprice",
    is_flag=True,
    help="Price the calls again from their tokens with today's prices (the project's"
    " [cost] prices, or --prices) instead of the prices they were recorded with; the"
    " stored calls are not changed.",
)
@prices_option("With --reprice: a price file (TOML) over the packaged prices.")
@project_store_options
def cost_command(
    *,
    by: RollupKey,
    run_id: str | None,
    touchpoint: str | None,
    since: datetime | None,
    reprice: bool,
    prices_path: Path | None,
    project_path: Path,
    store_url: str | None,
    output_format: Literal["text", "json"],
) -> None:
    """What the recorded model calls cost, summed per touchpoint, model, day or role.

    Calls whose model has no price are shown as unpriced (with their count and
    tokens), never as $0.00; the total says how many calls are unpriced. Each call keeps
    the price it was recorded with; --reprice prices them again with today's table, for
    example after adding a price for a model that had none.

    \b
    Examples:
      tracegrade cost --project examples/project
      tracegrade cost --by model --run 20250101T120000Z-3f9a2c
      tracegrade cost --by day --since 2025-01-01 --format json
      tracegrade cost --by model --reprice --prices my-prices.toml
    """
    import orjson

    from tracegrade.cost import load_prices, project_prices, repriced
    from tracegrade.store import rollup_calls

    if prices_path is not None and not reprice:
        raise click.UsageError("--prices prices the calls again: add --reprice")
    start = None if since is None else since.replace(tzinfo=UTC)
    check_touchpoint(project_path, touchpoint)
    if reprice:
        # Today's prices are the project's (when there is one) unless --prices names a file.
        with opened(project_path, store_url, need_project=False) as (project, store):
            table = project_prices(project, prices_path) if project else load_prices(prices_path)
            calls = store.ai_calls(run_id=run_id, touchpoint=touchpoint, since=start)
            if not calls:
                check_run(store, run_id)
        rows = rollup_calls([repriced(call, table) for call in calls], by)
    else:
        store = open_store_for(project_path, store_url)
        try:
            rows = store.cost_rollup(by, run_id=run_id, touchpoint=touchpoint, since=start)
            if not rows:  # calls may name a run the runner never started (record_ai_call)
                check_run(store, run_id)
        finally:
            store.close()
    if output_format == "json":
        data = {
            "by": by,
            "filters": {
                "run": run_id,
                "touchpoint": touchpoint,
                "since": None if start is None else start.date().isoformat(),
            },
            "repriced": reprice,
            "rows": [row.model_dump(mode="json") for row in rows],
            "total": _total(rows).model_dump(mode="json", exclude={"key"}),
        }
        click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
        return
    if reprice:
        click.echo(
            "(priced again with today's prices; the calls keep the prices they were recorded with)"
        )
    click.echo(render_costs(by, rows), nl=False)
