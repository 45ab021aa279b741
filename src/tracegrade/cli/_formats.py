"""``tracegrade formats``: the trace formats this install reads, in the order detection asks."""

from __future__ import annotations

import click

__all__ = ["formats_command"]


@click.command("formats")
def formats_command() -> None:
    """List the trace formats (the names --from takes) and what each reads.

    Detection asks them in this order; the first that recognises a file reads it.
    """
    from tracegrade.traces import trace_readers

    readers = trace_readers()
    width = max(len(reader.name) for reader in readers)
    for reader in readers:
        click.echo(f"{reader.name:<{width}}  {reader.description}")
