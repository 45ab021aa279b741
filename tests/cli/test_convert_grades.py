"""``tracegrade convert`` keeps what grading reads: a converted trace grades as its source.

Every reader's own fixtures are converted through the CLI, read back and graded; the grade
(and any decoding error) must be the same as the source's. A reader with no fixture fails the
coverage test, so a new format cannot skip the round trip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.runner import run_cli
from tracegrade.errors import TracegradeError
from tracegrade.traces import read_traces, trace_readers
from tracegrade.verdicts import Grade, grade

READERS = Path(__file__).resolve().parents[1] / "fixtures" / "readers"


def _reads(path: Path) -> bool:
    try:
        list(read_traces(path))
    except TracegradeError:
        return False  # a fixture written to fail reading (invalid, truncated, ...)
    return True


def _readable_fixtures() -> list[Path]:
    files = sorted(
        p for p in READERS.glob("*/*") if p.suffix in {".json", ".jsonl", ".traj", ".eval"}
    )
    return [path for path in files if _reads(path)]


def _graded(path: Path) -> list[Grade | str]:
    """Each run's grade with no question (claims extracted), or the error it raised."""
    outcomes: list[Grade | str] = []
    for trace in read_traces(path):
        try:
            outcomes.append(grade(trace))
        except TracegradeError as exc:
            outcomes.append(type(exc).__name__)
    return outcomes


@pytest.mark.parametrize("fixture", _readable_fixtures(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_converted_trace_grades_exactly_like_its_source(
    fixture: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    out = tmp_path / "converted"
    out.mkdir()
    result = run_cli(capsys, "convert", str(fixture), "-o", str(out))
    assert result.code == 0, result.err

    sources = list(read_traces(fixture))
    converted = {t.id: t for f in sorted(out.iterdir()) for t in read_traces(f)}
    assert sorted(converted) == sorted(t.id for t in sources)
    assert [converted[t.id].source_format for t in sources] == [t.source_format for t in sources]
    regraded: list[Grade | str] = []
    for trace in sources:
        try:
            regraded.append(grade(converted[trace.id]))
        except TracegradeError as exc:
            regraded.append(type(exc).__name__)
    assert regraded == _graded(fixture)


def test_every_reader_has_a_fixture_in_the_round_trip():
    covered = {trace.source_format for path in _readable_fixtures() for trace in read_traces(path)}

    assert {r.name for r in trace_readers()} - {"native"} <= covered


def test_convert_refuses_an_output_name_show_could_not_detect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    fixture = READERS / "openai-chat" / "valid.json"

    refused = run_cli(capsys, "convert", str(fixture), "-o", str(tmp_path / "run"))
    written = run_cli(capsys, "convert", str(fixture), "-o", str(tmp_path / "run.json"))

    assert refused.code == 2
    assert "a native trace is a .json file; name it" in refused.err
    assert not (tmp_path / "run").exists()
    assert written.code == 0
    assert run_cli(capsys, "show", str(tmp_path / "run.json")).code == 0
