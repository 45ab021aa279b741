"""The langchain reader: serialised messages, LangGraph state and stream dumps.

The fixtures under tests/fixtures/readers/langchain/ are LangChain's and LangGraph's own
output (generate.py runs a real agent with a scripted model); the conformance tests read
the LangGraph JS stream recordings of the real corpus in place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.readers import format_error, real_corpus_file
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    Trace,
    UserFrame,
    read_trace,
    read_traces,
    trace_readers,
)

READERS = Path(__file__).resolve().parent.parent / "fixtures" / "readers"
FIXTURES = READERS / "langchain"
ANSWER = "A-7 costs 42 EUR; stock is unknown (warehouse offline)."
RUN = ["user", "tool_call", "tool_result", "tool_call", "tool_result", "assistant"]


def fails(name: str, **options: str) -> str:
    """The message of the TraceFormatError raised for a fixture; it must name the file."""
    return format_error(FIXTURES / name, **options)


def detected(path: Path) -> str:
    head = path.read_bytes()[:4096]
    return next(r.name for r in trace_readers() if r.can_read(str(path), head))


def check_agent_run(trace: Trace) -> None:
    """The scripted agent run: a price lookup with an artifact, a failing tool, an answer."""
    frames = [f for f in trace.frames if not isinstance(f, SystemFrame)]
    assert [f.type for f in frames] == RUN
    user, price, price_out, stock, stock_out, answer = frames
    assert isinstance(user, UserFrame)
    assert trace.task == "What does A-7 cost, and is it in stock?"
    assert isinstance(price, ToolCallFrame)
    assert (price.id, price.name, price.args) == ("call_price", "lookup_price", {"sku": "A-7"})
    assert isinstance(price_out, ToolResultFrame)
    assert (price_out.id, price_out.ok, price_out.result) == ("call_price", True, "A-7: 42 EUR")
    # ToolMessage.artifact is kept, apart from what the model saw.
    assert price_out.artifact == {
        "rows": [{"sku": "A-7", "price_eur": 42}],
        "source": "prices.csv",
    }
    assert isinstance(stock, ToolCallFrame)
    assert stock.id == "call_stock"
    # status "error" -> ok false.
    assert isinstance(stock_out, ToolResultFrame)
    assert (stock_out.id, stock_out.ok, stock_out.artifact) == ("call_stock", False, None)
    assert stock_out.result == "warehouse offline while reading A-7"
    assert isinstance(answer, AssistantFrame)
    assert trace.final_answer == ANSWER
    assert trace.model == "scripted-1"


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("valid_constructor.json", "messages"),
        ("valid_messages_to_dict.json", "messages"),
        ("valid_state.json", "state"),
        ("valid_stream.json", "stream"),
        ("valid_stream.jsonl", "stream"),
    ],
)
def test_every_shape_reads_the_same_run(name: str, source: str) -> None:
    trace = read_trace(FIXTURES / name)
    check_agent_run(trace)
    assert trace.id == Path(name).stem
    assert trace.metadata["source"] == source


def test_constructor_form_keeps_system_and_origins() -> None:
    trace = read_trace(FIXTURES / "valid_constructor.json")
    assert trace.frames[0] == SystemFrame(
        content="You answer from tool results only.", origin="message 0"
    )
    assert [f.origin for f in trace.frames[1:4]] == [
        "message 1",
        "message 2, tool call 0",
        "message 3",
    ]


def test_stream_dedupes_values_and_updates_by_id() -> None:
    # 16 events re-send the state; each message is read once, from the last state.
    trace = read_trace(FIXTURES / "valid_stream.json")
    assert len(trace.frames) == 6
    assert {f.origin.split(",")[0] for f in trace.frames if f.origin} == {"event 15"}
    assert "interrupts" not in trace.metadata


def test_jsonl_one_run_per_line() -> None:
    first, second = read_traces(FIXTURES / "valid.jsonl")
    assert (first.id, second.id) == ("valid-line-1", "valid-line-3")
    check_agent_run(first)
    check_agent_run(second)
    assert first.frames[0].origin == "line 1, message 0"


def test_chunks_are_rebuilt_into_text_and_tool_calls() -> None:
    trace = read_trace(FIXTURES / "valid_chunks.json")
    assert [f.type for f in trace.frames] == ["assistant", "tool_call", "assistant"]
    text, call, answer = trace.frames
    assert isinstance(text, AssistantFrame)
    assert text.content == "Checking the price."
    assert text.origin == "events 0-6"
    # tool_call_chunks: args were partial JSON strings ('{"sk' + 'u": "A-7"}').
    assert isinstance(call, ToolCallFrame)
    assert (call.id, call.name, call.args) == ("call_9", "lookup_price", {"sku": "A-7"})
    assert isinstance(answer, AssistantFrame)
    assert answer.content == "It costs 42 EUR."  # list-of-parts chunks, same index
    assert trace.model == "gpt-4o-mini"
    assert trace.metadata["rebuilt_from_chunks"] == ["run-7", "run-8"]


def test_python_interrupt_is_an_approval_less_stop() -> None:
    trace = read_trace(FIXTURES / "valid_interrupt.json")
    assert [f.type for f in trace.frames] == ["user", "tool_call"]
    assert not any(f.type == "approval" for f in trace.frames)
    assert trace.metadata["interrupted"] is True
    # Sent in both the updates and the values event: kept once.
    (interrupt,) = trace.metadata["interrupts"]
    assert interrupt["event"] == 3
    assert "lookup_price" in interrupt["interrupt"]["repr"]


def test_state_shapes_and_flat_dicts() -> None:
    state = {
        "values": {
            "messages": [
                {"type": "human", "content": "Port?", "id": "h1"},
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "Reading."}],
                    "tool_calls": [{"id": "c1", "function": {"name": "cat", "arguments": "{}"}}],
                },
                {"type": "tool", "content": "4321", "tool_call_id": "c1", "status": "success"},
                {
                    "type": "ai",
                    "content": "",
                    "additional_kwargs": {
                        "tool_calls": [
                            {"id": "c2", "function": {"name": "cat", "arguments": '{"f": 1}'}}
                        ]
                    },
                },
                {"type": "tool", "content": [{"type": "text", "text": "ok"}], "tool_call_id": "c2"},
                {"type": "ai", "content": "4321"},
            ]
        },
        "next": ["tools"],
        "tasks": [{"id": "t", "interrupts": [{"value": "approve?", "id": "i1"}]}],
    }
    trace = read_trace(json.dumps(state).encode())
    assert [f.type for f in trace.frames] == [
        "user",
        "assistant",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    fallback = trace.frames[4]
    assert isinstance(fallback, ToolCallFrame)
    assert (fallback.id, fallback.args) == ("c2", {"f": 1})  # additional_kwargs fallback
    assert trace.metadata == {
        "source": "state",
        "interrupts": [{"value": "approve?", "id": "i1"}],
        "next": ["tools"],
    }


def test_invalid_status_names_the_message() -> None:
    message = fails("invalid.json")
    assert "message 5: unknown tool message status 'failed'" in message


def test_invalid_event_names_the_event() -> None:
    message = fails("invalid_event.json")
    assert "event 4: an event must be [mode, payload]" in message


def test_truncated_names_the_file() -> None:
    assert "not valid JSON" in fails("truncated.json")


def test_other_serialisation_version() -> None:
    message = fails("other_version.json")
    assert "message 0: unsupported LangChain serialisation version lc=2" in message


@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in FIXTURES.iterdir() if p.suffix in (".json", ".jsonl")),
)
def test_each_fixture_is_detected_as_langchain(name: str) -> None:
    # The broken ones too, so their error comes from this reader.
    assert detected(FIXTURES / name) == "langchain"


@pytest.mark.parametrize(
    "path",
    [p for p in sorted((READERS / "openai-chat").iterdir()) if "langchain" not in p.name],
    ids=lambda p: p.name,
)
def test_openai_chat_fixtures_stay_openai_chat(path: Path) -> None:
    assert detected(path) == "openai-chat"


def test_a_messages_to_dict_dump_is_now_read() -> None:
    # Once unrecognised (openai-chat fails on it with "unknown item type 'human'").
    trace = read_trace(READERS / "openai-chat" / "other_shape_langchain.json")
    assert [f.type for f in trace.frames] == ["user", "assistant"]
    assert trace.final_answer == "4321"


# --- the real LangGraph JS recordings (vercel/ai fixtures), read in place -------------------


def corpus_stream(name: str) -> Path:
    return real_corpus_file("trace_fixtures", "langgraph_stream", name)


def raw_counts(events: list[Any]) -> dict[str, Any]:
    """Counts from the raw JSON, without the reader: the last values state and the chunks."""
    state = next(
        e[1]["messages"] for e in reversed(events) if e[0] == "values" and "messages" in e[1]
    )
    classes = [m["id"][-1] for m in state]
    texts: dict[str, str] = {}
    for mode, payload in events:
        if mode == "messages":
            kwargs = payload[0]["kwargs"]
            content = kwargs["content"]
            pieces = [content] if isinstance(content, str) else [p["text"] for p in content]
            texts[kwargs["id"]] = texts.get(kwargs["id"], "") + "".join(pieces)
    return {
        "users": classes.count("HumanMessage"),
        "calls": sum(len(m["kwargs"].get("tool_calls", [])) for m in state),
        "results": classes.count("ToolMessage"),
        "answer": next((t for t in reversed(texts.values()) if t), ""),
        "interrupts": sum(1 for e in events if "__interrupt__" in e[1]),
    }


def only_chunks(path: Path) -> bytes:
    """The stream without its values events: every AI message must come from chunks."""
    events = json.loads(path.read_bytes())
    return json.dumps([e for e in events if e[0] == "messages"]).encode()


@pytest.mark.corpus
def test_langgraph_response_1_ends_in_an_interrupt() -> None:
    path = corpus_stream("LANGGRAPH_RESPONSE_1.json")
    assert detected(path) == "langchain"
    trace = read_trace(path)
    users = [f for f in trace.frames if isinstance(f, UserFrame)]
    calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
    results = [f for f in trace.frames if isinstance(f, ToolResultFrame)]
    # Counted by reading the file: 100 events, 97 of them chunks of one AI message.
    assert (len(users), len(calls), len(results)) == (1, 1, 0)
    assert trace.task == "Delete the file report.pdf"
    assert (calls[0].id, calls[0].name, calls[0].args) == (
        "call_LOd3dMxgYxmNLWZVWXra9xWQ",
        "delete_file",
        {"filename": "report.pdf"},
    )
    assert trace.final_answer == ""  # the model only called the tool, then the graph stopped
    assert trace.model == "gpt-5-2025-08-07"
    assert trace.metadata["interrupted"] is True
    (interrupt,) = trace.metadata["interrupts"]
    assert interrupt["event"] == 99
    assert interrupt["interrupt"]["value"]["actionRequests"][0]["name"] == "delete_file"
    assert trace.metadata["thread_id"] == "thread-1765862425919-eh0maed"
    raw = raw_counts(json.loads(path.read_bytes()))
    assert (raw["users"], raw["calls"], raw["results"]) == (len(users), len(calls), len(results))
    assert raw["answer"] == trace.final_answer
    assert raw["interrupts"] == 1
    # From the chunks alone: the same call, its arguments rebuilt from partial JSON.
    rebuilt = read_trace(only_chunks(path))
    (call,) = rebuilt.frames
    assert isinstance(call, ToolCallFrame)
    assert (call.id, call.name, call.args) == (calls[0].id, "delete_file", calls[0].args)
    assert call.origin == "events 0-96, tool call 0"  # events 1-97 of the file


@pytest.mark.corpus
def test_langgraph_response_2_is_the_resumed_run() -> None:
    path = corpus_stream("LANGGRAPH_RESPONSE_2.json")
    assert detected(path) == "langchain"
    trace = read_trace(path)
    users = [f for f in trace.frames if isinstance(f, UserFrame)]
    calls = [f for f in trace.frames if isinstance(f, ToolCallFrame)]
    results = [f for f in trace.frames if isinstance(f, ToolResultFrame)]
    assert (len(users), len(calls), len(results)) == (1, 1, 1)
    assert [f.type for f in trace.frames] == ["user", "tool_call", "tool_result", "assistant"]
    assert (results[0].id, results[0].ok, results[0].result) == (
        "call_LOd3dMxgYxmNLWZVWXra9xWQ",
        True,
        'File "report.pdf" has been deleted successfully',
    )
    final = (
        'The file "report.pdf" has been queued for deletion.'
        " You\u2019ll receive a confirmation once the action is approved and completed."
    )
    assert trace.final_answer == final
    assert "interrupts" not in trace.metadata
    raw = raw_counts(json.loads(path.read_bytes()))
    assert (raw["users"], raw["calls"], raw["results"]) == (1, 1, 1)
    assert raw["answer"] == final
    assert raw["interrupts"] == 0
    # Without the values events the answer is rebuilt from its 28 chunks.
    rebuilt = read_trace(only_chunks(path))
    assert [f.type for f in rebuilt.frames] == ["tool_result", "assistant"]
    assert rebuilt.final_answer == final
    assert rebuilt.frames[-1].origin == "events 1-28"  # events 4-31 of the file
