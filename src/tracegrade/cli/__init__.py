"""The ``tracegrade`` command: thin commands over the public API (edge).

Commands import what they need when they run, so ``tracegrade --help`` and a
small grade start fast.
"""

from tracegrade.cli._main import cli, main

__all__ = ["cli", "main"]
