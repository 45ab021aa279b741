"""``tracegrade signals`` and ``tracegrade patterns``: what went wrong, and how it groups."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import click

from tracegrade.cli._options import check_run, check_touchpoint, opened, project_store_options
from tracegrade.cli._proposals import print_json

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.proposals import Pattern
    from tracegrade.store import JsonObject, SignalRecord

__all__ = ["patterns_command", "signals_group"]

Format = Literal["text", "json"]
_SHOWN = ("rule", "tool", "diagnosis", "message", "detail")


def _summary(payload: JsonObject) -> str:
    case = payload.get("case")
    where = f"case {case}: " if isinstance(case, str) else ""
    for key in _SHOWN:
        value = payload.get(key)
        if isinstance(value, str) and value:
            text = value if len(value) <= 90 else value[:89] + "…"
            return f"{where}{key}: {text}"
    return where.removesuffix(": ")


def _ids(ids: tuple[int, ...]) -> str:
    shown = [str(each) for each in ids]
    return ",".join(shown if len(shown) <= 6 else [*shown[:3], "…", shown[-1]])


def _signal_line(signal: SignalRecord) -> str:
    state = "processed" if signal.processed else "open"
    run = f"  run {signal.run_id}" if signal.run_id else ""
    return (
        f"#{signal.id}  {signal.recorded_at:%Y-%m-%d %H:%M:%S}Z  {signal.touchpoint}"
        f"  {signal.kind}  {signal.fingerprint}  {state}{run}  | {_summary(signal.payload)}"
    )


@click.group("signals")
def signals_group() -> None:
    """Signals: gate failures, guard blocks, contract breaches and user feedback."""


@signals_group.command("list")
@click.option("--touchpoint", metavar="ID", help="Only this touchpoint's signals.")
@click.option("--open", "only_open", is_flag=True, help="Only the unprocessed ones.")
@project_store_options
def list_command(
    *,
    touchpoint: str | None,
    only_open: bool,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """The signals, oldest first."""
    check_touchpoint(project_path, touchpoint)
    with opened(project_path, store_url, need_project=False) as (_, store):
        found = store.signals(touchpoint, processed=False if only_open else None)
    if output_format == "json":
        print_json(found)
        return
    if not found:
        click.echo("no signals", err=True)
    for signal in found:
        click.echo(_signal_line(signal))


@signals_group.command("add")
@click.argument("touchpoint")
@click.option(
    "--kind",
    type=click.Choice(["feedback", "gate_failure", "guard_block", "contract_failure"]),
    default="feedback",
    show_default=True,
)
@click.option("--message", required=True, help="What went wrong, in a sentence.")
@click.option("--run", "run_id", metavar="RUN_ID", help="The run it is about, if any.")
@project_store_options
def add_command(
    *,
    touchpoint: str,
    kind: Literal["feedback", "gate_failure", "guard_block", "contract_failure"],
    message: str,
    run_id: str | None,
    project_path: Path,
    store_url: str | None,
    output_format: Format,
) -> None:
    """Record a signal about TOUCHPOINT, e.g. a user's feedback.

    \b
    Example:
      tracegrade signals add answer_prompt --kind feedback --message "quoted the wrong fee"
    """
    from tracegrade.proposals import record_signal

    with opened(project_path, store_url, need_project=False, existing=False) as (project, store):
        if project is not None:
            project.entry(touchpoint)  # an unknown touchpoint is an error naming the known ones
        check_run(store, run_id)  # a signal about a run the store never saw would be lost
        number = record_signal(store, touchpoint, kind, {"message": message}, run_id=run_id)
        recorded = next(s for s in store.signals(touchpoint) if s.id == number)
    if output_format == "json":
        print_json(recorded)
        return
    click.echo(f"signal #{number} recorded ({kind}, fingerprint {recorded.fingerprint})")


def _pattern_line(pattern: Pattern) -> str:
    return (
        f"{pattern.count:>4}  {pattern.touchpoint}  {pattern.kind}  {pattern.fingerprint}"
        f"  {pattern.first_seen:%Y-%m-%d %H:%M}Z..{pattern.last_seen:%Y-%m-%d %H:%M}Z"
        f"  signals {_ids(pattern.signal_ids)}  | {_summary(pattern.example)}"
    )


@click.command("patterns")
@click.option("--touchpoint", metavar="ID", help="Only this touchpoint's patterns.")
@project_store_options
def patterns_command(
    *, touchpoint: str | None, project_path: Path, store_url: str | None, output_format: Format
) -> None:
    """Unprocessed signals grouped by what went wrong, most frequent first.

    Answer one with `tracegrade proposals new ... --pattern FINGERPRINT`.
    """
    from tracegrade.proposals import find_patterns

    check_touchpoint(project_path, touchpoint)
    with opened(project_path, store_url, need_project=False) as (_, store):
        found = find_patterns(store.signals(touchpoint, processed=False))
    if output_format == "json":
        print_json(found)
        return
    if not found:
        click.echo("no open signals", err=True)
    for pattern in found:
        click.echo(_pattern_line(pattern))
