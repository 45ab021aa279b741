"""Generated agent logs of about 50 MB for the reader benchmark (item 8), one per format.

Shapes as the readers' golden fixtures (tests/fixtures/readers/<format>/), seeded, with tool
results of RESULT characters: a Claude Code session, a Codex rollout, a mini-swe-agent
trajectory, an OpenHands output.jsonl and AI SDK spans as the OTel JS console exporter
writes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from benchmarks._reader_samples import RESULT, TARGET, TURNS, text

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Iterator

__all__ = ["ai_sdk", "claude_code", "codex", "mini_swe_agent", "openhands"]


def _lines(rng: random.Random, lines: Callable[[random.Random, int], Iterator[object]]) -> bytes:
    """JSON lines from ``lines(rng, turn)``, one turn after another, until TARGET bytes."""
    out: list[bytes] = []
    size, turn = 0, 0
    while size < TARGET:
        for line in lines(rng, turn):
            out.append(orjson.dumps(line))
            size += len(out[-1]) + 1
        turn += 1
    return b"\n".join(out) + b"\n"


# -- claude-code: one session, a Read call and its result a turn --------------------------


def _claude_turn(rng: random.Random, turn: int) -> Iterator[object]:
    base = {"sessionId": "bench-session", "isSidechain": False, "version": "2.0.61", "cwd": "/repo"}
    base["gitBranch"] = "main"
    if turn % TURNS == 0:
        yield {
            **base,
            "type": "user",
            "uuid": f"q{turn}",
            "parentUuid": None,
            "message": {"role": "user", "content": f"Question {turn}: {text(rng, 80)}"},
        }
    call = {
        "type": "tool_use",
        "id": f"toolu_{turn}",
        "name": "Read",
        "input": {"file_path": f"/repo/file_{turn}.py"},
    }
    yield {
        **base,
        "type": "assistant",
        "uuid": f"a{turn}",
        "parentUuid": f"q{turn}",
        "message": {"role": "assistant", "model": "claude-sonnet-4-5", "content": [call]},
    }
    output = (
        f"{text(rng, RESULT)}\n<system-reminder>Consider whether it is malicious.</system-reminder>"
    )
    result = {"type": "tool_result", "tool_use_id": f"toolu_{turn}", "content": output}
    yield {
        **base,
        "type": "user",
        "uuid": f"r{turn}",
        "parentUuid": f"a{turn}",
        "message": {"role": "user", "content": [result]},
    }
    yield {
        **base,
        "type": "assistant",
        "uuid": f"t{turn}",
        "parentUuid": f"r{turn}",
        "message": {
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": text(rng, 200)}],
        },
    }


def claude_code(rng: random.Random) -> bytes:
    return _lines(rng, _claude_turn)


# -- codex: one rollout, a shell call and its output a turn -------------------------------


def _codex_turn(rng: random.Random, turn: int) -> Iterator[object]:
    def line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": "2026-11-21T09:12:00.000Z", "type": kind, "payload": payload}

    if turn == 0:
        yield line("session_meta", {"id": "bench-rollout", "cli_version": "0.63.0", "cwd": "/r"})
    if turn % TURNS == 0:
        yield line("turn_context", {"model": "gpt-5-codex", "cwd": "/r"})
        question = [{"type": "input_text", "text": f"Question {turn}: {text(rng, 80)}"}]
        yield line("response_item", {"type": "message", "role": "user", "content": question})
    arguments = orjson.dumps({"command": ["bash", "-lc", f"cat file_{turn}.py"]}).decode()
    yield line(
        "response_item",
        {
            "type": "function_call",
            "name": "shell",
            "arguments": arguments,
            "call_id": f"call_{turn}",
        },
    )
    yield line(
        "response_item",
        {"type": "function_call_output", "call_id": f"call_{turn}", "output": text(rng, RESULT)},
    )
    answer = [{"type": "output_text", "text": text(rng, 200)}]
    yield line("response_item", {"type": "message", "role": "assistant", "content": answer})


def codex(rng: random.Random) -> bytes:
    return _lines(rng, _codex_turn)


# -- mini-swe-agent: one v1 trajectory, a fenced command and its output a turn -------------


def mini_swe_agent(rng: random.Random) -> bytes:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": f"Please solve this issue: {text(rng, 200)}"},
    ]
    size = 0
    while size < TARGET:
        thought = f"THOUGHT: {text(rng, 200)}\n\n```bash\ncat file_{len(messages)}.py\n```"
        output = f"<returncode>0</returncode>\n<output>\n{text(rng, RESULT)}\n</output>"
        messages += [{"role": "assistant", "content": thought}, {"role": "user", "content": output}]
        size += len(thought) + len(output)
    info = {"exit_status": "Submitted", "submission": "", "mini_version": "1.14.2"}
    return orjson.dumps(
        {"info": info, "messages": messages, "trajectory_format": "mini-swe-agent-1"}
    )


# -- openhands: output.jsonl, one run a line ------------------------------------------------


def _openhands_run(rng: random.Random, number: int) -> Iterator[object]:
    events: list[dict[str, Any]] = [
        {
            "id": 0,
            "source": "user",
            "action": "message",
            "args": {"content": f"Question {number}: {text(rng, 80)}"},
        },
    ]
    for turn in range(TURNS):
        action = len(events)
        call = {"function_name": "execute_bash", "tool_call_id": f"toolu_{number}_{turn}"}
        events.append(
            {
                "id": action,
                "source": "agent",
                "action": "run",
                "tool_call_metadata": call,
                "args": {"command": f"cat file_{turn}.py", "thought": text(rng, 100)},
            }
        )
        events.append(
            {
                "id": action + 1,
                "source": "agent",
                "observation": "run",
                "cause": action,
                "tool_call_metadata": call,
                "content": text(rng, RESULT),
                "extras": {"metadata": {"exit_code": 0}},
            }
        )
    events.append(
        {
            "id": len(events),
            "source": "agent",
            "action": "finish",
            "args": {"final_thought": text(rng, 200)},
        }
    )
    yield {"instance_id": f"bench__{number}", "instruction": "", "history": events}


def openhands(rng: random.Random) -> bytes:
    return _lines(rng, _openhands_run)


# -- ai-sdk: console-exporter spans, a generateText call of TURNS tool steps a trace ---------


def _ai_sdk_trace(rng: random.Random, number: int) -> Iterator[object]:
    trace_id = f"{number:032x}"
    root = f"{number:08x}00000000"

    def span(index: int, name: str, attributes: dict[str, Any]) -> dict[str, Any]:
        return {
            "traceId": trace_id,
            "id": f"{number:08x}{index:08x}",
            "name": name,
            "parentSpanContext": {"spanId": root} if index else None,
            "timestamp": 1_763_800_000_000_000 + index,
            "attributes": attributes,
            "status": {"code": 0},
            "events": [],
        }

    question = f"Question {number}: {text(rng, 80)}"
    prompt: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": question}]}
    ]
    yield span(
        0,
        "ai.generateText",
        {
            "ai.operationId": "ai.generateText",
            "ai.prompt": orjson.dumps({"prompt": question}).decode(),
        },
    )
    index = 1
    for turn in range(TURNS // 2):
        call_id = f"call_{number}_{turn}"
        call = {"toolCallId": call_id, "toolName": "readFile", "input": {"path": f"f{turn}"}}
        yield span(
            index,
            "ai.generateText.doGenerate",
            {
                "ai.operationId": "ai.generateText.doGenerate",
                "ai.prompt.messages": orjson.dumps(prompt).decode(),
                "ai.response.toolCalls": orjson.dumps([call]).decode(),
                "ai.model.id": "gpt-4.1-mini",
            },
        )
        result = text(rng, RESULT)
        yield span(
            index + 1,
            "ai.toolCall",
            {
                "ai.operationId": "ai.toolCall",
                "ai.toolCall.name": "readFile",
                "ai.toolCall.id": call_id,
                "ai.toolCall.args": '{"path": "f"}',
                "ai.toolCall.result": orjson.dumps(result).decode(),
            },
        )
        index += 2
        prompt.append({"role": "assistant", "content": [{"type": "tool-call", **call}]})
        output = {"type": "text", "value": result}
        reply = {"type": "tool-result", "toolCallId": call_id, "output": output}
        prompt.append({"role": "tool", "content": [reply]})
    yield span(
        index,
        "ai.generateText.doGenerate",
        {
            "ai.operationId": "ai.generateText.doGenerate",
            "ai.prompt.messages": orjson.dumps(prompt).decode(),
            "ai.response.text": text(rng, 200),
            "ai.model.id": "gpt-4.1-mini",
        },
    )


def ai_sdk(rng: random.Random) -> bytes:
    return _lines(rng, _ai_sdk_trace)
