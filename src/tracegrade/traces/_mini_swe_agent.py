"""mini-swe-agent trajectories, ``<instance>.traj.json`` (docs/formats/mini-swe-agent.md).

One JSON object ``{info, messages, trajectory_format}``: one run, one trace, read from
``messages``. Version 1 (``mini-swe-agent-1``) messages are plain ``{role, content}``: the
model writes one shell command in a fenced block and its output comes back as the next
``user`` message. Version 1.1 (mini-swe-agent 2.x) keeps each model's native message plus
``extra``: chat ``tool_calls`` answered by ``role: tool`` messages, Responses API objects
answered by ``function_call_output`` items, or text actions listed in ``extra.actions``.
Output sent back as a user message is read as the ``tool_result`` of the command it answers;
the harness's own notes (format errors, limits) as ``system``; only the task and a human's
interruptions are ``user`` frames.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from tracegrade._text import is_blank
from tracegrade.errors import TraceFormatError
from tracegrade.traces._model import AssistantFrame, SystemFrame, UserFrame
from tracegrade.traces._openai import tool_call_frames
from tracegrade.traces._pairing import CallLedger
from tracegrade.traces._placing import (
    object_or_empty,
    placed,
    require_list,
    require_object,
    text_or_none,
)
from tracegrade.traces._reading import (
    build_trace,
    json_type,
    load_json,
    parse_arguments,
    parts_text,
    starts_with,
    suffix_ok,
)
from tracegrade.traces._registry import reader

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.traces._model import Frame, Trace

__all__: list[str] = []

_FIX = "see docs/formats/mini-swe-agent.md for the fields of a trajectory"
_FORMATS = ("mini-swe-agent-1", "mini-swe-agent-1.1")
_HEAD = re.compile(
    rb'^\{\s*"info"\s*:\s*\{\s*"(exit_status|model_stats)"'  # the order mini writes its info in
    rb'|"trajectory_format"\s*:\s*"mini-swe-agent|"mini_version"\s*:'
)
# mini-swe-agent 1.x's action regex, then 2.x's text-based default (v2_migration.md).
_DEFAULT_ACTIONS = (r"```bash\s*\n(.*?)\n```", r"```mswea_bash_command\s*\n(.*?)\n```")


def _looks_mini(name: str, head: bytes) -> bool:
    if not suffix_ok(name, ".json", ".traj"):
        return False
    if starts_with(head, rb"\["):  # a bare message list, named as mini names trajectories
        return name.lower().endswith(".traj.json") and b'"role"' in head
    return (
        starts_with(head, rb"\{") and _HEAD.search(head.lstrip(b"\xef\xbb\xbf \t\r\n")) is not None
    )


@reader(
    "mini-swe-agent",
    description="mini-swe-agent trajectories (.traj.json): v1 text actions and v2 tool calls",
    can_read=_looks_mini,
    priority=10,
)
def _read_mini(data: bytes, name: str) -> Iterator[Trace]:
    yield _mini_trace(load_json(data, name), name)


def _mini_trace(raw: Any, name: str) -> Trace:  # noqa: ANN401 - any JSON value
    if isinstance(raw, list):
        raw = {"messages": raw}
    run = require_object(raw, "a mini-swe-agent trajectory", name, _FIX)
    version = run.get("trajectory_format")
    if version is not None and version not in _FORMATS:
        raise TraceFormatError(
            f"unknown trajectory_format {version!r}",
            fix=f"this reader knows {' and '.join(_FORMATS)}; to read the messages as plain"
            " chat, pass --from openai-chat",
            path=name,
        )
    messages = require_list(run.get("messages"), "'messages'", name, _FIX)
    info = object_or_empty(run.get("info"))
    config = object_or_empty(info.get("config"))
    model_config = object_or_empty(config.get("model"))
    agent_config = object_or_empty(config.get("agent"))
    regex = model_config.get("action_regex", agent_config.get("action_regex"))
    actions = (regex,) if isinstance(regex, str) and regex else _DEFAULT_ACTIONS
    reading = _Reading(name, [re.compile(r, re.DOTALL) for r in actions])
    frames, read = reading.frames, reading.message
    append = frames.append
    for index, message in enumerate(messages):
        at = f"message {index}"
        body = message if type(message) is dict else require_object(message, at, name, _FIX)
        for frame in read(body, at):
            append(frame if frame.origin is not None else placed(frame, at))
    metadata: dict[str, Any] = {
        key: info[key]
        for key in ("exit_status", "submission", "model_stats", "mini_version")
        if info.get(key) is not None
    }
    if version is not None:
        metadata["trajectory_format"] = version
    if reading.synthetic:
        metadata["text_action_call_ids"] = reading.synthetic
    trace = build_trace(
        trace_id=text_or_none(run.get("instance_id")) or _stem(name),
        model=text_or_none(model_config.get("model_name")),
        frames=reading.frames,
        ledger=reading.ledger,
        name=name,
        where="messages",
        metadata=metadata,
    )
    commit = text_or_none(info.get("mini_version"))
    return trace.model_copy(update={"commit": commit}) if commit else trace


def _stem(name: str) -> str:
    if not name or name.startswith("<"):
        return "trace"
    stem = PurePath(name).name
    for suffix in (".json", ".traj"):
        stem = stem.removesuffix(suffix)
    return stem or "trace"


class _Reading:
    """The frames of one trajectory so far, and the calls still waiting for output."""

    def __init__(self, name: str, actions: list[re.Pattern[str]]) -> None:
        self.name = name
        self.actions = actions
        self.ledger = CallLedger()
        self.frames: list[Frame] = []
        self.synthetic: list[str] = []  # ids of calls read from text actions
        self.asked = False  # the task (the first user message) was read

    def message(self, message: dict[str, Any], at: str) -> list[Frame]:  # noqa: PLR0911 - one return per message shape
        if "role" not in message and isinstance(message.get("output"), list):
            return self._response(message, at)  # a Responses API object (v1.1)
        kind = message.get("type")
        if kind == "function_call_output":
            return self._result(message.get("call_id"), message.get("output"), message, at)
        role = message.get("role")
        content = message.get("content")
        text = content if isinstance(content, str) else self._text(content, at)
        if role == "system" or kind == "system":
            return [SystemFrame(content=text)]
        if role == "assistant":
            return self._assistant(message, text, at)
        if role == "tool":
            return self._result(message.get("tool_call_id"), text, message, at)
        if role == "user":
            return self._user(message, text, at)
        if role == "exit":
            # The run ended; a finishing command's output is its last result (Submitted).
            frame = self.ledger.result(None, ok=True, result=text)
            return [frame] if frame is not None else []
        shown = "no 'role'" if role is None else f"unknown role {role!r}"
        raise TraceFormatError(
            f"{at}: {shown}",
            fix="a message's role is one of: system, user, assistant, tool, exit",
            path=self.name,
        )

    def _assistant(self, message: dict[str, Any], text: str, at: str) -> list[Frame]:
        # Built with its origin: the frame is then not placed() again (a call per frame).
        frames: list[Frame] = [] if is_blank(text) else [AssistantFrame(content=text, origin=at)]
        has_calls = message.get("tool_calls") or message.get("function_call")
        calls = tool_call_frames(message, self.name, at, self.ledger) if has_calls else []
        if calls:
            return frames + calls
        extra = message.get("extra")
        listed = extra.get("actions") if isinstance(extra, dict) else None
        if isinstance(listed, list):  # v1.1 text-based: the actions the model class parsed
            commands = [a.get("command") for a in listed if isinstance(a, dict)]
        elif not text:
            return frames
        else:  # v1: exactly one fenced command is an action, else a format error follows
            found = [m for pattern in self.actions for m in pattern.findall(text)]
            if len(found) == 1 and isinstance(found[0], str):
                frames.append(self._text_call(found[0], at))
            return frames
        frames.extend(self._text_call(c) for c in commands if isinstance(c, str))
        return frames

    def _text_call(self, command: str, origin: str | None = None) -> Frame:
        call = self.ledger.call(None, "bash", {"command": command.strip()}, origin=origin)
        self.synthetic.append(call.id)
        return call

    def _user(self, message: dict[str, Any], text: str, at: str) -> list[Frame]:
        extra = message.get("extra")
        if not extra:  # most outputs: no extra, read as below
            frame = self.ledger.result(None, ok=True, result=text, origin=at)
            return [frame] if frame is not None else self._task_or_note(text)
        extra = object_or_empty(extra)
        interrupt = extra.get("interrupt_type")
        if interrupt == "UserInterruption":
            return [UserFrame(content=text)]  # the human stepped in
        if interrupt is not None:
            return [SystemFrame(content=text)]  # a format error or limit note from the harness
        listed = extra.get("actions")
        if isinstance(listed, list):  # a command the human typed in interactive mode
            return [
                self._text_call(a["command"])
                for a in listed
                if isinstance(a, dict) and isinstance(a.get("command"), str)
            ]
        frame = self.ledger.result(None, ok=not extra.get("exception_info"), result=text)
        if frame is not None:
            return [frame]  # a command's output, sent back as a user message
        return self._task_or_note(text)

    def _task_or_note(self, text: str) -> list[Frame]:
        if not self.asked:
            self.asked = True
            return [UserFrame(content=text)]
        return [SystemFrame(content=text)]  # v1 harness feedback: format errors, limits

    def _result(
        self,
        call_id: Any,  # noqa: ANN401 - any JSON value
        value: Any,  # noqa: ANN401 - any JSON value
        message: dict[str, Any],
        at: str,
    ) -> list[Frame]:
        if call_id is not None and not isinstance(call_id, str):
            raise TraceFormatError(
                f"{at}: the call id must be a string, got {json_type(call_id)}",
                fix=_FIX,
                path=self.name,
            )
        extra = object_or_empty(message.get("extra"))
        frame = self.ledger.result(call_id, ok=not extra.get("exception_info"), result=value)
        if frame is None:
            raise TraceFormatError(
                f"{at}: a tool message with no tool_call_id and no call waiting for output",
                fix="give the tool message the tool_call_id of the call it answers",
                path=self.name,
            )
        return [frame]

    def _response(self, response: dict[str, Any], at: str) -> list[Frame]:
        frames: list[Frame] = []
        for number, item in enumerate(response["output"]):
            here = f"{at}, output {number}"
            body = require_object(item, here, self.name, _FIX)
            kind = body.get("type")
            if kind == "message":
                text = self._text(body.get("content"), here)
                if not is_blank(text):
                    frames.append(placed(AssistantFrame(content=text), here))
            elif kind == "function_call":
                tool = body.get("name")
                if not isinstance(tool, str) or not tool:
                    raise TraceFormatError(
                        f"{here}: the function_call has no 'name'", fix=_FIX, path=self.name
                    )
                call_id = text_or_none(body.get("call_id")) or text_or_none(body.get("id"))
                call = self.ledger.call(call_id, tool, parse_arguments(body.get("arguments")))
                frames.append(placed(call, here))
        return frames  # reasoning items: the model's own notes, neither answer nor evidence

    def _text(self, content: Any, at: str) -> str:  # noqa: ANN401 - any JSON value
        if content is None:
            return ""
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return parts_text(content)
        raise TraceFormatError(
            f"{at}: 'content' must be a string or a list of content parts, got"
            f" {json_type(content)}",
            fix=_FIX,
            path=self.name,
        )
