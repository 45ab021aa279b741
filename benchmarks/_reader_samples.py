"""Generated ~50 MB inputs for the reader benchmark, one per trace format (seeded).

Each follows the shape of the format's valid fixture in ``tests/fixtures/readers/<format>/``,
scaled up with generated text: runs of eight tool turns (a user question, a call, a result
of a few KB, then an answer) repeated until the file reaches ``TARGET``. Span exports and
LangGraph ``values`` events re-send the history at each model call, as the real ones do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from benchmarks._common import MB

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

TARGET = 50 * MB
WORDS = ["refund", "window", "policy", "customer", "order", "billing", "config", "days"]
TURNS = 8
RESULT = 3000  # characters of a tool result


def text(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(WORDS) if rng.random() > 0.1 else f"${rng.randrange(10**6):,}"
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def _jsonl(rng: random.Random, line: Callable[[random.Random, int], object]) -> bytes:
    lines: list[bytes] = []
    size = 0
    while size < TARGET:
        lines.append(orjson.dumps(line(rng, len(lines))))
        size += len(lines[-1]) + 1
    return b"\n".join(lines) + b"\n"


def _until_full(rng: random.Random, item: Callable[[random.Random, int], Any]) -> list[Any]:
    items: list[Any] = []
    size = 0
    while size < TARGET:
        items.append(item(rng, len(items)))
        size += len(orjson.dumps(items[-1]))
    return items


# -- anthropic: a .jsonl of request objects, one run per line -----------------------------


def _anthropic_run(rng: random.Random, number: int) -> dict[str, Any]:
    tool = {"name": "search", "description": "Search the docs", "input_schema": {"type": "object"}}
    messages: list[dict[str, Any]] = [{"role": "user", "content": text(rng, 120)}]
    for turn in range(TURNS):
        call = f"toolu_{number}_{turn}"
        thinking = {"type": "thinking", "thinking": text(rng, 80), "signature": "EqQBCgIYAhIM"}
        use = {"type": "tool_use", "id": call, "name": "search", "input": {"q": text(rng, 30)}}
        assistant = [thinking, {"type": "text", "text": text(rng, 60)}, use]
        result = {"type": "tool_result", "tool_use_id": call, "content": text(rng, RESULT)}
        messages += [
            {"role": "assistant", "content": assistant},
            {"role": "user", "content": [result]},
        ]
    answer = [{"type": "text", "text": text(rng, 300)}]
    usage = {"input_tokens": 812, "output_tokens": 31}
    messages.append(
        {
            "id": f"msg_{number}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": answer,
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": usage,
        }
    )
    run = {"id": f"run-{number}", "model": "claude-sonnet-4-5", "max_tokens": 1024}
    return {**run, "system": "You are a billing agent.", "tools": [tool], "messages": messages}


def anthropic(rng: random.Random) -> bytes:
    return _jsonl(rng, _anthropic_run)


# -- langchain: a .jsonl of LangGraph stream dumps (values, messages, updates) ------------


def _lc(kind: str, **kwargs: object) -> dict[str, Any]:
    path = ["langchain", "schema", "messages", kind]
    return {"lc": 1, "type": "constructor", "id": path, "kwargs": kwargs}


def _langgraph_run(rng: random.Random, number: int) -> list[Any]:
    state = [_lc("HumanMessage", content=text(rng, 120), type="human", id=f"human-{number}")]
    events: list[Any] = [["values", {"messages": list(state)}]]

    def step(node: str, message: dict[str, Any]) -> None:
        meta = {"langgraph_step": len(events) // 3, "langgraph_node": node, "ls_provider": "openai"}
        state.append(message)
        events.extend(
            [
                ["messages", [message, meta]],
                ["updates", {node: {"messages": [message]}}],
                ["values", {"messages": list(state)}],
            ]
        )

    model = {"model_name": "gpt-4.1-mini"}
    for turn in range(TURNS):
        call = f"call_{number}_{turn}"
        tool_call = {
            "name": "search",
            "args": {"q": text(rng, 30)},
            "id": call,
            "type": "tool_call",
        }
        step(
            "model",
            _lc(
                "AIMessage",
                content="",
                response_metadata=model,
                type="ai",
                id=f"ai-{number}-{turn}",
                tool_calls=[tool_call],
                invalid_tool_calls=[],
            ),
        )
        step(
            "tools",
            _lc(
                "ToolMessage",
                content=text(rng, RESULT),
                type="tool",
                name="search",
                id=f"tool-{number}-{turn}",
                tool_call_id=call,
                status="success",
            ),
        )
    step(
        "model",
        _lc(
            "AIMessage",
            content=text(rng, 300),
            response_metadata=model,
            type="ai",
            id=f"ai-{number}-end",
            tool_calls=[],
            invalid_tool_calls=[],
        ),
    )
    return events


def langchain(rng: random.Random) -> bytes:
    return _jsonl(rng, _langgraph_run)


# -- span exports: a conversation each LLM span re-sends whole ----------------------------


def _conversation(rng: random.Random, number: int) -> list[dict[str, Any]]:
    """System, user, then per turn an assistant call and its result, then the answer."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "text": "You are a billing agent."},
        {"role": "user", "text": text(rng, 120)},
    ]
    for turn in range(TURNS):
        call = {"id": f"call_{number}_{turn}", "name": "search", "args": {"q": text(rng, 30)}}
        messages.append({"role": "assistant", "text": text(rng, 60), "call": call})
        messages.append({"role": "tool", "text": text(rng, RESULT), "call": call})
    messages.append({"role": "assistant", "text": text(rng, 300)})
    return messages


def _oi_messages(prefix: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    for index, message in enumerate(messages):
        at = f"{prefix}.{index}.message"
        attributes[f"{at}.role"] = message["role"]
        attributes[f"{at}.content"] = message["text"]
        call = message.get("call")
        if call and message["role"] == "tool":
            attributes[f"{at}.tool_call_id"] = call["id"]
        elif call:
            attributes[f"{at}.tool_calls.0.tool_call.id"] = call["id"]
            attributes[f"{at}.tool_calls.0.tool_call.function.name"] = call["name"]
            arguments = orjson.dumps(call["args"]).decode()
            attributes[f"{at}.tool_calls.0.tool_call.function.arguments"] = arguments
    return attributes


def _oi_trace(rng: random.Random, number: int) -> list[dict[str, Any]]:
    messages = _conversation(rng, number)
    trace_id = f"{rng.getrandbits(128):032x}"
    root_id = f"{rng.getrandbits(64):016x}"
    spans: list[dict[str, Any]] = []

    def span(name: str, kind: str, second: int, attributes: dict[str, Any]) -> None:
        spans.append(
            {
                "name": name,
                "context": {"trace_id": trace_id, "span_id": f"{rng.getrandbits(64):016x}"},
                "span_kind": kind,
                "parent_id": root_id,
                "start_time": f"2025-03-01T10:{second // 60:02d}:{second % 60:02d}+00:00",
                "end_time": f"2025-03-01T10:{second // 60:02d}:{second % 60:02d}.500000+00:00",
                "status_code": "OK",
                "attributes": {"openinference.span.kind": kind, **attributes},
                "events": [],
            }
        )

    model = {"llm.model_name": "gpt-4.1-mini", "llm.token_count.prompt": 40}
    for turn in range(TURNS + 1):
        sent = messages[: 2 + 2 * turn]
        output = _oi_messages("llm.output_messages", [messages[2 + 2 * turn]])
        span(
            "ChatCompletion",
            "LLM",
            2 * turn,
            {**model, **_oi_messages("llm.input_messages", sent), **output},
        )
        if turn < TURNS:
            call, result = messages[2 + 2 * turn]["call"], messages[3 + 2 * turn]["text"]
            arguments = orjson.dumps(call["args"]).decode()
            span(
                call["name"],
                "TOOL",
                2 * turn + 1,
                {
                    "tool.name": call["name"],
                    "tool_call.id": call["id"],
                    "input.value": arguments,
                    "input.mime_type": "application/json",
                    "output.value": result,
                },
            )
    root = dict(spans[0], name="agent", span_kind="AGENT", parent_id=None)
    root["context"] = {"trace_id": trace_id, "span_id": root_id}
    root["attributes"] = {
        "openinference.span.kind": "AGENT",
        "input.value": messages[1]["text"],
        "input.mime_type": "text/plain",
        "output.value": messages[-1]["text"],
        "session.id": f"session-{number}",
    }
    return [root, *spans]


def openinference(rng: random.Random) -> bytes:
    return orjson.dumps([span for trace in _until_full(rng, _oi_trace) for span in trace])


def _genai_message(message: dict[str, Any]) -> dict[str, Any]:
    call = message.get("call")
    if message["role"] == "tool":
        return {
            "role": "tool",
            "parts": [
                {
                    "type": "tool_call_response",
                    "id": call["id"] if call else None,
                    "response": message["text"],
                }
            ],
        }
    parts: list[dict[str, Any]] = [{"type": "text", "content": message["text"]}]
    if call:
        parts.append(
            {"type": "tool_call", "id": call["id"], "name": call["name"], "arguments": call["args"]}
        )
    return {"role": message["role"], "parts": parts}


def _otlp(key: str, value: str | int) -> dict[str, Any]:
    typed = {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}
    return {"key": key, "value": typed}


def _genai_trace(rng: random.Random, number: int) -> dict[str, Any]:
    messages = _conversation(rng, number)
    trace_id = f"{rng.getrandbits(128):032x}"
    root_id = f"{rng.getrandbits(64):016x}"
    start = 1740823200 * 10**9

    def span(name: str, parent: str, tick: int, attributes: list[dict[str, Any]]) -> dict[str, Any]:
        span_id = root_id if not parent else f"{rng.getrandbits(64):016x}"
        return {
            "traceId": trace_id,
            "spanId": span_id,
            "parentSpanId": parent,
            "name": name,
            "kind": 1,
            "startTimeUnixNano": str(start + tick * 10**9),
            "endTimeUnixNano": str(start + tick * 10**9 + 5 * 10**8),
            "attributes": attributes,
            "status": {},
        }

    root = [
        _otlp("gen_ai.operation.name", "invoke_agent"),
        _otlp("gen_ai.agent.name", "billing"),
        _otlp("gen_ai.conversation.id", f"conv-{number}"),
    ]
    spans = [span("invoke_agent billing", "", 0, root)]
    system = orjson.dumps([{"type": "text", "content": messages[0]["text"]}]).decode()
    for turn in range(TURNS + 1):
        sent = [_genai_message(m) for m in messages[1 : 2 + 2 * turn]]
        output = [_genai_message(messages[2 + 2 * turn])]
        attributes = [
            _otlp("gen_ai.operation.name", "chat"),
            _otlp("gen_ai.provider.name", "openai"),
            _otlp("gen_ai.request.model", "gpt-4.1-mini"),
            _otlp("gen_ai.system_instructions", system),
            _otlp("gen_ai.usage.input_tokens", 40),
            _otlp("gen_ai.usage.output_tokens", 12),
            _otlp("gen_ai.input.messages", orjson.dumps(sent).decode()),
            _otlp("gen_ai.output.messages", orjson.dumps(output).decode()),
        ]
        spans.append(span("chat gpt-4.1-mini", root_id, 2 * turn + 1, attributes))
        if turn < TURNS:
            call, result = messages[2 + 2 * turn]["call"], messages[3 + 2 * turn]["text"]
            tool = [
                _otlp("gen_ai.operation.name", "execute_tool"),
                _otlp("gen_ai.tool.name", call["name"]),
                _otlp("gen_ai.tool.call.id", call["id"]),
                _otlp("gen_ai.tool.call.arguments", orjson.dumps(call["args"]).decode()),
                _otlp("gen_ai.tool.call.result", result),
            ]
            spans.append(span(f"execute_tool {call['name']}", root_id, 2 * turn + 2, tool))
    scope = {"scope": {"name": "opentelemetry.instrumentation.openai_v2"}, "spans": spans}
    return {"resource": {"attributes": []}, "scopeSpans": [scope]}


def otel_genai(rng: random.Random) -> bytes:
    return orjson.dumps({"resourceSpans": _until_full(rng, _genai_trace)})


# -- inspect: a .json eval log with many samples (tool results as attachments) ------------


def _inspect_sample(rng: random.Random, number: int) -> dict[str, Any]:
    question = text(rng, 120)
    messages: list[dict[str, Any]] = [
        {"id": f"m{number}-s", "role": "system", "content": "You are a billing agent."},
        {"id": f"m{number}-u", "role": "user", "content": question, "source": "input"},
    ]
    attachments: dict[str, str] = {}
    for turn in range(TURNS):
        call = f"call_{number}_{turn}"
        content = [
            {"type": "reasoning", "reasoning": text(rng, 80)},
            {"type": "text", "text": text(rng, 60)},
        ]
        calls = [{"id": call, "function": "search", "arguments": {"q": text(rng, 30)}}]
        key = f"{rng.getrandbits(128):032x}"
        attachments[key] = text(rng, RESULT)
        messages += [
            {
                "id": f"m{number}-a{turn}",
                "role": "assistant",
                "content": content,
                "tool_calls": calls,
                "model": "gpt-4.1-mini",
            },
            {
                "id": f"m{number}-t{turn}",
                "role": "tool",
                "content": f"attachment://{key}",
                "tool_call_id": call,
                "function": "search",
            },
        ]
    messages.append({"id": f"m{number}-e", "role": "assistant", "content": text(rng, 300)})
    scores = {"includes": {"value": rng.choice("CI"), "answer": "", "explanation": ""}}
    return {
        "id": number + 1,
        "epoch": 1,
        "input": question,
        "target": "45 days",
        "messages": messages,
        "scores": scores,
        "metadata": {},
        "store": {},
        "events": [],
        "attachments": attachments,
    }


def inspect(rng: random.Random) -> bytes:
    samples = _until_full(rng, _inspect_sample)
    revision = {"type": "git", "origin": "https://example.org/agent.git", "commit": "abc1234"}
    header = {
        "eval_id": "EvAl1",
        "run_id": "RuN1",
        "created": "2025-06-01T10:00:00+00:00",
        "task": "billing",
        "task_id": "TaSk1",
        "task_version": 0,
        "dataset": {"name": "billing", "samples": len(samples)},
        "model": "openai/gpt-4.1-mini",
        "model_args": {},
        "config": {},
        "revision": revision,
        "packages": {"inspect_ai": "0.3.100"},
    }
    results = {"total_samples": len(samples), "completed_samples": len(samples), "scores": []}
    stats = {"started_at": "", "completed_at": "", "model_usage": {}}
    log = {"version": 2, "status": "success", "eval": header, "plan": {"name": "plan", "steps": []}}
    return orjson.dumps({**log, "results": results, "stats": stats, "samples": samples})


# -- atif: one trajectory; every 8th step delegates to an embedded subagent ----------------


def _atif_steps(rng: random.Random, count: int, prefix: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = [{"step_id": 1, "source": "user", "message": text(rng, 120)}]
    for turn in range(count):
        call = f"{prefix}{turn}"
        arguments = {"q": text(rng, 30)}
        steps.append(
            {
                "step_id": turn + 2,
                "source": "agent",
                "message": text(rng, 60),
                "tool_calls": [
                    {"tool_call_id": call, "function_name": "search", "arguments": arguments}
                ],
                "observation": {
                    "results": [{"source_call_id": call, "content": text(rng, RESULT)}]
                },
            }
        )
    steps.append({"step_id": count + 2, "source": "agent", "message": text(rng, 300)})
    return steps


def atif(rng: random.Random) -> bytes:
    agent = {"name": "billing", "version": "3.2.0", "model_name": "claude-sonnet-4"}
    subagents = []
    steps = _atif_steps(rng, TARGET // 4250, "t")  # subagents add a quarter
    for index, step in enumerate(steps[2:-1:TURNS]):
        trajectory_id = f"traj-sub-{index}"
        step["observation"]["results"][0]["subagent_trajectory_ref"] = [
            {"trajectory_id": trajectory_id}
        ]
        subagents.append(
            {
                "schema_version": "ATIF-v1.7",
                "session_id": "sess-1",
                "trajectory_id": trajectory_id,
                "agent": {"name": "helper", "version": "1.0.0"},
                "steps": _atif_steps(rng, 2, f"s{index}-"),
            }
        )
    root = {
        "schema_version": "ATIF-v1.7",
        "session_id": "sess-1",
        "trajectory_id": "traj-root",
        "agent": agent,
    }
    metrics = {"total_prompt_tokens": 900, "total_steps": len(steps)}
    return orjson.dumps(
        {**root, "steps": steps, "final_metrics": metrics, "subagent_trajectories": subagents}
    )


# -- swe-agent: one function-calling .traj (history; trajectory empty, as in the fixture) --


def swe_agent(rng: random.Random) -> bytes:
    history: list[dict[str, Any]] = [
        {
            "role": "system",
            "content": "SETTING: function calling.",
            "agent": "main",
            "message_type": "system_prompt",
        },
        {
            "role": "user",
            "content": [{"type": "text", "text": text(rng, 300)}],
            "agent": "main",
            "message_type": "observation",
        },
    ]
    for turn in range(TARGET // 3400):
        call = f"call_{turn}"
        command = f"grep -rn {rng.choice(WORDS)} src/{turn}.py"
        function = {"name": "bash", "arguments": orjson.dumps({"command": command}).decode()}
        thought = text(rng, 60)
        history += [
            {
                "role": "assistant",
                "content": thought,
                "thought": thought,
                "action": command,
                "agent": "main",
                "message_type": "action",
                "tool_calls": [{"id": call, "type": "function", "function": function}],
            },
            {
                "role": "tool",
                "content": text(rng, RESULT) + "\n(Open file: n/a)",
                "tool_call_ids": [call],
                "agent": "main",
                "message_type": "observation",
            },
        ]
    history.append(
        {"role": "assistant", "content": text(rng, 300), "agent": "main", "message_type": "action"}
    )
    info = {"exit_status": "submitted", "swe_agent_hash": "3ea751c", "swe_agent_version": "1.0.1"}
    replay = {
        "agent": {"model": {"name": "claude-3-7-sonnet"}},
        "problem_statement": {"id": "billing-7"},
    }
    return orjson.dumps(
        {"history": history, "trajectory": [], "info": info, "replay_config": replay}
    )
