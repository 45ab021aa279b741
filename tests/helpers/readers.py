"""Shared pieces of the reader tests: fixture folders and the 'fails naming the file' check."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces

READER_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers"


def format_error(path: Path, **options: str) -> str:
    """The message of the TraceFormatError reading ``path`` raises; it must name the file."""
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(path, **options))
    message = str(caught.value)
    assert str(path) in message
    return message
