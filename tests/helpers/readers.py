"""Shared pieces of the reader tests: fixture folders and the 'fails naming the file' check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_root
from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces

READER_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers"


def format_error(path: Path, **options: Any) -> str:
    """The message of the TraceFormatError reading ``path`` raises; it must name the file."""
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(path, **options))
    message = str(caught.value)
    assert str(path) in message
    return message


def real_corpus_file(*parts: str) -> Path:
    """A file of the real corpus ($TRACEGRADE_CORPUS/...); skips, saying where it looked."""
    path = corpus_root().joinpath(*parts)
    if not path.is_file():
        pytest.skip(
            f"real corpus file not found at {path}: set TRACEGRADE_CORPUS to the folder that"
            f" holds {parts[0]}/ to run this test"
        )
    return path
