"""The CI examples in docs/ci/ are valid YAML and every tracegrade command in them parses."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import click  # noqa: TID251 - the test asks the CLI's own parser
import pytest
import yaml  # type: ignore[import-untyped]  # no stubs in the dev extra

from tracegrade.cli import cli

CI = Path(__file__).resolve().parents[2] / "docs" / "ci"


def _commands(node: Any) -> list[str]:
    """Every ``tracegrade ...`` line of a ``run:`` step or a ``script:`` list."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in {"run", "script"}:
                lines = value if isinstance(value, list) else str(value).splitlines()
                found += [line for line in map(str, lines) if line.startswith("tracegrade ")]
            else:
                found += _commands(value)
    elif isinstance(node, list):
        for item in node:
            found += _commands(item)
    return found


def _parses(command: str) -> None:
    words = shlex.split(command.partition(" > ")[0])
    ctx = click.Context(cli)
    sub = cli.get_command(ctx, words[1])
    assert sub is not None, command
    sub.make_context(words[1], words[2:], parent=ctx)  # raises on an unknown option or choice


@pytest.mark.parametrize(
    ("name", "formats"),
    [("github-actions.yml", {"github", "junit"}), ("gitlab-ci.yml", {"junit"})],
)
def test_every_tracegrade_command_in_a_workflow_parses(name: str, formats: set[str]):
    workflow = yaml.safe_load((CI / name).read_text("utf-8"))
    commands = _commands(workflow)

    assert len(commands) >= 2
    for command in commands:
        _parses(command)
    assert {shlex.split(c)[shlex.split(c).index("--format") + 1] for c in commands} == formats


def test_gitlab_hands_each_junit_report_to_gitlab():
    jobs = yaml.safe_load((CI / "gitlab-ci.yml").read_text("utf-8"))
    for name in ("evals", "grade-recorded-runs"):
        job = jobs[name]
        (command,) = [line for line in job["script"] if line.startswith("tracegrade ")]
        assert job["artifacts"]["when"] == "always"
        assert job["artifacts"]["reports"]["junit"] == command.rsplit("> ", 1)[1]


def test_a_misspelt_option_would_not_parse():
    with pytest.raises(click.UsageError):
        _parses("tracegrade grade runs/ --format junti")
