"""Reader order: priorities, the --from override, and the error for an unknown file."""

from __future__ import annotations

import dataclasses
import gc
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tracegrade.errors import TraceFormatError
from tracegrade.traces import _registry as registry
from tracegrade.traces import read_trace, read_traces, reader, trace_readers

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.traces import Trace

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
READERS = FIXTURES / "readers"


@pytest.fixture
def restore_readers() -> Iterator[None]:
    saved = dict(registry._READERS)
    yield
    registry._READERS.clear()
    registry._READERS.update(saved)


def test_native_claims_only_its_own_signature_first_and_any_object_last() -> None:
    # (It used to be asked last; a native trace quoting span attributes was then misread.)
    native = next(r for r in trace_readers() if r.name == "native")
    assert native.priority > max(r.priority for r in trace_readers() if r.name != "native")
    assert native.can_read("t.json", b'{"schema_version": 2, "id": "x"}')
    assert native.can_read("t.json", b'{"id": "x", "commit": "c", "outcome": "success",'
                                      b' "tokens": [], "frames": []}')  # fmt: skip
    assert not native.can_read("t.json", b'{"messages": [{"role": "user"}]}')
    assert native.fallback is not None
    assert native.fallback("t.json", b'{"messages": []}')  # only after every reader said no


def test_a_converted_trace_quoting_span_attributes_is_still_native() -> None:
    quoting = {"type": "user", "content": "llm.input_messages openinference.span.kind"}
    text = {"schema_version": 2, "id": "r", "task": "t", "frames": [quoting]}
    assert read_trace(json.dumps(text).encode()).source_format == "native"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (READERS / "openai-chat" / "valid.json", "refund-check-1"),
        (READERS / "tau-bench" / "valid.json", "task-0-trial-0"),
        (READERS / "tau2" / "valid.json", "sim-0001"),
        (FIXTURES / "traces" / "valid.json", "example-1"),  # native still wins its own files
    ],
)
def test_each_format_is_detected(path: Path, expected: str) -> None:
    assert next(iter(read_traces(path))).id == expected


def test_an_object_with_messages_is_not_read_as_native() -> None:
    # Before priorities the native reader took every JSON object and failed on 'id'.
    trace = read_trace(READERS / "openai-chat" / "valid.json")
    assert trace.model == "gpt-4o-mini"


def test_format_name_overrides_detection() -> None:
    path = READERS / "tau-bench" / "valid.json"
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(path, format_name="tau2"))
    assert "tau-bench" in str(caught.value)  # the message points to the right reader
    with pytest.raises(TraceFormatError, match="is missing"):
        read_trace(READERS / "openai-chat" / "valid.json", format_name="native")


def test_unknown_format_name_lists_every_reader() -> None:
    with pytest.raises(TraceFormatError) as caught:
        read_trace(READERS / "tau2" / "valid.json", format_name="langsmith")
    message = str(caught.value)
    for name in ("native", "openai-chat", "tau-bench", "tau2"):
        assert name in message


def test_unrecognised_file_names_the_known_formats(tmp_path: Path) -> None:
    # (A LangChain messages_to_dict dump used to be the example; the langchain reader reads it.)
    path = tmp_path / "notes.json"
    path.write_text('"just a string"', encoding="utf-8")
    with pytest.raises(TraceFormatError) as caught:
        read_trace(path)
    message = str(caught.value)
    assert str(path) in message
    assert "no trace reader recognises" in message
    assert "`tracegrade formats` lists the formats read" in message  # short: not all of them
    assert "--from" in message


def _fake(label: str) -> Callable[[bytes, str], Iterator[Trace]]:
    def read(data: bytes, name: str) -> Iterator[Trace]:
        raise TraceFormatError(label, path=name)

    return read


@pytest.mark.usefixtures("restore_readers")
def test_higher_priority_first_and_ties_in_registration_order() -> None:
    def always(name: str, head: bytes) -> bool:
        return name.endswith(".fake")

    reader("fake-first", description="first of two ties", can_read=always, priority=50)(
        _fake("fake-first")
    )
    reader("fake-second", description="second of two ties", can_read=always, priority=50)(
        _fake("fake-second")
    )
    reader("fake-low", description="low", can_read=always, priority=-500)(_fake("fake-low"))
    names = [r.name for r in trace_readers()]
    assert names[:2] == ["fake-first", "fake-second"]
    assert names[-1] == "fake-low"
    with pytest.raises(TraceFormatError, match="fake-first"):
        read_trace(b"x", format_name="fake-first")
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(Path("run.fake")))  # unreadable path: fails before any reader
    assert "cannot read" in str(caught.value)


@pytest.mark.usefixtures("restore_readers")
def test_detection_follows_priority(tmp_path: Path) -> None:
    path = tmp_path / "run.fake"
    path.write_bytes(b"anything")

    def always(name: str, head: bytes) -> bool:
        return name.endswith(".fake")

    reader("fake-low", description="low", can_read=always, priority=-1)(_fake("fake-low"))
    reader("fake-high", description="high", can_read=always, priority=1)(_fake("fake-high"))
    with pytest.raises(TraceFormatError, match="fake-high"):
        read_trace(path)


@pytest.mark.usefixtures("restore_readers")
def test_the_order_asked_follows_every_change_of_the_table() -> None:
    # The order is kept between files; a change made to the table directly must show.
    def always(name: str, head: bytes) -> bool:
        return name.endswith(".fake")

    first = trace_readers()
    assert trace_readers() is first  # kept while nothing changes
    reader("fake-top", description="top", can_read=always, priority=900)(_fake("fake-top"))
    assert trace_readers()[0].name == "fake-top"
    top = registry._READERS["fake-top"]
    registry._READERS["fake-top"] = dataclasses.replace(top, priority=-900)
    assert trace_readers()[-1].name == "fake-top"
    del registry._READERS["fake-top"]
    assert trace_readers() == first
    assert registry.detect_format("run.json", b'{"messages": [{"role": "user"}]}') != "fake-top"


@pytest.mark.usefixtures("restore_readers")
def test_a_reader_runs_with_the_collector_paused_and_the_caller_with_it_on() -> None:
    seen: list[bool] = []
    native = FIXTURES / "traces" / "valid.json"
    assert native.exists()

    def two_then_broken(data: bytes, name: str) -> Iterator[Trace]:
        for _ in range(2):
            seen.append(gc.isenabled())
            yield read_trace(native)
        seen.append(gc.isenabled())
        raise TraceFormatError("broken third run", path=name)

    reader("gc-probe", description="probe", can_read=lambda n, h: False)(two_then_broken)
    traces = read_traces(b"{}", format_name="gc-probe")
    caller = []
    for _ in range(2):
        next(traces)
        caller.append(gc.isenabled())
    with pytest.raises(TraceFormatError, match="broken third run"):
        next(traces)
    assert seen == [False, False, False]
    assert caller == [True, True]
    assert gc.isenabled()
