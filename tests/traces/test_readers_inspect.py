"""The Inspect AI reader: golden fixtures (.json and .eval), and the real logs read in place."""

from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import corpus_root
from tests.helpers.readers import format_error
from tracegrade.errors import InputError, TraceFormatError
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    _inspect,
    read_traces,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "readers" / "inspect"
BROWSER = "2025-05-12T20-27-36-04-00_browser.json"
SECURITY = "2025-05-12T20-28-26-04-00_security-guide.json"


@pytest.fixture
def without_inspect_ai(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read with the standard-library path even where inspect_ai is installed."""
    monkeypatch.setattr(_inspect, "inspect_log_module", lambda: None)


def fails(name: str, **options: str) -> str:
    return format_error(FIXTURES / name, **options)


def test_valid_json_log() -> None:
    first, second = read_traces(FIXTURES / "valid.json")
    assert (first.id, first.model, first.commit) == (
        "weather-1-epoch-1",
        "openai/gpt-4.1-mini",
        "abc1234",
    )
    assert first.outcome == "failure"  # includes: "I"
    assert first.metadata["scores"] == {"includes": "I"}
    assert first.metadata["renamed_call_ids"] == {"call_w#2": "call_w"}
    assert first.task == "Weather in Paris and Rome?"
    assert [f.type for f in first.frames] == [
        "system",
        "user",
        "assistant",
        "tool_call",
        "tool_call",
        "tool_result",
        "tool_result",
        "assistant",
    ]
    assert first.frames[0] == SystemFrame(
        content="You are a weather agent.", origin="sample 0, message 0"
    )
    # The reasoning part is not answer text.
    assert first.frames[2] == AssistantFrame(content="Checking both.", origin="sample 0, message 2")
    paris, rome, paris_out, rome_out = first.frames[3:7]
    assert isinstance(paris, ToolCallFrame)
    assert (paris.id, paris.name, paris.args) == ("call_w", "get_weather", {"city": "Paris"})
    assert isinstance(rome, ToolCallFrame)
    assert (rome.id, rome.args) == ("call_w#2", {"city": "Rome"})
    # The attachment reference is resolved to the text the model saw.
    assert paris_out == ToolResultFrame(
        id="call_w", ok=True, result="rainy, 57°F", origin="sample 0, message 3"
    )
    # A failed call with empty content: the error message, ok false.
    assert rome_out == ToolResultFrame(
        id="call_w#2",
        ok=False,
        result="Command timed out before completing.",
        origin="sample 0, message 4",
    )
    assert first.final_answer == "Paris is rainy, 57°F; Rome did not answer."
    # A numeric score says nothing about success: no outcome, the raw score kept.
    assert (second.id, second.outcome, second.metadata["scores"]) == (
        "weather-2-epoch-1",
        None,
        {"accuracy": 0.5},
    )
    assert second.frames[0] == UserFrame(content="Weather in Oslo?", origin="sample 1, message 0")


@pytest.mark.usefixtures("without_inspect_ai")
def test_valid_eval_zip_without_inspect_ai() -> None:
    _check_eval(list(read_traces(FIXTURES / "valid.eval")))


def test_valid_eval_zip_through_inspect_ai_when_installed() -> None:
    if importlib.util.find_spec("inspect_ai") is None:
        pytest.skip("inspect-ai is not installed (pip install 'tracegrade[inspect]')")
    data = (FIXTURES / "valid.eval").read_bytes()
    assert _inspect._load_with_inspect(data, "valid.eval", is_zip=True) is not None
    _check_eval(list(read_traces(FIXTURES / "valid.eval")))
    for name in ("valid.json", "valid.eval"):
        with_inspect = list(read_traces(FIXTURES / name))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_inspect, "inspect_log_module", lambda: None)
            assert list(read_traces(FIXTURES / name)) == with_inspect


def _check_eval(traces: list[Any]) -> None:
    # Members are written b then a; Inspect orders samples by epoch, then id.
    hello, files = traces
    assert (hello.id, hello.outcome, hello.final_answer) == ("files-a-epoch-1", "success", "hi")
    assert (files.id, files.outcome) == ("files-b-epoch-1", "success")
    assert [f.type for f in files.frames] == [
        "user",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    # The first result names no call: it goes to the call waiting for it.
    assert files.frames[2] == ToolResultFrame(
        id="c1", ok=True, result="a.txt\nb.txt", origin="samples/b_epoch_1.json, message 2"
    )
    # A result with no content is kept, empty.
    assert files.frames[4] == ToolResultFrame(
        id="c2", ok=True, result="", origin="samples/b_epoch_1.json, message 4"
    )


def test_invalid_json_names_sample_and_message() -> None:
    message = fails("invalid.json")
    assert "sample 1, message 3: 'tool_call_id' must be a string, got number" in message


def test_invalid_eval_names_member_message_and_call() -> None:
    message = fails("invalid.eval")
    assert (
        "samples/b_epoch_1.json, message 3, tool call 0: the tool call has no 'function'" in message
    )


def test_truncated_json() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_truncated_eval() -> None:
    assert "not a readable .eval zip" in fails("truncated.eval")


@pytest.mark.usefixtures("without_inspect_ai")
def test_an_encrypted_member_is_refused_by_name(tmp_path: Path) -> None:
    # Found by fuzzing: zipfile asks for a password (a RuntimeError) instead of reading it.
    data = bytearray((FIXTURES / "valid.eval").read_bytes())
    with zipfile.ZipFile(FIXTURES / "valid.eval") as archive:
        names = [info.filename for info in archive.infolist()]
    # zipfile cannot write an encrypted member: set bit 0 of its central directory flags.
    entry = data.index(b"PK\x01\x02")
    for member in names:
        size = int.from_bytes(data[entry + 28 : entry + 30], "little")
        extra = int.from_bytes(data[entry + 30 : entry + 32], "little")
        comment = int.from_bytes(data[entry + 32 : entry + 34], "little")
        if member == "samples/a_epoch_1.json":
            data[entry + 8] |= 0x1
        entry += 46 + size + extra + comment
    locked = tmp_path / "locked.eval"
    locked.write_bytes(bytes(data))
    message = format_error(locked)
    assert "samples/a_epoch_1.json: the member is encrypted" in message


@pytest.mark.usefixtures("without_inspect_ai")
def test_other_version_points_to_the_inspect_extra() -> None:
    message = fails("other_version.json")
    assert "log version 9 is not one this reader knows (1, 2, 3)" in message
    assert "tracegrade[inspect]" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"eval": {"run_id": "r"}, "samples": [3]}', "sample 0 must be a JSON object"),
        (
            b'{"eval": {"run_id": "r"}, "samples": [{"messages": []}]}',
            "sample 0: 'messages' must be a non-empty list, got array",
        ),
        (
            b'{"eval": {"run_id": "r"}, "samples": [{"messages": [{"role": "robot"}]}]}',
            "sample 0, message 0: unknown role 'robot'",
        ),
        (
            b'{"eval": {"run_id": "r"}, "samples": [{"messages": [{"role": "tool"}]}]}',
            "sample 0, message 0: a tool message with no tool_call_id and no call waiting",
        ),
        (b'{"eval": {"run_id": "r"}, "status": "started"}', "the log holds no samples"),
    ],
)
@pytest.mark.usefixtures("without_inspect_ai")
def test_malformed_logs(data: bytes, expected: str) -> None:
    with pytest.raises(TraceFormatError) as caught:
        list(read_traces(data, format_name="inspect"))
    assert expected in str(caught.value)


def test_detection_by_name_and_bytes() -> None:
    first = next(iter(read_traces((FIXTURES / "valid.eval").read_bytes())))
    assert first.id == "files-a-epoch-1"
    assert len(list(read_traces((FIXTURES / "valid.json").read_bytes()))) == 2


# --- the real logs, read in place ----------------------------------------------------


@pytest.fixture(scope="module")
def real_folder() -> Path:
    folder = corpus_root() / "trace_fixtures" / "inspect_ai_logs"
    if not (folder / BROWSER).is_file():
        pytest.skip(
            f"real Inspect logs not found in {folder}: set TRACEGRADE_CORPUS to the folder that"
            " holds trace_fixtures/ to run this test"
        )
    return folder


def _raw_counts(path: Path) -> tuple[int, int, int, int]:
    samples = orjson.loads(path.read_bytes())["samples"]
    messages = [m for s in samples for m in s["messages"]]
    return (
        sum(m["role"] == "user" for m in messages),
        sum(len(m.get("tool_calls") or []) for m in messages),
        sum(m["role"] == "tool" for m in messages),
        sum(m["role"] == "tool" and m.get("error") is not None for m in messages),
    )


def _counts(traces: list[Any]) -> tuple[int, int, int, int]:
    frames = [f for t in traces for f in t.frames]
    return (
        sum(isinstance(f, UserFrame) for f in frames),
        sum(isinstance(f, ToolCallFrame) for f in frames),
        sum(isinstance(f, ToolResultFrame) for f in frames),
        sum(isinstance(f, ToolResultFrame) and not f.ok for f in frames),
    )


@pytest.mark.corpus
def test_real_browser_log(real_folder: Path) -> None:
    path = real_folder / BROWSER
    (trace,) = read_traces(path)
    assert _counts([trace]) == _raw_counts(path) == (1, 4, 4, 0)
    assert len(trace.frames) == 10
    assert trace.tool_path == (
        "web_browser_go",
        "web_browser_click",
        "web_browser_click",
        "web_browser_click",
    )
    assert (trace.model, trace.commit, trace.outcome) == (
        "openai/gpt-4o-mini",
        "e9a9d7161",
        "success",
    )
    assert trace.metadata["scores"] == {"includes": "C"}
    assert trace.final_answer.startswith(
        "The AI Security Institute (AISI) is the premier governmental organization"
    )
    assert "Established in November 2023" in trace.final_answer
    raw = orjson.loads(path.read_bytes())["samples"][0]["messages"]
    results = [f for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert [f.result for f in results] == [m["content"] for m in raw if m["role"] == "tool"]
    calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
    assert [f.id for f in calls] == [f.id for f in results]


@pytest.mark.corpus
def test_real_security_guide_log(real_folder: Path) -> None:
    path = real_folder / SECURITY
    traces = list(read_traces(path))
    assert len(traces) == 3
    assert _counts(traces) == _raw_counts(path) == (3, 0, 0, 0)
    assert [len(t.frames) for t in traces] == [3, 3, 3]
    assert [t.task for t in traces] == [
        "How do I prevent SQL Injection attacks?",
        "How do I prevent sqli?",
        "How do I prevent cross site scripting?",
    ]
    assert traces[1].final_answer == "Use prepared statements and parameterized queries."
    assert {t.outcome for t in traces} == {"success"}  # model_graded_fact: "C" each
    assert [t.frames[-1].origin for t in traces] == [
        "sample 0, message 2",
        "sample 1, message 2",
        "sample 2, message 2",
    ]


def test_attachments_are_resolved_in_every_field_frames_are_made_of() -> None:
    log = orjson.loads((FIXTURES / "valid.json").read_bytes())
    sample = log["samples"][0]
    sample["attachments"] = {"t": "Checking both cities.", "a": "Paris, FR", "r": "rainy"}
    call_message, result_message = sample["messages"][2], sample["messages"][3]
    call_message["content"][1]["text"] = "attachment://t"  # a text part
    call_message["tool_calls"][0]["arguments"] = {"where": {"city": "attachment://a"}}  # nested
    result_message["content"] = "attachment://r"
    call_message["tool_calls"][1]["arguments"] = {"city": "attachment://missing"}  # kept as is
    first = next(iter(read_traces(orjson.dumps(log), format_name="inspect")))
    texts = [f.content for f in first.frames if isinstance(f, AssistantFrame)]
    calls = [f.args for f in first.frames if isinstance(f, ToolCallFrame)]
    results = [f.result for f in first.frames if isinstance(f, ToolResultFrame)]
    assert texts[0] == "Checking both cities."
    assert calls == [{"where": {"city": "Paris, FR"}}, {"city": "attachment://missing"}]
    assert results[0] == "rainy"


def test_the_builtin_reader_can_be_chosen_where_inspect_ai_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed = importlib.util.find_spec("inspect_ai") is not None
    default = list(read_traces(FIXTURES / "valid.json"))
    assert (_inspect.inspect_log_module() is not None) == installed
    monkeypatch.setenv("TRACEGRADE_INSPECT_READER", "builtin")
    assert _inspect.inspect_log_module() is None
    assert list(read_traces(FIXTURES / "valid.json")) == default  # the two paths agree
    monkeypatch.setenv("TRACEGRADE_INSPECT_READER", "fastest")
    with pytest.raises(InputError, match="TRACEGRADE_INSPECT_READER='fastest'"):
        list(read_traces(FIXTURES / "valid.json"))
