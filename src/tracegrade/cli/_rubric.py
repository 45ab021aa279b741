"""``tracegrade rubric``: score a tool touchpoint's description with a judge, stored per version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tracegrade.cli._options import (
    open_project_store,
    project_file,
    project_option,
    store_option,
)

if TYPE_CHECKING:
    from tracegrade.judges import Judge

__all__ = ["rubric_command"]

_JUDGE_FORMS = "fake:FILE, openai:MODEL or anthropic:MODEL"


def _fake_judge(path: Path) -> Judge:
    from tracegrade.errors import InputError
    from tracegrade.judges import FakeJudge

    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(
            f"cannot read the scripted replies ({exc})",
            fix="give a JSON file holding one reply object, or a list of replies",
            path=str(path),
        ) from exc
    replies = data if isinstance(data, list) else [data]
    return FakeJudge(
        [r if isinstance(r, str | dict) else json.dumps(r) for r in replies], name=f"fake:{path}"
    )


def judge_from_spec(spec: str) -> Judge:
    """The judge ``--judge`` names: ``fake:FILE``, ``openai:MODEL`` or ``anthropic:MODEL``."""
    from tracegrade.judges import AnthropicJudge, OpenAIJudge

    kind, _, value = spec.partition(":")
    if not value:
        raise click.UsageError(f"--judge {spec!r}: expected {_JUDGE_FORMS}")
    if kind == "fake":
        return _fake_judge(Path(value))
    if kind == "openai":
        return OpenAIJudge(value)
    if kind == "anthropic":
        return AnthropicJudge(value)
    raise click.UsageError(f"--judge {spec!r}: unknown judge {kind!r}; expected {_JUDGE_FORMS}")


@click.command("rubric")
@click.argument("touchpoint")
@project_option
@click.option("--judge", "judge_spec", required=True, metavar="SPEC", help=_JUDGE_FORMS + ".")
@click.option(
    "--description-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The tool description to score (default: the touchpoint's description).",
)
@click.option(
    "--version",
    "version",
    metavar="VERSION",
    help="Store the score under this version (default: the touchpoint's current version).",
)
@store_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
def rubric_command(
    *,
    touchpoint: str,
    project_path: Path,
    judge_spec: str,
    description_file: Path | None,
    version: str | None,
    store_url: str | None,
    output_format: str,
) -> None:
    """Score TOUCHPOINT's tool description with a judge and store it per version.

    The tool-description rubric scores what the tool does, when to use it, each argument,
    its side effects and its failure modes, 0-3 each, with the judge's notes. A malformed
    reply fails (exit 2); nothing is stored from it. The judge call is recorded in the cost
    ledger with role judge.
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import file_hashes, load_project
    from tracegrade.judges import record_panel_cost, rubric_score_record, score_tool_description
    from tracegrade.proposals import content_version

    project = load_project(project_file(project_path))
    contract = project.entry(touchpoint).touchpoint
    if contract.kind != "tool":
        raise InputError(
            f"touchpoint {touchpoint} is a {contract.kind}, not a tool",
            fix="the tool-description rubric scores tool touchpoints",
        )
    if description_file is not None:
        description = description_file.read_text(encoding="utf-8")
    else:
        description = contract.description
    if not description.strip():
        raise InputError(
            f"touchpoint {touchpoint} has no description to score",
            fix="give it a description in tracegrade.toml, or pass --description-file",
        )
    version = version or content_version(contract, file_hashes(contract, project.root))
    judge = judge_from_spec(judge_spec)
    score = score_tool_description(judge, touchpoint, description)
    store = open_project_store(project, store_url)
    try:
        store.add_rubric_score(rubric_score_record(score, version))
        record_panel_cost(score, touchpoint, store=store)
    finally:
        store.close()
    if output_format == "json":
        data = {"version": version, **score.model_dump(mode="json")}
        data["total"], data["maximum"] = score.total, score.maximum
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(
        f"{touchpoint}  version {version}  rubric {score.rubric}  judge {score.judge}"
        f"  total {score.total}/{score.maximum}"
    )
    width = max(len(key) for key in score.scores)
    for key, value in score.scores.items():
        click.echo(f"  {key:<{width}}  {value}")
    if score.notes:
        click.echo(f"notes: {score.notes}")
