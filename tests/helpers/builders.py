"""Builders for traces, frames and the SPEC 11.2 fixture question.

Frames are plain JSON-shaped dicts (what a trace file holds); ``make_trace`` runs
them through the native validator so every test trace is a real ``Trace``.
"""

from __future__ import annotations

from typing import Any

from tracegrade.claims import Fact, Question
from tracegrade.traces import Trace, validate_native_trace

JSON = dict[str, Any]

# SPEC 11.2 fixture data: the truth line does not contain the path; the copy line names both.
TRUTH_FILE = "src/server.ts"
TELL = "4321"
TRUTH_MATCH: JSON = {"file": "src/server.ts", "line": 1, "text": "export const PORT = 4321;"}
COPY_MATCH: JSON = {
    "file": "README.md",
    "line": 9,
    "text": "The server listens on 4321, set in src/server.ts.",
}
STANDARD_ANSWER = "The port is set in src/server.ts: it is 4321."


def make_trace(frames: list[JSON], **fields: Any) -> Trace:
    """A validated trace around ``frames``; top-level fields default to harmless values."""
    raw: JSON = {
        "id": "test-run",
        "commit": "v0-test",
        "model": "test-model",
        "task": "Which file sets the port?",
        "outcome": "success",
        "tokens": [0] * len(frames),
        "frames": frames,
    }
    raw.update(fields)
    return validate_native_trace(raw, "<test>")


def user(content: str = "Which file sets the port?") -> JSON:
    return {"type": "user", "content": content}


def assistant(content: str) -> JSON:
    return {"type": "assistant", "content": content}


def call(call_id: str, name: str, args: Any = None) -> JSON:
    return {"type": "tool_call", "id": call_id, "name": name, "args": args or {}}


def result(call_id: str, ok: bool, body: Any) -> JSON:
    return {"type": "tool_result", "id": call_id, "ok": ok, "result": body}


def approval(tool: str, decision: str) -> JSON:
    return {"type": "approval", "tool": tool, "decision": decision}


def compaction(summary: str, before: int = 100, after: int = 10) -> JSON:
    return {"type": "compaction", "before": before, "after": after, "summary": summary}


def search_body(matches: list[JSON]) -> JSON:
    return {"ok": True, "matches": matches, "truncated": False}


def listing_body(files: list[str]) -> JSON:
    return {"ok": True, "files": files}


def read_body(file: str, content: str, lines: int | None = None) -> JSON:
    count = content.count("\n") + 1 if lines is None else lines
    return {"ok": True, "file": file, "lines": count, "truncated": False, "content": content}


def command_body(command: str, stdout: str, stderr: str = "") -> JSON:
    return {"ok": True, "command": command, "stdout": stdout, "stderr": stderr, "exitCode": 0}


def failed_body(error: str = "tool failed") -> JSON:
    return {"ok": False, "error": error}


def one_call(name: str, body: Any, answer: str = STANDARD_ANSWER, *, ok: bool = True) -> Trace:
    """user (0), tool_call (1), tool_result (2), assistant (3): the result sits at frame 2."""
    return make_trace([user(), call("c1", name), result("c1", ok, body), assistant(answer)])


def search_trace(matches: list[JSON], answer: str = STANDARD_ANSWER) -> Trace:
    """One search_files call whose result (frame 2) holds ``matches``."""
    return one_call("search_files", search_body(matches), answer)


def fixture_question(*, truth_file: str | None = TRUTH_FILE, tell: str | None = TELL) -> Question:
    """The SPEC 11.2 question: file -> src/server.ts, value -> 4321."""
    return Question(
        id="port",
        prompt="Which file sets the port, and to what?",
        facts=(Fact(id="file", text="src/server.ts"), Fact(id="value", text="4321")),
        truth_file=truth_file,
        tell=tell,
    )
