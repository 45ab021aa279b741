"""Detection: every golden fixture a reader reads is detected as that reader's format.

New readers must not take files from the existing ones, nor the other way round; each
fixture folder is named after its reader. Failure fixtures (which their reader refuses) are
tested with their readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.helpers.readers import READER_FIXTURES
from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces, trace_readers

if TYPE_CHECKING:
    from pathlib import Path

NAMES = {reader.name for reader in trace_readers()}


def _read_by_their_reader() -> list[tuple[Path, str, int]]:
    found: list[tuple[Path, str, int]] = []
    for folder in sorted(READER_FIXTURES.iterdir()):
        if folder.name not in NAMES:
            continue
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            try:
                count = len(list(read_traces(path, format_name=folder.name)))
            except TraceFormatError:
                continue
            found.append((path, folder.name, count))
    return found


READABLE = _read_by_their_reader()


def test_every_new_agent_log_format_has_readable_fixtures() -> None:
    readers = {reader for _, reader, _ in READABLE}
    assert {"claude-code", "codex", "mini-swe-agent", "openhands", "ai-sdk"} <= readers


@pytest.mark.parametrize(
    ("path", "reader", "count"),
    READABLE,
    ids=[str(path.relative_to(READER_FIXTURES)) for path, _, _ in READABLE],
)
def test_a_fixture_its_reader_reads_is_detected_as_that_reader(
    path: Path, reader: str, count: int
) -> None:
    assert [trace.source_format for trace in read_traces(path)] == [reader] * count
