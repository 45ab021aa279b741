"""OpenHands event trajectories and evaluation / resolver output (docs/formats/openhands.md).

A trajectory is the event stream OpenHands (V0) saves and exports: a JSON list of events,
each an action (``{"id", "source", "action", "args", "tool_call_metadata"}``) or an
observation (``{"id", "source", "observation", "content", "extras", "cause"}``), serialised
by openhands/events/serialization/event.py. Evaluation and resolver runs write
``output.jsonl``: one run a line, its events under ``history``. Each observation is read as
the ``tool_result`` of the action it names (``cause``, else the tool call id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import object_or_empty, placed, text_or_none
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    jsonl_runs,
    load_json,
    starts_with,
    suffix_ok,
    trace_stem,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/openhands.md for the events read"
_EVENT = re.compile(rb'"source"\s*:\s*"(agent|user|environment)"')
# How event_to_dict starts every event (TOP_KEYS order): a long first message (the system
# prompt) may push its "action" key past the bytes detection sees.
_EVENT_START = re.compile(
    rb'\{\s*"id"\s*:\s*\d+\s*,\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"source"\s*:\s*"(agent|user|environment)"'
)
_KIND = re.compile(rb'"(action|observation)"\s*:\s*"')
_RUN = re.compile(
    rb'^\{\s*"issue"\s*:\s*\{\s*"owner"|^\{\s*"instance_id"\s*:[^\n]{0,400}?"(test_result|instruction)"\s*:'
)
_SDK = re.compile(rb'"kind"\s*:\s*"(ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent)"')
# Actions that are not tool calls, and observations that answer none.
_NOT_CALLS = frozenset(
    {"message", "system", "finish", "recall", "change_agent_state", "condensation",
     "condensation_request", "null", "reject"}
)  # fmt: skip
_SKIPPED_OBSERVATIONS = frozenset({"agent_state_changed", "null", "recall", "condensation"})
_FAILED = frozenset({"error", "user_rejected"})
# How OpenHands' evaluation harness answers when the agent waits for the human
# (fake_user_response_fn, codeact_user_response in evaluation/*/run_infer.py).
_AUTO_REPLY = "Please continue working on the task on whatever approach you think is suitable."


def _looks_openhands(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".json", ".jsonl") or not starts_with(head, rb"[\[{]"):
        return False
    if _EVENT.search(head) is not None and _KIND.search(head) is not None:
        return True
    if _EVENT_START.search(head) is not None:
        return True
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return _RUN.search(stripped) is not None or _SDK.search(head) is not None


def _read_openhands_lines(lines: Iterable[bytes], name: str) -> Iterator[Trace]:
    return jsonl_runs(lines, name, _run_trace)


@reader(
    "openhands",
    description="OpenHands event trajectories (a JSON list of action/observation events) and"
    " evaluation or resolver output.jsonl (events under 'history')",
    can_read=_looks_openhands,
    priority=10,
    read_lines=_read_openhands_lines,
)
def _read_openhands(data: bytes, name: str) -> Iterator[Trace]:
    if name.lower().endswith(".jsonl"):
        yield from _read_openhands_lines(iter(data.splitlines()), name)
        return
    yield _run_trace(load_json(data, name), name, "", trace_stem(name))


def _run_trace(raw: Any, name: str, where: str, default_id: str) -> Trace:  # noqa: ANN401 - any JSON value
    prefix = f"{where}: " if where else ""
    run: dict[str, Any] = {}
    if isinstance(raw, list):
        events = raw
    elif isinstance(raw, dict) and isinstance(raw.get("history"), list):
        run, events = raw, raw["history"]
    else:
        got = "an object without a 'history' list" if isinstance(raw, dict) else json_type(raw)
        raise TraceFormatError(
            f"{prefix}expected a list of events or a run with 'history', got {got}",
            fix=_FIX,
            path=name,
        )
    stream = _Stream(name)
    for index, event in enumerate(_flat(events)):
        stream.event(event, index, where)
    metadata, model = _run_metadata(run)
    if stream.skipped:
        metadata["skipped_events"] = dict(sorted(stream.skipped.items()))
    return build_trace(
        trace_id=_run_id(run) or default_id,
        frames=stream.frames,
        ledger=stream.ledger,
        name=name,
        where=where or "trajectory",
        model=model or stream.model,
        metadata=metadata,
    )


def _flat(events: list[Any]) -> Iterator[Any]:
    """Events in order; early OpenHands histories are ``[action, observation]`` pairs."""
    for event in events:
        if isinstance(event, list):
            yield from event
        else:
            yield event


def _run_id(run: dict[str, Any]) -> str | None:
    issue = run.get("issue")
    if isinstance(issue, dict) and text_or_none(issue.get("repo")):
        return f"{issue.get('owner')}/{issue['repo']}#{issue.get('number')}"
    return text_or_none(run.get("instance_id"))


def _run_metadata(run: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    metadata = {
        key: run[key]
        for key in ("instruction", "test_result", "metrics", "error", "success",
                    "result_explanation", "issue_type")
        if run.get(key) is not None
    }  # fmt: skip
    settings = run.get("metadata")
    model = None
    if isinstance(settings, dict):
        for key in ("agent_class", "model_name", "max_iterations", "dataset"):
            if settings.get(key) is not None:
                metadata[key] = settings[key]
        llm = settings.get("llm_config")
        model = text_or_none(llm.get("model")) if isinstance(llm, dict) else None
    return metadata, model or text_or_none(metadata.get("model_name"))


@dataclass
class _Stream:
    name: str
    ledger: CallLedger = field(default_factory=CallLedger)
    frames: list[Frame] = field(default_factory=list)
    calls: dict[int, str] = field(default_factory=dict)  # action event id -> call source id
    skipped: dict[str, int] = field(default_factory=dict)
    model: str | None = None

    def event(self, event: Any, index: int, where: str) -> None:  # noqa: ANN401 - any JSON value
        event_id = event.get("id") if isinstance(event, dict) else None
        label = f"event {event_id}" if isinstance(event_id, int) else f"event {index}"
        at = f"{where}, {label}" if where else label
        if not isinstance(event, dict):
            raise TraceFormatError(
                f"{at}: an event must be a JSON object, got {json_type(event)}",
                fix=_FIX,
                path=self.name,
            )
        if "action" in event:
            added = self._action(event, event_id, at)
        elif "observation" in event:
            added = self._observation(event, at)
        elif "kind" in event:
            raise TraceFormatError(
                f"{at}: an OpenHands V1 (software-agent-sdk) event ({event['kind']!r}), not a"
                " V0 action or observation",
                fix="this reader reads V0 event streams ({action|observation, source, args"
                " or content}); V1 conversations are not read yet",
                path=self.name,
            )
        else:
            raise TraceFormatError(
                f"{at}: the event has neither 'action' nor 'observation'", fix=_FIX, path=self.name
            )
        self.frames.extend(placed(f, at) for f in added)

    def _action(self, event: dict[str, Any], event_id: Any, at: str) -> list[Frame]:  # noqa: ANN401, PLR0911 - any JSON value; a return per action kind
        kind, source = event["action"], event.get("source")
        args = object_or_empty(event.get("args"))
        if not isinstance(kind, str):
            raise TraceFormatError(
                f"{at}: 'action' must be a string, got {json_type(kind)}", fix=_FIX, path=self.name
            )
        if kind == "system":
            return [SystemFrame(content=_text(args.get("content"), event))]
        if kind == "message":
            text = _text(args.get("content"), event)
            if source == "user" and not text.startswith(_AUTO_REPLY):
                return [UserFrame(content=text)]
            if source == "user":  # the evaluation harness answering for the human
                return [SystemFrame(content=text)]
            if source == "agent":
                return [AssistantFrame(content=text)] if not is_blank(text) else []
            return [SystemFrame(content=text)]
        if kind == "finish":
            text = _text(args.get("final_thought"), event)
            return [AssistantFrame(content=text)] if not is_blank(text) else []
        if kind in _NOT_CALLS:
            self._skip(f"action:{kind}")
            return []
        metadata = object_or_empty(event.get("tool_call_metadata"))
        self._note_model(metadata)
        frames: list[Frame] = []
        thought = args.get("thought")
        if isinstance(thought, str) and not is_blank(thought):
            frames.append(AssistantFrame(content=thought))
        tool = text_or_none(metadata.get("function_name")) or kind
        call_id = text_or_none(metadata.get("tool_call_id"))
        call_args = {k: v for k, v in args.items() if k != "thought"}
        if call_id is None and isinstance(event_id, int):
            call_id = f"event-{event_id}"  # no tool call id: the action's event id names it
        call = self.ledger.call(call_id, tool, call_args)
        if isinstance(event_id, int) and call_id is not None:
            self.calls[event_id] = call_id
        return [*frames, call]

    def _observation(self, event: dict[str, Any], at: str) -> list[Frame]:
        kind = event["observation"]
        if not isinstance(kind, str):
            raise TraceFormatError(
                f"{at}: 'observation' must be a string, got {json_type(kind)}",
                fix=_FIX,
            )
        content = event.get("content")
        text = content if isinstance(content, str) else _text(None, event)
        if kind in _SKIPPED_OBSERVATIONS:
            self._skip(f"observation:{kind}")
            return []
        cause = event.get("cause")
        metadata = event.get("tool_call_metadata")
        call_id = text_or_none(metadata.get("tool_call_id")) if isinstance(metadata, dict) else None
        if isinstance(cause, int) and cause in self.calls:
            call_id = self.calls[cause]
        ok = kind not in _FAILED
        if call_id is not None and call_id in self.calls.values():
            frame = self.ledger.result(call_id, ok=ok, result=text)
        elif cause is None and call_id is None:
            frame = self.ledger.result(None, ok=ok, result=text)  # early histories: next to it
        else:
            frame = None
        if frame is None:
            # Output no action asked for (an agent error, a notice): not a tool result.
            return [SystemFrame(content=text)]
        return [frame]

    def _note_model(self, metadata: dict[str, Any]) -> None:
        response = metadata.get("model_response")
        if self.model is None and isinstance(response, dict):
            self.model = text_or_none(response.get("model"))

    def _skip(self, what: str) -> None:
        self.skipped[what] = self.skipped.get(what, 0) + 1


def _text(value: Any, event: dict[str, Any]) -> str:  # noqa: ANN401 - any JSON value
    """A text field, else the event's top-level ``message`` (what the UI shows)."""
    if isinstance(value, str):
        return value
    message = event.get("message")
    return message if isinstance(message, str) else ""
