"""JSONL files are read a line at a time from disk, and give the same traces as from bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces, trace_readers

READERS = Path(__file__).resolve().parent.parent / "fixtures" / "readers"
STREAMED = {reader.name for reader in trace_readers() if reader.read_lines is not None}


def test_the_line_readers_are_the_jsonl_formats():
    expected = {"openai-chat", "anthropic", "openinference", "otel-genai"}
    expected |= {"claude-code", "codex", "openhands", "ai-sdk"}
    assert expected == STREAMED


@pytest.mark.parametrize(
    ("fixture", "reader"),
    [
        ("openai-chat/valid.jsonl", "openai-chat"),
        ("anthropic/valid.jsonl", "anthropic"),
        ("claude-code/valid.jsonl", "claude-code"),  # a session and its sub-agent
        ("openhands/output.jsonl", "openhands"),
    ],
)
def test_a_streamed_file_reads_like_its_bytes(fixture: str, reader: str):
    path = READERS / fixture
    from_disk = list(read_traces(path, format_name=reader))  # streamed: read_lines
    (registered,) = (r for r in trace_readers() if r.name == reader)
    whole = list(registered.read(path.read_bytes(), str(path)))  # the whole file at once
    assert len(from_disk) >= 2
    assert from_disk == [trace.model_copy(update={"source_format": reader}) for trace in whole]


def test_a_span_export_jsonl_groups_spans_across_lines(tmp_path: Path):
    def span(
        span_id: str, parent: str | None, name: str, attributes: dict[str, str]
    ) -> dict[str, object]:
        values = [
            {"key": key, "value": {"stringValue": str(value)}} for key, value in attributes.items()
        ]
        body: dict[str, object] = {"traceId": "t1", "spanId": span_id, "name": name}
        body |= {"startTimeUnixNano": span_id, "endTimeUnixNano": span_id, "attributes": values}
        if parent:
            body["parentSpanId"] = parent
        return {"resourceSpans": [{"scopeSpans": [{"spans": [body]}]}]}

    agent = {"openinference.span.kind": "AGENT", "input.value": "Weather?", "output.value": "Rain"}
    tool = {"openinference.span.kind": "TOOL", "tool.name": "get_weather", "output.value": "rainy"}
    lines = [span("1", None, "agent", agent), span("2", "1", "get_weather", tool)]
    path = tmp_path / "export.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")

    (trace,) = read_traces(path, format_name="openinference")
    assert trace.tool_path == ("get_weather",)


def test_a_bad_line_names_its_number(tmp_path: Path):
    path = tmp_path / "runs.jsonl"
    good = json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}])
    path.write_text(f"{good}\n{{not json\n", encoding="utf-8")
    with pytest.raises(TraceFormatError, match="line 2"):
        list(read_traces(path, format_name="openai-chat"))
