"""``tracegrade contract check``: do recorded runs keep the grounding contract?"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from tracegrade._text import escape_controls
from tracegrade.errors import TracegradeError

if TYPE_CHECKING:
    from tracegrade.contract import ContractFailure

__all__ = ["contract_group"]

_Run = tuple[str, str, tuple["ContractFailure", ...]]


@click.group("contract")
def contract_group() -> None:
    """The grounding contract: citations backed by artifacts, reads complete."""


@contract_group.command("check")
@click.argument("traces", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--from", "format_name", help="Read the traces in this format (skip detection).")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@click.option(
    "--rules",
    "rules_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A TOML file whose [contract] table sets the citation marker and whole-document phrases.",
)
def check_command(
    traces: tuple[Path, ...],
    format_name: str | None,
    output_format: Literal["text", "json"],
    rules_file: Path | None,
) -> None:
    """Check every run's citations and reads against the grounding contract.

    Exit code 1 if any run breaks the contract, 0 if none, 2 on bad input (an
    invalid trace or artifact: the message names the file and the frame).

    \b
    Example:
      tracegrade contract check runs/*.json --format json
    """
    from tracegrade.contract import ContractRules, load_contract_rules, validate_grounding_contract
    from tracegrade.traces import read_traces

    rules = load_contract_rules(rules_file) if rules_file is not None else ContractRules()
    runs: list[_Run] = []
    for path in traces:
        for trace in read_traces(path, format_name=format_name):
            try:
                failures = validate_grounding_contract(trace, rules)
            except TracegradeError as exc:
                raise exc.in_file(f"{path} (trace {trace.id})") from None
            runs.append((str(path), trace.id, failures))
    failed = sum(len(failures) for _, _, failures in runs)
    if output_format == "json":
        import orjson

        click.echo(orjson.dumps(_report(runs), option=orjson.OPT_INDENT_2).decode())
    else:
        click.echo(_text(runs), nl=False)
        broken = sum(1 for _, _, failures in runs if failures)
        click.echo(
            f"{failed} contract failure(s) in {broken} of {len(runs)} run(s).",
            err=True,
        )
    if failed:
        sys.exit(1)


def _text(runs: list[_Run]) -> str:
    lines: list[str] = []
    for file, trace_id, failures in runs:
        if not failures:
            continue
        lines.append(f"{file} ({trace_id})")
        for failure in failures:
            frame = "-" if failure.frame is None else str(failure.frame)
            source = f"{failure.source}: " if failure.source is not None else ""
            lines.append(f"  frame {frame:<4} {failure.rule}  {source}{failure.detail}")
            if failure.claim is not None:
                lines.append(f"    claim: {failure.claim}")
    return escape_controls("".join(f"{line}\n" for line in lines))


def _report(runs: list[_Run]) -> dict[str, Any]:
    rules: dict[str, int] = {}
    for _, _, failures in runs:
        for failure in failures:
            rules[failure.rule] = rules.get(failure.rule, 0) + 1
    return {
        "schema_version": 1,
        "runs": [
            {
                "file": file,
                "trace_id": trace_id,
                "failures": [
                    {
                        "rule": failure.rule,
                        "frame": failure.frame,
                        "claim": failure.claim,
                        "source": failure.source,
                        "detail": failure.detail,
                    }
                    for failure in failures
                ],
            }
            for file, trace_id, failures in runs
        ],
        "summary": {
            "runs": len(runs),
            "failed_runs": sum(1 for _, _, failures in runs if failures),
            "failures": sum(len(failures) for _, _, failures in runs),
            "by_rule": dict(sorted(rules.items())),
        },
    }
