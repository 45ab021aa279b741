"""``tracegrade guard replay``: which recorded calls would the figure guard have blocked?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from tracegrade._text import escape_controls

if TYPE_CHECKING:
    from tracegrade.guard import ReplayedCall

__all__ = ["guard_group"]


@click.group("guard")
def guard_group() -> None:
    """The figure-provenance guard: audit recorded runs with a policy."""


@guard_group.command("replay")
@click.argument("traces", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--policy",
    "policy_file",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="The guard policy (TOML): sources and the argument slices to scan per tool.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@click.option("--from", "format_name", help="Read the traces in this format (skip detection).")
@click.option("--all", "show_all", is_flag=True, help="List allowed calls too (text format).")
def replay_command(
    traces: tuple[Path, ...],
    policy_file: Path,
    output_format: Literal["text", "json"],
    format_name: str | None,
    show_all: bool,
) -> None:
    """Replay the guard over recorded runs and list every call it would have blocked.

    Exit code 1 if any call would have been blocked, 0 if none, 2 on bad input.

    \b
    Example:
      tracegrade guard replay runs/*.json --policy guard.toml
    """
    from tracegrade.guard import load_policy, replay
    from tracegrade.traces import read_traces

    policy = load_policy(policy_file)
    runs: list[tuple[str, str, tuple[ReplayedCall, ...]]] = []
    for path in _progress(traces):
        runs.extend(
            (str(path), trace.id, replay(trace, policy))
            for trace in read_traces(path, format_name=format_name)
        )
    blocked = sum(1 for _, _, calls in runs for call in calls if not call.decision.allowed)
    if output_format == "json":
        import orjson

        click.echo(orjson.dumps(_report(runs, blocked), option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(_text(runs, show_all=show_all), nl=False)
        guarded = sum(len(calls) for _, _, calls in runs)
        hit = sum(1 for _, _, calls in runs if any(not c.decision.allowed for c in calls))
        click.echo(
            f"{blocked} of {guarded} guarded call(s) would be blocked, in {hit} of"
            f" {len(runs)} run(s).",
            err=True,
        )
    if blocked:
        sys.exit(1)


def _progress(paths: tuple[Path, ...]) -> Any:  # noqa: ANN401 - an iterable of paths either way
    if len(paths) < 20 or not sys.stderr.isatty():
        return paths
    return click.progressbar(paths, label="replaying", file=sys.stderr)


def _text(runs: list[tuple[str, str, tuple[ReplayedCall, ...]]], *, show_all: bool) -> str:
    lines: list[str] = []
    for file, trace_id, calls in runs:
        shown = [call for call in calls if show_all or not call.decision.allowed]
        if not shown:
            continue
        lines.append(f"{file} ({trace_id})")
        for call in shown:
            decision = call.decision
            if decision.allowed:
                sourced = f"allowed ({decision.checked} figure(s) sourced)"
                lines.append(f"  frame {call.frame:<4} {decision.tool}  {sourced}")
                continue
            figures = ", ".join(f"{u.figure.raw} at {u.location}" for u in decision.unsourced)
            lines.append(f"  frame {call.frame:<4} {decision.tool}  BLOCKED  unsourced: {figures}")
    return escape_controls("".join(f"{line}\n" for line in lines))


def _report(runs: list[tuple[str, str, tuple[ReplayedCall, ...]]], blocked: int) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "runs": [
            {
                "file": file,
                "trace_id": trace_id,
                "calls": [
                    {
                        "frame": call.frame,
                        "tool": call.decision.tool,
                        "call_id": call.decision.call_id,
                        "action": call.decision.action,
                        "checked": call.decision.checked,
                        "unsourced": [
                            {
                                "raw": u.figure.raw,
                                "value": u.figure.value,
                                "kind": u.figure.kind,
                                "location": u.location,
                            }
                            for u in call.decision.unsourced
                        ],
                        "evidence": list(call.decision.evidence),
                        "message": call.decision.message,
                    }
                    for call in calls
                ],
            }
            for file, trace_id, calls in runs
        ],
        "summary": {
            "runs": len(runs),
            "guarded_calls": sum(len(calls) for _, _, calls in runs),
            "blocked_calls": blocked,
        },
    }
