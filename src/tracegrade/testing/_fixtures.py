"""The ``tracegrade_trace`` fixture's factory: read a trace file of any format in a test."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os

    from tracegrade.traces import Trace

__all__ = ["TraceFactory"]


class TraceFactory:
    """Reads trace files for a test; relative paths are taken from the test file's folder.

    Call it for a file that holds one run; :meth:`all` for every run of a file (a JSONL log,
    a span export holding several traces).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, source: str | os.PathLike[str]) -> Path:
        """Where ``source`` is: as given when absolute, else beside the test file."""
        path = Path(source)
        return path if path.is_absolute() else self.folder / path

    def __call__(
        self, source: str | os.PathLike[str] | bytes, *, format_name: str | None = None
    ) -> Trace:
        """The one run of a trace file (or of bytes), read in any format tracegrade reads.

        Raises:
            TraceFormatError: The file is not a trace, or it holds more than one run.
        """
        from tracegrade.traces import read_trace  # noqa: PLC0415 - the plugin loads light

        data = source if isinstance(source, bytes) else self.path(source)
        return read_trace(data, format_name=format_name)

    def all(
        self, source: str | os.PathLike[str] | bytes, *, format_name: str | None = None
    ) -> list[Trace]:
        """Every run of a trace file (or of bytes), in file order."""
        from tracegrade.traces import read_traces  # noqa: PLC0415 - the plugin loads light

        data = source if isinstance(source, bytes) else self.path(source)
        return list(read_traces(data, format_name=format_name))
