"""Native trace files graded by the compiled core from their bytes, in one call.

A suite's cases, a trace graded against a question (``grade_trace_file``/``_runs``) and
``tracegrade grade DIR`` hand a native file the core covers to it first: each result must be
what reading the file (secrets redacted) and grading its run gives, and the reference must
still read every file the core leaves (a secret, a declared decoder, another strictness).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.helpers.engines import engine
from tests.redact.test_redact import SECRETS
from tracegrade.suites import (
    _load,
    grade_runs,
    grade_trace_file,
    grade_trace_runs,
    load_suite,
    run_suite,
)
from tracegrade.traces import read_trace
from tracegrade.traces._native import _looks_native
from tracegrade.traces._registry import SNIFF_BYTES
from tracegrade.verdicts import grade
from tracegrade.verdicts._native import compiled_grade_file

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.claims import Question

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "traces"

SUITE = """
[suite]
traces = "{traces}"

[[questions]]
id = "refund-window"
facts = [{{id = "file", text = "billing/config.py"}}, {{id = "days", text = "45"}}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"
{decoders}
[[cases]]
trace = "*.json"
question = "refund-window"

[[cases]]
trace = "*.json"
question = "refund-window"
auto = true

[[cases]]
trace = "*.json"
auto = true
"""

DECODERS = """
[decoders.list_docs]
kind = "path"
items = "files[*]"
"""


@pytest.fixture
def read_by_reference(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files the reference reads (``read_trace``/``read_traces``), under the compiled core."""
    read: list[str] = []
    real_one, real_all = _load.read_trace, _load.read_traces  # type: ignore[attr-defined]

    def one(path: str | Path, *args: Any, **kwargs: Any) -> Any:
        read.append(Path(path).name)
        return real_one(path, *args, **kwargs)

    def every(path: str | Path, *args: Any, **kwargs: Any) -> Any:
        read.append(Path(path).name)
        return real_all(path, *args, **kwargs)

    monkeypatch.setattr(_load, "read_trace", one)  # the names _load grades with
    monkeypatch.setattr(_load, "read_traces", every)
    with engine("compiled"):
        yield read


@pytest.fixture
def question(tmp_path: Path) -> Question:
    """The suite's question, as loaded from it."""
    asked = load_suite(_suite(tmp_path, EXAMPLES)).suite.question("refund-window")
    assert asked is not None
    return asked


def _suite(tmp_path: Path, traces: Path, decoders: str = "") -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE.format(traces=traces.as_posix(), decoders=decoders), "utf-8")
    return path


def _expected(path: Path, question: Question | None, *, auto: bool) -> object:
    """The reference's grade: the file read (redacted) and its run graded, in Python."""
    with engine("python"):
        trace = read_trace(path)
        return grade(trace) if question is None else grade(trace, question, auto=auto)


def _suite_expected(path: Path) -> list[tuple[str, object]]:
    loaded = load_suite(path)
    question = loaded.suite.question("refund-window")
    files = sorted(loaded.traces_dir.glob("*.json"))
    return [
        (file.name, _expected(file, asked, auto=auto))
        for asked, auto in ((question, False), (question, True), (None, True))
        for file in files
    ]


def _with_a_secret(folder: Path) -> Path:
    """A copy of an example whose file read holds a GitHub token: redaction changes it."""
    raw = json.loads((EXAMPLES / "read-source.json").read_text("utf-8"))
    read = next(frame["result"] for frame in raw["frames"] if "content" in frame.get("result", {}))
    read["content"] += f"\nGITHUB_TOKEN = {SECRETS['github-token']!r}\n"
    path = folder / "with-secret.json"
    path.write_text(json.dumps(raw), "utf-8")
    return path


def test_a_suites_native_cases_are_graded_by_the_core_as_the_reference_grades_them(
    tmp_path: Path, read_by_reference: list[str]
):
    suite = _suite(tmp_path, EXAMPLES)
    expected = _suite_expected(suite)

    results = [(result.run, result.grade) for result in run_suite(load_suite(suite))]

    assert len(results) == 12
    assert results == expected
    assert read_by_reference == []  # every case went to the core


def test_the_reference_reads_a_case_holding_a_secret_and_redacts_it(
    tmp_path: Path, read_by_reference: list[str]
):
    traces = tmp_path / "traces"
    traces.mkdir()
    secret = _with_a_secret(traces)
    assert read_trace(secret).metadata["redactions"]  # the reference redacts the file
    suite = _suite(tmp_path, traces)
    expected = _suite_expected(suite)

    results = [(result.run, result.grade) for result in run_suite(load_suite(suite))]

    assert results == expected
    assert read_by_reference == ["with-secret.json"] * 3


def test_a_suite_declaring_decoders_or_grading_leniently_is_read_by_the_reference(
    tmp_path: Path, read_by_reference: list[str]
):
    (tmp_path / "declaring").mkdir()
    with_decoders = load_suite(_suite(tmp_path / "declaring", EXAMPLES, DECODERS))
    plain = load_suite(_suite(tmp_path, EXAMPLES))
    files = sorted(path.name for path in EXAMPLES.glob("*.json"))

    list(run_suite(with_decoders))
    assert read_by_reference == files * 3
    read_by_reference.clear()
    list(run_suite(plain, strict=False))
    assert read_by_reference == files * 3


def test_a_native_trace_graded_against_a_question_goes_to_the_core(
    question: Question, read_by_reference: list[str]
):
    path = EXAMPLES / "read-source.json"
    expected = _expected(path, question, auto=False)
    expected_auto = _expected(path, question, auto=True)

    one = grade_trace_file(path, question)
    one_auto = grade_trace_file(path, question, auto=True)
    (every,) = grade_trace_runs(path, question)

    assert (one.run, one.grade) == (str(path), expected)
    assert one_auto.grade == expected_auto
    assert (every.run, every.grade) == (str(path), expected)
    assert read_by_reference == []


def test_a_trace_graded_against_a_question_with_a_secret_is_redacted_by_the_reference(
    tmp_path: Path, question: Question, read_by_reference: list[str]
):
    path = _with_a_secret(tmp_path)
    expected = _expected(path, question, auto=False)

    assert grade_trace_file(path, question).grade == expected
    assert grade_trace_runs(path, question)[0].grade == expected
    assert read_by_reference == ["with-secret.json", "with-secret.json"]


_HEAD_PIECES = [
    "\ufeff",
    " ",
    "\t",
    "\n",
    "\r",
    "\x0b",
    "\x0c",
    "{",
    "[",
    '"schema_version"',
    ":",
    "2",
    "20",
    "1",
    "_",
    ".",
    "x",
    '"frames"',
    '"tokens"',
    '"outcome"',
    '"commit"',
    ", ",
    "a" * 1000,
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_HEAD_PIECES), max_size=14))
@example(["\ufeff", " ", "{", '"frames"', '"tokens"', '"outcome"', '"commit"'])
@example(["\x0c", "{", '"frames"', '"tokens"', '"outcome"', '"commit"'])
@example(["{", "\x0c", '"schema_version"', "\x0b", ":", "\t", "2", "."])
@example(["{", '"schema_version"', ":", "2", "_"])
@example(["{", '"frames"', '"tokens"', '"outcome"', *["a" * 1000] * 5, '"commit"'])
def test_the_core_reads_a_file_as_native_where_the_native_reader_surely_would(
    pieces: list[str],
) -> None:
    # The core's sniff (rust/src/native/file.rs) and `_looks_native` say the same of a head.
    data = "".join(pieces).encode()
    with tempfile.TemporaryDirectory() as folder, engine("compiled"):
        path = Path(folder) / "trace.json"
        path.write_bytes(data)
        taken, _ = compiled_grade_file(str(path))
    assert taken == _looks_native(str(path), data[:SNIFF_BYTES]), data[:200]


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="names not in UTF-8: Linux's (APFS refuses them)"
)
def test_a_file_named_in_bytes_that_are_not_utf8_is_graded_by_the_core(tmp_path: Path):
    # Python spells such a name with surrogates; the core opens it by the same bytes.
    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/\xff-run.json"))
    path.write_bytes((EXAMPLES / "read-source.json").read_bytes())

    with engine("compiled"):
        (run,) = grade_runs([path])
        taken, graded = compiled_grade_file(str(path), auto=True)

    assert run.error is None
    assert run.grade == _expected(path, None, auto=True)
    assert taken
    assert graded == run.grade
