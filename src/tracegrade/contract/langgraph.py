"""The grounding contract in LangGraph and LangChain agents (the ``langgraph`` extra).

The split keeps proof of what a tool served in the program and out of the model:

- **Tool side.** :class:`GroundingSplit` wraps every tool call (``ToolNode(wrap_tool_call=...)``
  or ``create_agent(middleware=[...])``). A tool returns ``(content, payload)`` with
  ``response_format="content_and_artifact"``, the payload being a :class:`ServedDocument` or a
  :class:`ServedSearch`. The split caps what is served to the tool's character budget,
  renders the capped content, and puts the minimal artifact (a
  :class:`~tracegrade.contract.DocumentRead` or :class:`~tracegrade.contract.Touch`, as a JSON
  dict) on the state's ``ToolMessage``: the served ranges and result ids are the ones left
  after capping.
- **Model side.** :func:`project_for_model` rebuilds every artifact-bearing ``ToolMessage``
  with all fields except the artifact; the split's ``wrap_model_call`` applies it to each
  model request. State and checkpoints are never mutated.
- **Reading back.** :func:`read_transcript` turns a state, a state snapshot or a checkpoint
  into a :class:`~tracegrade.traces.Trace` whose tool results keep their artifacts, validated.

:class:`ModelInputRecorder` is a callback handler that records what every chat model call
received, so a test or a gate can assert that no artifact reached a model, whatever the model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage, convert_to_messages
from langgraph.prebuilt import ToolNode

from tracegrade.contract._artifacts import (
    DocumentRead,
    Stage,
    Touch,
    merge_ranges,
    parse_artifact,
)
from tracegrade.errors import ArtifactError, InputError
from tracegrade.guard.langgraph import DENIAL_ARTIFACT_KEY, message_frames
from tracegrade.traces import ToolCallFrame, ToolResultFrame, Trace, UserFrame

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from uuid import UUID

    from langchain.agents.middleware import ModelRequest, ModelResponse
    from langchain_core.messages import AnyMessage
    from langchain_core.tools import BaseTool
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command

    from tracegrade.guard.langgraph import FigureGuard
    from tracegrade.traces import Frame

__all__ = [
    "GroundingSplit",
    "ModelInputRecorder",
    "ServedDocument",
    "ServedSearch",
    "grounded_tool_node",
    "project_for_model",
    "read_transcript",
]


@dataclass(frozen=True, slots=True)
class ServedDocument:
    """What a document-reading tool is about to serve, before capping (a tool's payload).

    Attributes:
        resource_type: What kind of document (``loan_agreement``...).
        resource_key: The document's key; answers cite it as ``[key]``.
        title: The document's title.
        total_chars: The document's length.
        segments: ``(start, text)`` pieces of the document, in the order to serve them;
            ``text`` is ``document[start:start + len(text)]``.
        deep: A deep read (``coverage_mode = "deep-read"``) rather than one direct range.
        header: A line shown before the text (not document text; not counted in the budget).
    """

    resource_type: str
    resource_key: str
    title: str
    total_chars: int
    segments: tuple[tuple[int, str], ...]
    deep: bool = False
    header: str = ""


@dataclass(frozen=True, slots=True)
class ServedSearch:
    """What a search tool is about to serve, before capping (a tool's payload).

    Attributes:
        tool: The search tool's name.
        query: What it searched for.
        hits: ``(result_id, text)`` in rank order.
        stages: Each retrieval stage's candidates, to say where an expected result dropped.

    The split serves it as JSON, ``{"query", "results": [{"id", "text"}...]}`` (and
    ``"not_shown"``, the number of hits the budget cut), so each hit's text is attributable
    to its id.
    """

    tool: str
    query: str
    hits: tuple[tuple[str, str], ...]
    stages: tuple[Stage, ...] = ()


def _take(pieces: Sequence[str], budget: int) -> list[str]:
    """The pieces cut so that their characters add up to at most ``budget`` (last one cut)."""
    taken: list[str] = []
    left = budget
    for piece in pieces:
        if left <= 0:
            break
        taken.append(piece[:left])
        left -= len(taken[-1])
    return taken


def _serve_document(payload: ServedDocument, budget: int) -> tuple[str, DocumentRead]:
    texts = _take([text for _, text in payload.segments], budget)
    ranges = [
        (start, start + len(text))
        for (start, _), text in zip(payload.segments, texts, strict=False)
    ]
    body = "\n".join(texts)
    if payload.deep:
        artifact = DocumentRead(
            resource_type=payload.resource_type,
            resource_key=payload.resource_key,
            title=payload.title,
            total_chars=payload.total_chars,
            coverage_mode="deep-read",
            read_evidence=merge_ranges([r for r in ranges if r[0] < r[1]]),
        )
    else:
        start = payload.segments[0][0] if payload.segments else 0
        end = ranges[0][1] if ranges else start
        if len(payload.segments) > 1:
            msg = "a direct read serves one segment; set deep=True to serve several"
            raise ValueError(msg)
        artifact = DocumentRead(
            resource_type=payload.resource_type,
            resource_key=payload.resource_key,
            title=payload.title,
            total_chars=payload.total_chars,
            body_served_range=(start, end),
        )
    served = sum(len(text) for text in texts)
    wanted = sum(len(text) for _, text in payload.segments)
    note = f"\n[capped: {served} of {wanted} characters served]" if served < wanted else ""
    return f"{payload.header}{body}{note}", artifact


def _serve_search(payload: ServedSearch, budget: int) -> tuple[str, Touch]:
    texts = _take([text for _, text in payload.hits], budget)
    shown = [(result_id, text) for (result_id, _), text in zip(payload.hits, texts, strict=False)]
    artifact = Touch(
        tool=payload.tool,
        query=payload.query,
        result_ids=tuple(result_id for result_id, _ in shown),
        stages=payload.stages,
    )
    served: dict[str, Any] = {
        "query": payload.query,
        "results": [{"id": result_id, "text": text} for result_id, text in shown],
    }
    if len(shown) < len(payload.hits):
        served["not_shown"] = len(payload.hits) - len(shown)
    return json.dumps(served, ensure_ascii=False), artifact


def _is_denial(artifact: object) -> bool:
    return isinstance(artifact, dict) and DENIAL_ARTIFACT_KEY in artifact


class GroundingSplit(AgentMiddleware[AgentState[Any], Any, Any]):
    """Caps tool results, keeps their minimal artifacts in state, hides them from the model.

    As a tool wrapper (``ToolNode(wrap_tool_call=split)``, or :func:`grounded_tool_node`) it
    runs the tool, then caps a :class:`ServedDocument` or :class:`ServedSearch` payload to
    the tool's budget and replaces it with the artifact of what was actually served. A tool
    that returns a ready :class:`~tracegrade.contract.Touch` or
    :class:`~tracegrade.contract.DocumentRead` keeps it (validated, as a dict) as long as its
    content fits the budget. As ``create_agent`` middleware it also projects every model
    request (:func:`project_for_model`).

    Args:
        budget: Characters served per tool call: one number for every tool, or a mapping
            from tool name to budget (tools not named are not capped).
    """

    def __init__(self, budget: int | Mapping[str, int]) -> None:
        budgets = budget.values() if isinstance(budget, Mapping) else (budget,)
        if any(value < 1 for value in budgets):
            msg = f"a budget must be at least 1 character, got {budget!r}"
            raise ValueError(msg)
        self.budget = budget

    def budget_for(self, tool: str) -> int | None:
        """The character budget of ``tool``, or ``None`` when it is not capped."""
        if isinstance(self.budget, Mapping):
            return self.budget.get(tool)
        return self.budget

    def attach(self, message: ToolMessage) -> ToolMessage:
        """The tool message capped, with its minimal artifact (a new message).

        Raises:
            ArtifactError: The tool returned an invalid artifact, or a ready artifact whose
                content is over the budget (return a payload so the cap can be accounted for).
        """
        payload = message.artifact
        tool = message.name or "?"
        call_id = message.tool_call_id
        if payload is None or _is_denial(payload) or message.status == "error":
            return message
        budget = self.budget_for(tool)
        try:
            if isinstance(payload, ServedDocument | ServedSearch):
                limit = budget if budget is not None else 1 << 62
                artifact: Touch | DocumentRead
                if isinstance(payload, ServedDocument):
                    content, artifact = _serve_document(payload, limit)
                else:
                    content, artifact = _serve_search(payload, limit)
                return message.model_copy(
                    update={"content": content, "artifact": artifact.model_dump(mode="json")}
                )
        except ValueError as exc:
            raise ArtifactError(
                f"artifact of call {call_id!r}: {exc}",
                fix="see docs/contract-langgraph.md for the payloads a tool returns",
                tool=tool,
            ) from exc
        ready = parse_artifact(payload, tool=tool, call_id=call_id)
        if budget is not None and len(message.text) > budget:
            raise ArtifactError(
                f"call {call_id!r} returned {len(message.text)} characters with a ready artifact,"
                f" over its budget of {budget}",
                fix="return a ServedDocument or ServedSearch payload so the split can cap it"
                " and compute the served range",
                tool=tool,
            )
        return message.model_copy(update={"artifact": ready.model_dump(mode="json")})

    def _after(self, result: ToolMessage | Command[Any]) -> ToolMessage | Command[Any]:
        return self.attach(result) if isinstance(result, ToolMessage) else result

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool, then cap its result and attach the artifact of what was served."""
        return self._after(handler(request))

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """The async form of :meth:`wrap_tool_call`."""
        return self._after(await handler(request))

    def __call__(
        self,
        request: ToolCallRequest,
        execute: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """The ``ToolNode(wrap_tool_call=...)`` form: the same as :meth:`wrap_tool_call`."""
        return self.wrap_tool_call(request, execute)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        """Call the model with the artifacts projected away (the state keeps them)."""
        return handler(request.override(messages=_projected(request.messages)))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """The async form of :meth:`wrap_model_call`."""
        return await handler(request.override(messages=_projected(request.messages)))


def _projected(messages: list[AnyMessage]) -> list[AnyMessage]:
    return cast("list[AnyMessage]", project_for_model(messages))


def grounded_tool_node(
    tools: Sequence[BaseTool | Callable[..., Any]],
    split: GroundingSplit,
    *,
    guard: FigureGuard | None = None,
    **kwargs: Any,  # noqa: ANN401 - ToolNode's own keywords, passed through
) -> ToolNode:
    """A ``ToolNode`` whose results go through the split, and calls through an optional guard.

    The guard decides first (a denied call never runs and carries no contract artifact);
    an allowed call runs and its result is capped and given its artifact.

    Args:
        tools: The tools, as for ``ToolNode``.
        split: The split that caps results and attaches artifacts.
        guard: A :class:`~tracegrade.guard.langgraph.FigureGuard` for artifact-writing tools.
        **kwargs: Passed to ``ToolNode``; not ``wrap_tool_call`` or ``awrap_tool_call``.
    """
    if "wrap_tool_call" in kwargs or "awrap_tool_call" in kwargs:
        msg = "grounded_tool_node sets wrap_tool_call itself"
        raise TypeError(msg)
    if guard is None:
        return ToolNode(
            tools, wrap_tool_call=split, awrap_tool_call=split.awrap_tool_call, **kwargs
        )
    outer = guard

    def wrapper(
        request: ToolCallRequest,
        execute: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        return outer.wrap_tool_call(request, lambda inner: split.wrap_tool_call(inner, execute))

    async def awrapper(
        request: ToolCallRequest,
        execute: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        async def inner(call: ToolCallRequest) -> ToolMessage | Command[Any]:
            return await split.awrap_tool_call(call, execute)

        return await outer.awrap_tool_call(request, inner)

    return ToolNode(tools, wrap_tool_call=wrapper, awrap_tool_call=awrapper, **kwargs)


def project_for_model(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The messages as the model may see them, artifacts left out.

    Every ``ToolMessage`` that carries an artifact is rebuilt with all its fields except the
    artifact; other messages are passed as they are. The input messages are not changed.
    """
    projected: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage) and message.artifact is not None:
            fields = {
                name: getattr(message, name)
                for name in type(message).model_fields
                if name != "artifact"
            }
            projected.append(ToolMessage(**fields))
        else:
            projected.append(message)
    return projected


class ModelInputRecorder(BaseCallbackHandler):
    """Records the messages of every chat model call (pass it in ``config["callbacks"]``).

    Attributes:
        calls: The messages each chat model call received, in order.
    """

    def __init__(self) -> None:
        self.calls: list[list[BaseMessage]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,  # noqa: ANN401 - the signature BaseCallbackHandler declares
    ) -> None:
        """Record one call's messages."""
        self.calls.extend(list(batch) for batch in messages)

    def artifacts_seen(self) -> list[tuple[int, ToolMessage]]:
        """``(call index, message)`` of each tool message that reached a model with an artifact.

        Empty when the split held.
        """
        return [
            (index, message)
            for index, call in enumerate(self.calls)
            for message in call
            if isinstance(message, ToolMessage) and message.artifact is not None
        ]


def _state_messages(source: object, messages_key: str) -> tuple[list[object], dict[str, Any]]:
    """The messages of a state, snapshot or checkpoint, and the config it carries."""
    config: dict[str, Any] = {}
    if hasattr(source, "values") and hasattr(source, "config") and not isinstance(source, dict):
        config = dict(source.config or {})
        source = source.values
    elif hasattr(source, "checkpoint") and hasattr(source, "config"):
        config = dict(source.config or {})
        source = source.checkpoint
    if isinstance(source, dict) and "channel_values" in source:
        source = source["channel_values"]
    if isinstance(source, list):
        return source, config
    found = (
        source.get(messages_key)
        if isinstance(source, dict)
        else getattr(source, messages_key, None)
    )
    if not isinstance(found, list):
        raise InputError(
            f"the state has no message list under {messages_key!r}",
            fix="pass a graph state, a StateSnapshot (graph.get_state), a checkpoint or a"
            " message list, and messages_key= if the state names it differently",
        )
    return found, config


def read_transcript(
    state_or_checkpoint: object,
    *,
    messages_key: str = "messages",
    trace_id: str | None = None,
) -> Trace:
    """The trace of a LangGraph run: native frames whose tool results keep their artifacts.

    Args:
        state_or_checkpoint: A graph state (the value ``invoke`` returned), a
            ``StateSnapshot`` (``graph.get_state(config)``), a ``CheckpointTuple`` or
            checkpoint dict (``checkpointer.get_tuple`` / ``get``), or a message list.
        messages_key: The state key that holds the messages.
        trace_id: The trace's id; by default the run's ``thread_id``, else ``"langgraph"``.

    Raises:
        ArtifactError: A tool result's artifact breaks the contract; ``frame`` is its index.
        InputError: No message list was found.
    """
    items, config = _state_messages(state_or_checkpoint, messages_key)
    messages = [
        item if isinstance(item, BaseMessage) else convert_to_messages([item])[0]  # type: ignore[list-item]
        for item in items
    ]
    frames: list[Frame] = []
    tools: dict[str, str] = {}
    for message in messages:
        for frame in message_frames(message):
            if isinstance(frame, ToolCallFrame):
                tools[frame.id] = frame.name
            if isinstance(frame, ToolResultFrame) and frame.artifact is not None:
                tool = tools.get(frame.id) or getattr(message, "name", None) or "?"
                try:
                    artifact = parse_artifact(frame.artifact, tool=tool, call_id=frame.id)
                except ArtifactError as exc:
                    exc.frame = len(frames)
                    raise
                if not isinstance(frame.artifact, dict):
                    as_json = artifact.model_dump(mode="json")
                    frames.append(frame.model_copy(update={"artifact": as_json}))
                    continue
            frames.append(frame)
    if not frames:
        raise InputError("the state holds no messages", fix="read the state after a run")
    task = next((f.content for f in frames if isinstance(f, UserFrame) and f.content), None)
    if task is None:
        task = next(
            (m.text for m in messages if isinstance(m, HumanMessage) and m.text), "(no question)"
        )
    thread = (config.get("configurable") or {}).get("thread_id")
    return Trace(
        id=trace_id or (str(thread) if thread else "langgraph"),
        task=task,
        frames=tuple(frames),
        source_format="langgraph",
    )
