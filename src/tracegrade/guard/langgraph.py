"""The figure guard in LangGraph and LangChain agents (the ``langgraph`` extra).

One class, two idioms:

- LangGraph: ``ToolNode(tools, wrap_tool_call=guard, awrap_tool_call=guard.awrap_tool_call)``,
  or :func:`guarded_tool_node`, which does exactly that.
- LangChain v1: ``create_agent(model, tools, middleware=[guard])``; :class:`FigureGuard` is an
  ``AgentMiddleware`` that implements ``wrap_tool_call`` and ``awrap_tool_call``.

Before each call of a guarded tool the guard reads the graph state's messages into frames,
indexes only the messages it has not seen in that thread, and asks
:func:`~tracegrade.guard.check_tool_call`. An allowed call runs unchanged. A denied call does
not run: the tool node gets one error ``ToolMessage`` with the call's id and tool name, whose
content is :attr:`~tracegrade.guard.GuardDecision.message` and whose artifact records the
unsourced figures. Calls of tools the policy does not guard, tool exceptions and interrupts
go through as if the guard were not there.

:class:`ScriptedChatModel` is a chat model that replays scripted replies, for testing agents.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    UsageMetadata,
    convert_to_messages,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.prebuilt import ToolNode
from pydantic import Field

from tracegrade.errors import InputError
from tracegrade.guard._check import check_tool_call
from tracegrade.guard._history import GuardHistory
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Hashable, Sequence

    from langchain_core.callbacks import CallbackManagerForLLMRun
    from langchain_core.language_models import LanguageModelInput
    from langchain_core.runnables import Runnable
    from langchain_core.tools import BaseTool
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command

    from tracegrade.guard._check import GuardDecision
    from tracegrade.guard._policy import GuardPolicy
    from tracegrade.traces import Frame

__all__ = [
    "DENIAL_ARTIFACT_KEY",
    "FigureGuard",
    "ScriptedChatModel",
    "guarded_tool_node",
    "message_frames",
]

DENIAL_ARTIFACT_KEY = "tracegrade_guard"
"""The key of a denial's ``ToolMessage.artifact`` (a dict) that marks it as the guard's."""


def _text(content: str | list[str | dict[Any, Any]]) -> str:
    """A message's content as text: strings as they are, text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
    return "\n".join(parts)


def _is_denial(message: ToolMessage) -> bool:
    return isinstance(message.artifact, dict) and DENIAL_ARTIFACT_KEY in message.artifact


_ROLE_FRAMES: dict[str, type[UserFrame | SystemFrame | AssistantFrame]] = {
    "human": UserFrame,
    "user": UserFrame,
    "system": SystemFrame,
    "ai": AssistantFrame,
    "assistant": AssistantFrame,
}


def _result_frame(message: ToolMessage) -> ToolResultFrame:
    if _is_denial(message):
        return ToolResultFrame(id=message.tool_call_id, ok=False)
    content = message.content
    return ToolResultFrame(
        id=message.tool_call_id,
        ok=message.status != "error",
        result=content if isinstance(content, str) else _text(content),
        artifact=message.artifact,
    )


def message_frames(message: BaseMessage) -> tuple[Frame, ...]:
    """The trace frames of one LangChain message, as the guard reads them.

    ``SystemMessage`` is a system frame, ``HumanMessage`` a user frame, ``AIMessage`` an
    assistant frame and then one tool-call frame per entry of ``tool_calls``, ``ToolMessage``
    a tool-result frame (``ok`` unless its status is ``"error"``; the artifact is kept). A
    denial by this guard becomes a failed result with no content, so the figures it quotes
    never source a later call. A ``ChatMessage`` maps by role; other messages have no frames.
    """
    if isinstance(message, ToolMessage):
        return (_result_frame(message),)
    if isinstance(message, AIMessage):
        calls = tuple(
            ToolCallFrame(id=call.get("id") or "", name=call["name"], args=call["args"])
            for call in message.tool_calls
        )
        return (AssistantFrame(content=_text(message.content)), *calls)
    if isinstance(message, ChatMessage):
        role = message.role
    elif isinstance(message, HumanMessage):
        role = "human"
    elif isinstance(message, SystemMessage):
        role = "system"
    else:
        return ()
    frame_type = _ROLE_FRAMES.get(role)
    return () if frame_type is None else (frame_type(content=_text(message.content)),)


def _as_message(item: object) -> BaseMessage:
    if isinstance(item, BaseMessage):
        return item
    return convert_to_messages([item])[0]  # type: ignore[list-item]


def _mark(message: BaseMessage) -> tuple[object, ...]:
    """What identifies an indexed message cheaply (ids survive the checkpointer)."""
    return (message.type, message.id, message.content)


@dataclass(slots=True)
class _Thread:
    """What the guard has indexed of one conversation."""

    history: GuardHistory
    indexed: int = 0
    first: tuple[object, ...] | None = None
    last: tuple[object, ...] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def _thread_key(request: ToolCallRequest) -> Hashable:
    """The conversation a call belongs to: thread id and graph path (task ids dropped)."""
    config = getattr(request.runtime, "config", None) or {}
    configurable = config.get("configurable") or {}
    namespace = configurable.get("checkpoint_ns") or ""
    path = "|".join(part.split(":", 1)[0] for part in namespace.split("|"))
    return (configurable.get("thread_id"), path)


class FigureGuard(AgentMiddleware[AgentState[Any], Any, Any]):
    """Stops a tool call that would write a figure no tool result or human message showed.

    Use it as LangGraph ``ToolNode`` wrapper (it is callable like a ``wrap_tool_call``
    function) or as LangChain ``create_agent`` middleware. One guard may serve many
    threads and parallel calls: it keeps an incrementally built
    :class:`~tracegrade.guard.GuardHistory` per conversation (thread id and graph path) and
    rebuilds it when the messages no longer start with what it indexed (messages removed
    or summarised).

    Args:
        policy: Which tools are guarded, which argument slices are scanned, what counts as
            a source.
        messages_key: The state key that holds the messages (when the state is a dict or
            an object; a list state is the messages).
        on_decision: Called with each decision on a guarded tool's call, before the tool
            runs (for logging or tracing).
        max_threads: How many conversations to remember; the least recently used is
            dropped (and rebuilt from its messages if it comes back).
    """

    def __init__(
        self,
        policy: GuardPolicy,
        *,
        messages_key: str = "messages",
        on_decision: Callable[[GuardDecision], None] | None = None,
        max_threads: int = 1024,
    ) -> None:
        if max_threads < 1:
            msg = f"max_threads must be at least 1, got {max_threads}"
            raise ValueError(msg)
        self.policy = policy
        self.messages_key = messages_key
        self.on_decision = on_decision
        self.max_threads = max_threads
        self._threads: OrderedDict[Hashable, _Thread] = OrderedDict()
        self._lock = threading.Lock()

    # -- the shared implementation -------------------------------------------------------

    def _messages(self, state: object, tool: str) -> Sequence[object]:
        if isinstance(state, list):
            return state
        if isinstance(state, dict):
            found = state.get(self.messages_key)
        else:
            found = getattr(state, self.messages_key, None)
        if not isinstance(found, list):
            raise InputError(
                f"the graph state has no message list under {self.messages_key!r}",
                fix="pass FigureGuard(policy, messages_key=...) naming the state's messages key",
                tool=tool,
            )
        return found

    def _thread(self, key: Hashable) -> _Thread:
        with self._lock:
            thread = self._threads.get(key)
            if thread is None:
                thread = _Thread(GuardHistory(self.policy))
                self._threads[key] = thread
                while len(self._threads) > self.max_threads:
                    self._threads.popitem(last=False)
            else:
                self._threads.move_to_end(key)
            return thread

    def _sync(self, thread: _Thread, items: Sequence[object]) -> None:
        """Index the messages not indexed yet; start over if the prefix changed."""
        if thread.indexed and (
            thread.indexed > len(items)
            or _mark(_as_message(items[0])) != thread.first
            or _mark(_as_message(items[thread.indexed - 1])) != thread.last
        ):
            thread.history = GuardHistory(self.policy)
            thread.indexed = 0
        for index in range(thread.indexed, len(items)):
            message = _as_message(items[index])
            for frame in message_frames(message):
                thread.history.add(frame, f"messages[{index}]")
            if index == 0:
                thread.first = _mark(message)
            thread.last = _mark(message)
            thread.indexed = index + 1

    def decide(self, request: ToolCallRequest) -> GuardDecision | None:
        """The guard's decision on a tool call request.

        Returns:
            ``None`` for a tool the policy does not guard (nothing is read or indexed);
            otherwise the decision, after indexing the state's new messages.
        """
        call = request.tool_call
        if self.policy.rule_for(call["name"]) is None:
            return None
        frame = ToolCallFrame(id=call.get("id") or "", name=call["name"], args=call["args"])
        thread = self._thread(_thread_key(request))
        with thread.lock:
            self._sync(thread, self._messages(request.state, call["name"]))
            decision = check_tool_call(frame, thread.history)
        if self.on_decision is not None:
            self.on_decision(decision)
        return decision

    def history(self, thread_id: str | None = None, graph_path: str = "") -> GuardHistory | None:
        """The history indexed for a thread, or ``None`` if no guarded call ran there yet.

        Args:
            thread_id: The ``configurable.thread_id`` of the run (``None`` without one).
            graph_path: Node names from the root graph to the tool node, joined by ``|``
                (``"tools"`` for a tool node named so in the root graph).
        """
        with self._lock:
            thread = self._threads.get((thread_id, graph_path))
        return None if thread is None else thread.history

    @staticmethod
    def _denial(request: ToolCallRequest, decision: GuardDecision) -> ToolMessage:
        unsourced = [
            {"figure": item.figure.raw, "value": item.figure.value, "location": item.location}
            for item in decision.unsourced
        ]
        return ToolMessage(
            content=decision.message or "",
            tool_call_id=request.tool_call.get("id") or "",
            name=request.tool_call["name"],
            status="error",
            artifact={DENIAL_ARTIFACT_KEY: {"action": "deny", "unsourced": unsourced}},
        )

    # -- the two idioms ----------------------------------------------------------------

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the call through ``handler`` unless the guard denies it.

        Returns:
            The handler's result, or on deny one error ``ToolMessage`` for the call.
        """
        decision = self.decide(request)
        if decision is not None and not decision.allowed:
            return self._denial(request, decision)
        return handler(request)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """The async form of :meth:`wrap_tool_call`."""
        decision = self.decide(request)
        if decision is not None and not decision.allowed:
            return self._denial(request, decision)
        return await handler(request)

    def __call__(
        self,
        request: ToolCallRequest,
        execute: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """The ``ToolNode(wrap_tool_call=...)`` form: the same as :meth:`wrap_tool_call`."""
        return self.wrap_tool_call(request, execute)


def guarded_tool_node(
    tools: Sequence[BaseTool | Callable[..., Any]],
    policy: GuardPolicy | FigureGuard,
    **kwargs: Any,  # noqa: ANN401 - ToolNode's own keywords, passed through
) -> ToolNode:
    """A LangGraph ``ToolNode`` whose calls go through a :class:`FigureGuard`.

    Args:
        tools: The tools, as for ``ToolNode``.
        policy: The guard policy, or a guard to share between nodes.
        **kwargs: Passed to ``ToolNode`` (``name``, ``handle_tool_errors``,
            ``messages_key``...); not ``wrap_tool_call`` or ``awrap_tool_call``.
    """
    if "wrap_tool_call" in kwargs or "awrap_tool_call" in kwargs:
        msg = "guarded_tool_node sets wrap_tool_call itself; compose your wrapper with the guard"
        raise TypeError(msg)
    guard = (
        policy
        if isinstance(policy, FigureGuard)
        else FigureGuard(policy, messages_key=kwargs.get("messages_key", "messages"))
    )
    return ToolNode(tools, wrap_tool_call=guard, awrap_tool_call=guard.awrap_tool_call, **kwargs)


class ScriptedChatModel(FakeMessagesListChatModel):
    """A chat model that answers with scripted messages, in order, for testing agents.

    Unlike LangChain's fake models it binds tools (returning itself, so ``create_agent``
    works), records what it was sent, and fails loudly instead of starting over when the
    script runs out.

    Attributes:
        responses: The replies, in order; an ``AIMessage`` with ``tool_calls`` asks for tools.
        received: The messages of each call so far (what the model "saw").
        model_name: When set, each reply's ``response_metadata`` names this model (as a
            provider's would), so cost tracking can price the scripted calls.
        usage: When set, the ``usage_metadata`` of each reply that carries none.
    """

    received: list[list[BaseMessage]] = Field(default_factory=list)
    model_name: str | None = None
    usage: UsageMetadata | None = None

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,  # noqa: ANN401 - the signature BaseChatModel declares
    ) -> ChatResult:
        turn = len(self.received)
        if turn >= len(self.responses):
            msg = (
                f"ScriptedChatModel was called {turn + 1} times but has"
                f" {len(self.responses)} responses; script one more reply"
            )
            raise IndexError(msg)
        self.received.append(list(messages))
        self.i = turn + 1
        reply = self.responses[turn].model_copy()
        if isinstance(reply, AIMessage):
            if self.usage is not None and reply.usage_metadata is None:
                reply.usage_metadata = self.usage.copy()
            if self.model_name is not None:
                reply.response_metadata = {**reply.response_metadata, "model_name": self.model_name}
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,  # noqa: ANN401 - the signature BaseChatModel declares
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Accept any tools and return the model itself (the script decides the calls)."""
        return self
