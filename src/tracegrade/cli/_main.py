"""The command group, error handling and exit codes shared by every command."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import TYPE_CHECKING

import click

from tracegrade import __version__
from tracegrade._extras import missing_extra
from tracegrade._text import escape_controls
from tracegrade.errors import TracegradeError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["cli", "main"]


# Each command's module is imported only when that command runs (or help lists it), so
# `tracegrade grade` does not pay for the store, web and proposal commands' imports.
_COMMANDS = {
    "baseline": "tracegrade.cli._baseline:baseline_group",
    "contract": "tracegrade.cli._contract:contract_group",
    "convert": "tracegrade.cli._show:convert_command",
    "cost": "tracegrade.cli._cost:cost_command",
    "export": "tracegrade.cli._export:export_group",
    "formats": "tracegrade.cli._formats:formats_command",
    "grade": "tracegrade.cli._grade:grade_command",
    "guard": "tracegrade.cli._guard:guard_group",
    "patterns": "tracegrade.cli._signals:patterns_command",
    "proposals": "tracegrade.cli._proposals:proposals_group",
    "rubric": "tracegrade.cli._rubric:rubric_command",
    "run": "tracegrade.cli._run:run_command",
    "serve": "tracegrade.cli._serve:serve_command",
    "show": "tracegrade.cli._show:show_command",
    "signals": "tracegrade.cli._signals:signals_group",
}
"""Command name to ``module:attribute`` of its click command."""


class _LazyGroup(click.Group):
    """A group that imports a command's module on first use (click's "lazy loading" pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _COMMANDS:
            module, _, attribute = _COMMANDS[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tracegrade")
def cli() -> None:
    """Grade recorded agent runs from what their tools actually returned.

    Exit codes: 0 every expectation held; 1 an expectation failed; 2 bad input
    or usage; 3 infrastructure failure.
    """


INTERNAL_ERROR_EXIT = 3
"""The exit code of an unexpected exception: a bug, not bad input and not a failed expectation."""

_PROGRAM_YOUNG_COLLECTION = 100_000
"""Allocations between young collections in the program (mypy's main sets 200,000)."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; a tracegrade error prints one line on stderr and exits with its code.

    Any other exception is a bug: one "internal error, please report" line and exit code 3,
    never a traceback (whose exit code 1 would read as "an expectation failed").

    With no ``argv`` this is the program (the ``tracegrade`` script, ``python -m
    tracegrade``), a short-lived process: the garbage collector's young generation waits for
    more allocations than the default 700 (start-up builds tens of thousands of long-lived
    objects that every young collection would walk again), and what is left at the end is
    frozen out of the interpreter's final collection, which would walk every object once
    more (tens of ms each). Called with ``argv`` (tests, embedding) the collector is left as
    it is.
    """
    program = argv is None
    if program:
        gc.set_threshold(_PROGRAM_YOUNG_COLLECTION, *gc.get_threshold()[1:])
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        _run(args)
    except Exception as exc:  # noqa: BLE001 - the last line of defence, reported as a bug
        import traceback  # only a bug pays for it (linecache, tokenize)

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
    finally:
        if program:
            gc.freeze()


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
