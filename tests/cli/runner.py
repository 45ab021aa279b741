"""Run the tracegrade CLI in-process and collect its exit code and output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.cli import main

if TYPE_CHECKING:
    import pytest


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> Outcome:
    """Run ``tracegrade ARGS`` and return the exit code, stdout and stderr."""
    capsys.readouterr()  # drop anything printed before
    code = 0
    try:
        main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)
