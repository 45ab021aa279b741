"""The limits every reader enforces (traces/_limits.py): each input here once crashed or hung."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import orjson
import pytest

from tests.helpers.engines import ENGINES, Engine, engine
from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces
from tracegrade.traces._limits import MAX_DEPTH, MAX_INT_DIGITS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers"


def _otel(tmp_path: Path, change: object) -> Path:
    document = orjson.loads((FIXTURES / "otel-genai" / "valid.json").read_bytes())
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    change(spans)  # type: ignore[operator]
    path = tmp_path / "spans.json"
    path.write_bytes(orjson.dumps(document))
    return path


def _read_within(path: Path, seconds: float = 10) -> BaseException | None:
    """Read in a thread; a reader still running after ``seconds`` fails the test (a hang)."""
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            list(read_traces(path))
            outcome.append(None)
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            outcome.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"reading {path} did not end within {seconds} s"
    return outcome[0]


def test_a_span_whose_id_repeats_an_ancestors_is_a_cycle_not_a_hang(tmp_path: Path) -> None:
    def loop(spans: list[dict[str, object]]) -> None:
        # A grandchild of the root under a tool span, carrying the root's own id.
        spans.append({**spans[1], "spanId": spans[0]["spanId"], "parentSpanId": spans[2]["spanId"]})

    error = _read_within(_otel(tmp_path, loop))
    assert isinstance(error, TraceFormatError)
    assert "parent links loop" in str(error)
    assert "spans.json" in str(error)


def test_span_trees_deeper_than_the_limit_are_refused(tmp_path: Path) -> None:
    def chain(spans: list[dict[str, object]]) -> None:
        parent = spans[0]["spanId"]
        for number in range(MAX_DEPTH + 5):
            span_id = f"{number:016x}"
            spans.append({**spans[0], "spanId": span_id, "parentSpanId": parent})
            parent = span_id

    error = _read_within(_otel(tmp_path, chain))
    assert isinstance(error, TraceFormatError)
    assert f"more than {MAX_DEPTH} levels" in str(error)


def test_events_that_are_not_a_list_are_refused(tmp_path: Path) -> None:
    def events(spans: list[dict[str, object]]) -> None:
        spans[1]["events"] = {"name": "x"}

    error = _read_within(_otel(tmp_path, events))
    assert isinstance(error, TraceFormatError)
    assert "'events' must be an array, got object" in str(error)


def test_an_operation_name_that_is_not_a_string_is_refused(tmp_path: Path) -> None:
    def operation(spans: list[dict[str, object]]) -> None:
        attributes = spans[1]["attributes"]
        assert isinstance(attributes, list)
        for attribute in attributes:
            if attribute["key"] == "gen_ai.operation.name":
                attribute["value"] = {"arrayValue": {"values": []}}

    error = _read_within(_otel(tmp_path, operation))
    assert isinstance(error, TraceFormatError)
    assert "'gen_ai.operation.name' must be a string, got array" in str(error)


def test_an_int_value_of_too_many_digits_is_refused(tmp_path: Path) -> None:
    def digits(spans: list[dict[str, object]]) -> None:
        attributes = spans[1]["attributes"]
        assert isinstance(attributes, list)
        attributes.append({"key": "big", "value": {"intValue": "9" * 5000}})

    error = _read_within(_otel(tmp_path, digits))
    assert isinstance(error, TraceFormatError)
    assert f"an integer of 5000 digits (at most {MAX_INT_DIGITS} are read)" in str(error)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 300, 1000])
def test_json_nested_deeper_than_the_limit_is_refused(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    nested = "[" * depth + "1" + "]" * depth
    path.write_text(f'{{"messages": [{{"role": "user", "content": {nested}}}]}}')
    with pytest.raises(TraceFormatError, match=f"nest more than {MAX_DEPTH} levels deep"):
        list(read_traces(path))


def test_json_nested_to_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    nested = "[" * (MAX_DEPTH - 6) + "1" + "]" * (MAX_DEPTH - 6)
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "__NESTED__"},
        {"role": "assistant", "content": "done"},
    ]
    data = orjson.dumps({"messages": messages}).replace(b'"__NESTED__"', nested.encode())
    path.write_bytes(data)
    (trace,) = read_traces(path)
    assert trace.final_answer == "done"


@pytest.mark.parametrize("name", ENGINES)
def test_a_json_attribute_nested_deeper_than_the_limit_is_refused(
    tmp_path: Path, name: Engine
) -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)

    def nest(spans: list[dict[str, object]]) -> None:
        for attribute in spans[1]["attributes"]:  # type: ignore[attr-defined]
            if attribute["key"] == "gen_ai.input.messages":
                attribute["value"] = {"stringValue": deep}

    with engine(name):
        error = _read_within(_otel(tmp_path, nest))
    assert isinstance(error, TraceFormatError)
    assert "'gen_ai.input.messages' is not valid JSON" in str(error)
    assert f"nest more than {MAX_DEPTH} levels deep" in str(error)


def test_a_content_block_type_that_is_not_a_string_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "messages.json"
    path.write_bytes(orjson.dumps([{"role": "user", "content": [{"type": [], "text": "hi"}]}]))
    with pytest.raises(TraceFormatError, match="'type' must be a string, got array"):
        list(read_traces(path, format_name="anthropic"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "trace.json"
    os.mkfifo(fifo)
    error = _read_within(fifo, seconds=5)  # opening a FIFO with no writer blocks forever
    assert isinstance(error, TraceFormatError)
    assert "not a regular file" in str(error)


def test_the_cli_reports_an_unexpected_exception_as_an_internal_error(tmp_path: Path) -> None:
    # A plugin reader that raises a bare exception stands in for any bug.
    plugin = tmp_path / "boom_plugin.py"
    plugin.write_text(
        "from tracegrade.traces import reader\n"
        "@reader('boom', description='raises', can_read=lambda name, head: False)\n"
        "def read(data, name):\n"
        "    raise KeyError('bug')\n"
        "    yield\n"
    )
    trace = tmp_path / "t.json"
    trace.write_text("{}")
    code = (
        "import boom_plugin, sys; from tracegrade.cli import main;"
        f" main(['show', {str(trace)!r}, '--from', 'boom'])"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 3
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tracegrade: internal error, please report: KeyError")
    assert "Traceback" not in done.stderr
