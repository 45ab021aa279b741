"""``tracegrade baseline``: promote a run as baseline, show a touchpoint's history, compare runs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.evals import RunComparison
    from tracegrade.store import Store

__all__ = ["baseline_group"]

Format = Literal["text", "json"]


def _store_options(function: Callable[..., None]) -> Callable[..., None]:
    function = click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
    )(function)
    function = click.option(
        "--store", "store_url", metavar="URL", help="The store (default: the project's)."
    )(function)
    return click.option(
        "--project",
        "project_path",
        type=click.Path(path_type=Path),
        default="tracegrade.toml",
        show_default=True,
        help="The project whose store to use (a tracegrade.toml or its folder).",
    )(function)


def _open(project_path: Path, store_url: str | None) -> Store:
    from tracegrade.cli._run import open_project_store, project_file
    from tracegrade.evals import load_project

    if store_url is not None:
        return open_project_store(None, store_url)
    path = project_file(project_path)
    if not path.is_file():
        raise click.UsageError(f"{path} does not exist; pass --project or --store")
    return open_project_store(load_project(path), None)


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"


def _json(data: Any) -> None:  # noqa: ANN401 - any JSON value
    import orjson

    click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())


@click.group("baseline")
def baseline_group() -> None:
    """Baselines: the stored runs each touchpoint is compared with."""


@baseline_group.command("promote")
@click.argument("run_id")
@click.option("--touchpoint", metavar="ID", help="Promote only this touchpoint's results.")
@_store_options
def promote_command(
    *,
    run_id: str,
    touchpoint: str | None,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Make finished run RUN_ID the baseline of its touchpoints (or of one).

    \b
    Example:
      tracegrade baseline promote 20250101T120000Z-3f9a2c --touchpoint search_knowledge
    """
    store = _open(project_path, store_url)
    try:
        promoted = store.promote_baseline(run_id, touchpoint)
    finally:
        store.close()
    if output_format == "json":
        _json([record.model_dump(mode="json") for record in promoted])
        return
    for record in promoted:
        cases = len(record.outcomes)
        click.echo(
            f"{record.touchpoint}: baseline {_value(record.metric)} from run {record.run_id}"
            f" ({cases} cases)"
        )


@baseline_group.command("history")
@click.argument("touchpoint")
@_store_options
def history_command(
    *, touchpoint: str, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """Every baseline TOUCHPOINT had, newest first (the first is the current one)."""
    store = _open(project_path, store_url)
    try:
        history = store.baseline_history(touchpoint)
    finally:
        store.close()
    if output_format == "json":
        _json([record.model_dump(mode="json") for record in history])
        return
    if not history:
        click.echo(f"{touchpoint}: no baseline promoted yet", err=True)
        return
    for number, record in enumerate(history):
        current = "  (current)" if number == 0 else ""
        click.echo(
            f"{record.promoted_at:%Y-%m-%d %H:%M:%S}Z  run {record.run_id}"
            f"  metric {_value(record.metric)}  {len(record.outcomes)} cases{current}"
        )


@baseline_group.command("compare")
@click.argument("run_a")
@click.argument("run_b")
@click.option("--all", "show_all", is_flag=True, help="List unchanged cases too (text).")
@_store_options
def compare_command(
    *,
    run_a: str,
    run_b: str,
    show_all: bool,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Compare RUN_B with RUN_A per touchpoint and per case.

    Each is improved, regressed, unchanged, new (only in RUN_B), gone (only in RUN_A) or
    unmeasured (one side has only infrastructure failures).
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import compare_runs

    store = _open(project_path, store_url)
    try:
        for run_id in (run_a, run_b):
            if store.get_run(run_id) is None:
                raise InputError(f"no run {run_id!r} in the store", fix="pass a stored run id")
        comparison = compare_runs(
            run_a, store.case_results(run_a), run_b, store.case_results(run_b)
        )
    finally:
        store.close()
    if output_format == "json":
        click.echo(comparison.model_dump_json(indent=2))
        return
    click.echo(render_comparison(comparison, show_all=show_all), nl=False)


def render_comparison(comparison: RunComparison, *, show_all: bool = False) -> str:
    """The text of a comparison: a line per touchpoint, then its cases that moved."""
    lines = [f"{comparison.before} -> {comparison.after}"]
    for item in comparison.touchpoints:
        lines.append(
            f"{item.touchpoint}  {item.shift}  {_value(item.before)} -> {_value(item.after)}"
        )
        lines.extend(
            f"  {case.shift:<10}  {case.case}  {_value(case.before)} -> {_value(case.after)}"
            for case in item.cases
            if show_all or case.shift != "unchanged"
        )
    counts = ", ".join(
        f"{comparison.count(shift)} {shift}"
        for shift in ("improved", "regressed", "unchanged", "new", "gone", "unmeasured")
    )
    lines.append(f"cases: {counts}")
    return "".join(f"{line}\n" for line in lines)
