"""The command group, error handling and exit codes shared by every command."""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING

import click

from tracegrade import __version__
from tracegrade._extras import missing_extra
from tracegrade._text import escape_controls
from tracegrade.cli._baseline import baseline_group
from tracegrade.cli._contract import contract_group
from tracegrade.cli._cost import cost_command
from tracegrade.cli._export import export_group
from tracegrade.cli._formats import formats_command
from tracegrade.cli._grade import grade_command
from tracegrade.cli._guard import guard_group
from tracegrade.cli._proposals import proposals_group
from tracegrade.cli._rubric import rubric_command
from tracegrade.cli._run import run_command
from tracegrade.cli._serve import serve_command
from tracegrade.cli._show import convert_command, show_command
from tracegrade.cli._signals import patterns_command, signals_group
from tracegrade.errors import TracegradeError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tracegrade")
def cli() -> None:
    """Grade recorded agent runs from what their tools actually returned.

    Exit codes: 0 every expectation held; 1 an expectation failed; 2 bad input
    or usage; 3 infrastructure failure.
    """


cli.add_command(grade_command)
cli.add_command(guard_group)
cli.add_command(show_command)
cli.add_command(convert_command)
cli.add_command(formats_command)
cli.add_command(contract_group)
cli.add_command(run_command)
cli.add_command(baseline_group)
cli.add_command(serve_command)
cli.add_command(signals_group)
cli.add_command(patterns_command)
cli.add_command(proposals_group)
cli.add_command(cost_command)
cli.add_command(rubric_command)
cli.add_command(export_group)


INTERNAL_ERROR_EXIT = 3
"""The exit code of an unexpected exception: a bug, not bad input and not a failed expectation."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; a tracegrade error prints one line on stderr and exits with its code.

    Any other exception is a bug: one "internal error, please report" line and exit code 3,
    never a traceback (whose exit code 1 would read as "an expectation failed").
    """
    args = list(argv) if argv is not None else sys.argv[1:]
    try:
        _run(args)
    except Exception as exc:  # noqa: BLE001 - the last line of defence, reported as a bug
        where = traceback.extract_tb(exc.__traceback__)[-1:]
        at = f" at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno}" if where else ""
        click.echo(
            "tracegrade: internal error, please report:"
            f" {type(exc).__name__}{at}: {escape_controls(str(exc))}"
            f" (tracegrade {__version__}; TRACEGRADE_TRACEBACK=1 prints the traceback)",
            err=True,
        )
        if os.environ.get("TRACEGRADE_TRACEBACK") == "1":
            traceback.print_exc()
        sys.exit(INTERNAL_ERROR_EXIT)


def _run(args: list[str]) -> None:
    try:
        cli.main(
            args=args,
            prog_name="tracegrade",
            standalone_mode=False,
        )
    except click.exceptions.Abort:
        click.echo("tracegrade: aborted", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        # One line, like every other error (click's own is four: usage, hint, blank, error).
        where = exc.ctx.command_path if exc.ctx is not None else "tracegrade"
        message = exc.format_message().rstrip(".")
        click.echo(f"tracegrade: error: {message} (see {where} --help)", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        click.echo(f"tracegrade: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except TracegradeError as exc:
        click.echo(f"tracegrade: error: {escape_controls(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except ImportError as exc:
        command = next((arg for arg in args if not arg.startswith("-")), "")
        missing = missing_extra(exc, f"tracegrade {command}".strip())
        if missing is None:
            raise
        click.echo(f"tracegrade: error: {missing}", err=True)
        sys.exit(missing.exit_code)
    except BrokenPipeError:
        sys.exit(1)  # the reader (e.g. `| head`) went away; nothing left to say
