"""``tracegrade run``: run a project's touchpoints, store every case result, report the verdicts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from tracegrade.cli._options import (
    executor_for,
    executor_options,
    open_project_store,
    prices_option,
    project_file,
    store_option,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from contextlib import AbstractContextManager

    from tracegrade.evals import RunReport, TouchpointReport

__all__ = ["run_command"]


@click.command("run")
@click.argument("target", default="tracegrade.toml", type=click.Path(path_type=Path, exists=False))
@click.option(
    "--lane",
    type=click.Choice(["pr", "nightly"]),
    help="pr: each touchpoint's repeats; nightly: its nightly_repeats. Default pr (a resumed"
    " run keeps its lane).",
)
@click.option(
    "--touchpoint",
    "touchpoints",
    multiple=True,
    metavar="ID",
    help="Run only this touchpoint (repeatable), whatever its lanes.",
)
@executor_options
@click.option("--resume", "resume", metavar="RUN_ID", help="Finish an interrupted run.")
@store_option
@click.option(
    "--cost-limit",
    type=click.FloatRange(min=0),
    metavar="USD",
    help="Start no new unit once the run's recorded model cost exceeds USD dollars; the run"
    " stops (exit 1) and can be resumed with --resume.",
)
@prices_option(
    "A price file (TOML) over the packaged prices (default: the project's [cost] prices)."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "junit", "github"]),
    default="text",
    show_default=True,
    help="text: a line per touchpoint; json: the run report; junit: JUnit XML, a testcase per"
    " touchpoint; github: GitHub Actions annotations, and a job summary appended to"
    " $GITHUB_STEP_SUMMARY when set (docs/ci.md).",
)
def run_command(
    *,
    target: Path,
    lane: Literal["pr", "nightly"] | None,
    touchpoints: tuple[str, ...],
    executor: Literal["local", "thread", "ray"],
    workers: int,
    resume: str | None,
    store_url: str | None,
    cost_limit: float | None,
    prices_path: Path | None,
    output_format: Literal["text", "json", "junit", "github"],
) -> None:
    """Run the touchpoints of TARGET (a tracegrade.toml, or its folder; default ./tracegrade.toml).

    Every case result is stored as soon as it is known; a killed run continues with
    --resume RUN_ID without running finished cases again. Exit code 0 every block
    touchpoint held (warn failures are printed); 1 a block touchpoint failed, or the run
    stopped at --cost-limit; 2 bad input; 3 only infrastructure problems.

    \b
    Examples:
      tracegrade run examples/project
      tracegrade run --lane nightly --workers 4 --format json
      tracegrade run --format junit > eval-report.xml
      tracegrade run --resume 20250101T120000Z-3f9a2c
      tracegrade run --cost-limit 5 --prices my-prices.toml
    """
    from tracegrade.cost import project_prices
    from tracegrade.errors import ProjectError
    from tracegrade.evals import load_project, run_evals

    path = project_file(target)
    project = load_project(path)
    if not project.touchpoints:
        raise ProjectError(
            "the project declares no touchpoints, so a run would evaluate nothing",
            fix="add a [[touchpoints]] table (docs/evals.md) or an @touchpoint",
            path=str(path),
        )
    prices = project_prices(project, prices_path)
    chosen = executor_for(executor, workers)
    store = open_project_store(project, store_url)
    try:
        with _progress(output_format == "text") as progress:
            report = run_evals(
                project,
                store,
                lane=lane,
                touchpoints=touchpoints,
                executor=chosen,
                resume=resume,
                progress=progress,
                prices=prices,
                cost_limit=cost_limit,
            )
    finally:
        store.close()
    if output_format == "json":
        click.echo(report.model_dump_json(indent=2))
    elif output_format == "junit" or output_format == "github":  # noqa: PLR1714 - narrows
        from tracegrade.cli._ci import write_ci_report
        from tracegrade.report import ci_case_of_touchpoint

        lines = project.touchpoint_lines()
        cases = [
            ci_case_of_touchpoint(item, project=str(path), line=lines.get(item.touchpoint))
            for item in report.touchpoints
        ]
        write_ci_report(output_format, f"tracegrade run {report.run_id}", cases, time=None)
        _footer(report)
    else:
        click.echo(render_run(report), nl=False)
        _footer(report)
    if report.exit_code:
        sys.exit(report.exit_code)


def _progress(show: bool) -> AbstractContextManager[Callable[[int, int], None] | None]:
    from contextlib import contextmanager

    @contextmanager
    def bar() -> Iterator[Callable[[int, int], None] | None]:
        if not show or not sys.stderr.isatty():
            yield None
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as shown:
            task = shown.add_task("running", total=None)

            def update(done: int, total: int) -> None:
                shown.update(task, completed=done, total=total)

            yield update

    return bar()


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"


def _drift(report: TouchpointReport) -> str:
    if report.drift is None:
        return "-"
    if not report.drift:
        return "none"
    return ", ".join(f"{change.change} {change.path}" for change in report.drift)


def _graduated(report: TouchpointReport) -> str:
    standing = report.graduation
    return "-" if standing is None else "yes" if standing.graduated else "no"


def render_run(report: RunReport) -> str:
    """The text report: a header, then one line per touchpoint."""
    resumed = f", {report.units_skipped} done before resuming" if report.resumed else ""
    lines = [
        (
            f"run {report.run_id}  lane {report.lane}  registry {report.registry_version[:12]}"
            f"  {report.units} units{resumed}"
        )
    ]
    width = max((len(t.touchpoint) for t in report.touchpoints), default=10)
    for item in report.touchpoints:
        verdict = item.verdict
        lines.append(
            f"{item.touchpoint:<{width}}  {item.severity:<5}  {verdict.status:<10}"
            f"  metric {_value(verdict.metric.value):<5}  baseline {_value(verdict.baseline):<5}"
            f"  drift {_drift(item)}  graduated {_graduated(item)}  | {verdict.sentence}"
        )
        if item.watch:
            lines.append(f"{'':<{width}}  {item.watch}")
    lines.extend(_cost_lines(report))
    return "".join(f"{line}\n" for line in lines)


def _cost_lines(report: RunReport) -> list[str]:
    """The run's model cost, agent vs judge, and each touchpoint's; nothing when none ran."""
    from tracegrade.cost import describe_breakdown, describe_totals

    lines = []
    if report.cost.total.calls:
        lines.append(f"cost: {describe_breakdown(report.cost)}")
        lines.extend(
            f"  {item.touchpoint}: agent {describe_totals(item.cost.agent)},"
            f" judge {describe_totals(item.cost.judge)}"
            for item in report.touchpoints
            if item.cost.total.calls
        )
    if report.stopped:
        lines.append(f"stopped: {report.stopped}")
    return lines


def _label(item: TouchpointReport) -> str:
    verdict = item.verdict
    if verdict.status == "infra" or (verdict.failed and item.severity == "infra"):
        return "infra"
    if verdict.failed:
        return "FAILED" if item.severity == "block" else "warning"
    return "note"


def _footer(report: RunReport) -> None:
    shown = set(report.printed)
    for item in report.touchpoints:
        if item.verdict.sentence in shown:
            click.echo(f"{_label(item)}: {item.verdict.sentence}", err=True)
    click.echo(f"{report.reason} (exit {report.exit_code}); run id {report.run_id}", err=True)
