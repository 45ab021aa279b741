"""Reading throughput per trace format, against ``orjson.loads`` of the same bytes.

For each format a generated file of about 50 MB (seeded; tool results of a few KB, as in real
runs) is read whole with ``read_traces`` and parsed with ``orjson.loads``, the two alternated
pass by pass (five pairs) in the same run, in CPU time of this process (``time.process_time``:
reading is one thread, and wall time on a shared machine also counts waiting for a CPU). The
ratio is the median of the five pairs' orjson / read ratios; the rates are of the median pass.
Peak memory is taken while reading. JSONL files are streamed line by line.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import random
import statistics
import time
import tracemalloc
from typing import TYPE_CHECKING, Any

import orjson

from benchmarks import _agent_log_samples as agent_logs
from benchmarks import _reader_samples as samples
from benchmarks._common import DATA, Check, Section, paired, rate, size_text, table
from benchmarks._reader_samples import TARGET
from benchmarks._reader_samples import text as _text
from tracegrade.traces import read_traces
from tracegrade.traces._inspect import READER_VARIABLE

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

GENERATOR_VERSION = 1
READ_TRIES = 5  # alternating parse / read pairs; the median ratio of the pairs is compared
HEADER = (
    "format",
    "file",
    "frames",
    "read MB/s (CPU)",
    "orjson MB/s (CPU)",
    "orjson / read",
    "peak memory (tracemalloc)",
)


def _chat_run(rng: random.Random, turns: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a billing agent."}]
    for turn in range(turns):
        messages.append({"role": "user", "content": _text(rng, 120)})
        call = f"call_{turn}_{rng.randrange(10**9)}"
        arguments = orjson.dumps({"q": _text(rng, 30)}).decode()
        function = {"name": "search", "arguments": arguments}
        tool_calls = [{"id": call, "type": "function", "function": function}]
        messages.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        messages.append({"role": "tool", "tool_call_id": call, "content": _text(rng, 3000)})
        messages.append({"role": "assistant", "content": _text(rng, 300)})
    return messages


def _native_frames(rng: random.Random, turns: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = [{"type": "user", "content": _text(rng, 120)}]
    for turn in range(turns):
        path = f"docs/{turn}.md"
        call = {"type": "tool_call", "id": f"c{turn}", "name": "read_file", "args": {"path": path}}
        content = _text(rng, 3000)
        body = {"ok": True, "file": path, "lines": content.count("\n") + 1, "content": content}
        frames += [call, {"type": "tool_result", "id": f"c{turn}", "ok": True, "result": body}]
    frames.append({"type": "assistant", "content": _text(rng, 300)})
    return frames


def _native(rng: random.Random) -> bytes:
    frames = _native_frames(rng, TARGET // 3300)
    head = {"id": "big", "commit": "v1", "model": "m", "task": "t", "outcome": "success"}
    return orjson.dumps({**head, "tokens": [0] * len(frames), "frames": frames})


def _openai_jsonl(rng: random.Random) -> bytes:
    lines = []
    size = 0
    while size < TARGET:
        line = orjson.dumps({"messages": _chat_run(rng, 8)})
        lines.append(line)
        size += len(line) + 1
    return b"\n".join(lines) + b"\n"


def _tau_bench(rng: random.Random) -> bytes:
    records: list[dict[str, Any]] = []
    size = 0
    while size < TARGET:
        info = {"task": {"instruction": _text(rng, 200), "actions": []}}
        record: dict[str, Any] = {"task_id": len(records), "trial": 0}
        record["reward"] = rng.choice([0.0, 1.0])
        record |= {"traj": _chat_run(rng, 8), "info": info}
        size += len(orjson.dumps(record))
        records.append(record)
    return orjson.dumps(records)


def _tau2_messages(rng: random.Random, simulation: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for turn in range(8):
        call = f"call_{simulation}_{turn}"
        tool_calls = [{"id": call, "name": "search", "arguments": {"q": _text(rng, 30)}}]
        messages += [
            {"role": "user", "content": _text(rng, 120), "turn_idx": 3 * turn},
            {"role": "assistant", "content": None, "tool_calls": tool_calls},
            {"role": "tool", "id": call, "content": _text(rng, 3000), "error": False},
        ]
    return messages


def _tau2(rng: random.Random) -> bytes:
    simulations: list[dict[str, Any]] = []
    size = 0
    while size < TARGET:
        number = len(simulations)
        simulation: dict[str, Any] = {"id": f"sim-{number}", "task_id": str(number), "trial": 0}
        simulation |= {"reward_info": {"reward": 1.0}, "termination_reason": "user_stop"}
        simulation["messages"] = _tau2_messages(rng, number)
        size += len(orjson.dumps(simulation))
        simulations.append(simulation)
    run: dict[str, Any] = {"timestamp": "2026-11-30", "info": {}, "tasks": []}
    run["simulation_index"] = None
    return orjson.dumps({**run, "simulations": simulations})


GENERATORS: dict[str, tuple[str, Callable[[random.Random], bytes]]] = {
    "native": ("native.json", _native),
    "openai-chat": ("chat.jsonl", _openai_jsonl),
    "tau-bench": ("tau-bench.json", _tau_bench),
    "tau2": ("tau2.json", _tau2),
    "anthropic": ("anthropic.jsonl", samples.anthropic),
    "langchain": ("langgraph-stream.jsonl", samples.langchain),
    "openinference": ("openinference-spans.json", samples.openinference),
    "otel-genai": ("otel-genai-otlp.json", samples.otel_genai),
    "inspect": ("inspect-log.json", samples.inspect),
    "atif": ("atif.json", samples.atif),
    "swe-agent": ("swe-agent.traj", samples.swe_agent),
    "claude-code": ("claude-code-session.jsonl", agent_logs.claude_code),
    "codex": ("codex-rollout.jsonl", agent_logs.codex),
    "mini-swe-agent": ("mini-swe-agent.traj.json", agent_logs.mini_swe_agent),
    "openhands": ("openhands-output.jsonl", agent_logs.openhands),
    "ai-sdk": ("ai-sdk-console-spans.jsonl", agent_logs.ai_sdk),
}


def _file(name: str, generate: Callable[[random.Random], bytes]) -> Path:
    folder = DATA / f"readers-v{GENERATOR_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if not path.exists():
        temporary = path.with_suffix(".tmp")
        temporary.write_bytes(generate(random.Random(2026)))
        temporary.replace(path)
    return path


def _orjson(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".jsonl":
        for line in data.splitlines():
            orjson.loads(line)
    else:
        orjson.loads(data)


def _read(path: Path, reader: str) -> int:
    return sum(len(trace.frames) for trace in read_traces(path, format_name=reader))


def _variants() -> list[tuple[str, str, str | None]]:
    """``(row name, reader, TRACEGRADE_INSPECT_READER)`` for every row of the table.

    Inspect logs are read by tracegrade's own reader (``builtin``, timed against the
    target) and, where inspect_ai is installed, through its ``read_eval_log`` too: that row
    is inspect_ai's cost, shown without a target.
    """
    rows: list[tuple[str, str, str | None]] = []
    for reader in GENERATORS:
        if reader != "inspect":
            rows.append((reader, reader, None))
            continue
        rows.append(("inspect", reader, "builtin"))
        if importlib.util.find_spec("inspect_ai") is not None:
            rows.append(("inspect, through inspect_ai", reader, "inspect_ai"))
    return rows


def run_readers() -> Section:
    """Time each format's reader against orjson on a generated ~50 MB file."""
    rows = []
    checks = []
    for label, reader, inspect_choice in _variants():
        name, generate = GENERATORS[reader]
        path = _file(name, generate)
        if inspect_choice is None:
            os.environ.pop(READER_VARIABLE, None)
        else:
            os.environ[READER_VARIABLE] = inspect_choice
        size = path.stat().st_size
        frames = _read(path, reader)  # warm-up, and the count for the table
        parse = functools.partial(_orjson, path)
        read = functools.partial(_read, path, reader)
        parses, reads, slowdowns = paired(parse, read, READ_TRIES, time.process_time)
        tracemalloc.start()
        _read(path, reader)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        ratio = statistics.median(1 / slowdown for slowdown in slowdowns.values)
        read_rate = rate(size, reads.median)
        parse_rate = rate(size, parses.median)
        rows.append(
            (f"`{label}`", size_text(size), f"{frames:,}", read_rate, parse_rate,
             f"{ratio:.2f}", size_text(peak))
        )  # fmt: skip
        metric = f"read `{label}`: orjson / read CPU time"
        if inspect_choice == "inspect_ai":  # inspect_ai's own parse: shown, not targeted
            checks.append(Check(metric, f"{ratio:.2f}", "", met=None))
        else:
            checks.append(Check(metric, f"{ratio:.2f}", ">= 0.3", met=ratio >= 0.3))
    os.environ.pop(READER_VARIABLE, None)
    body = [
        (__doc__ or "").strip().split("\n\n", 1)[1],
        "",
        *table(HEADER, rows),
        "",
        (
            "A whole-document format (one JSON value) is parsed whole, so its peak memory is of"
            " the order of the file; JSONL files are read a line at a time, except by"
            " `langchain`, which parses every line first (to tell one stream of events from"
            " runs, one a line)."
        ),
        "",
        (
            "`inspect` is tracegrade's own reader (`TRACEGRADE_INSPECT_READER=builtin`, and"
            " what runs without inspect_ai). Where inspect_ai is installed the reader loads"
            " logs through its `read_eval_log` by default (the reference reader, which migrates old"
            " log versions); `inspect, through inspect_ai` times that path, most of which is"
            " `read_eval_log` validating the whole log, so it has no target here."
        ),
    ]
    return Section("8. Reading each format", tuple(body), tuple(checks))
