"""``CostCallbackHandler``: record every LangChain chat-model call's tokens, latency and cost.

Needs ``langchain-core`` (the ``langgraph`` extra). Attach it to an invocation::

    app.invoke(inputs, {"callbacks": [CostCallbackHandler("legal_assistant")]})

Each call is timed from ``on_chat_model_start`` (or ``on_llm_start``) to ``on_llm_end`` by
its run id, and its usage read from the ``AIMessage``'s ``usage_metadata``
(:func:`~tracegrade.cost.usage_from_langchain`), or from ``llm_output`` when a legacy
integration puts it there.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import BaseCallbackHandler

from tracegrade.cost._record import record_ai_call
from tracegrade.cost._usage import usage_from_langchain, usage_from_openai

if TYPE_CHECKING:
    from uuid import UUID

    from langchain_core.messages import BaseMessage
    from langchain_core.outputs import LLMResult

    from tracegrade.cost._prices import PriceTable
    from tracegrade.cost._usage import Usage
    from tracegrade.store import AiCallRecord, CallRole, Store

__all__ = ["CostCallbackHandler"]


def _model_from(metadata: dict[str, Any] | None, invocation: dict[str, Any] | None) -> str | None:
    for source, key in (
        (metadata, "ls_model_name"),
        (invocation, "model_name"),
        (invocation, "model"),
    ):
        value = (source or {}).get(key)
        if isinstance(value, str) and value:
            return value
    return None


class CostCallbackHandler(BaseCallbackHandler):
    """A LangChain callback handler that records each model call with :func:`record_ai_call`.

    Args:
        touchpoint: The touchpoint the calls serve; ``None`` inside ``tracegrade run``
            means the unit's touchpoint.
        role: ``agent`` (default) or ``judge``.
        store: Where calls go outside a run (default: the default store).
        prices: The price table (default: the run's, else the packaged one).

    Attributes:
        recorded: Every call recorded so far, in order.
    """

    raise_error = True  # a call that cannot be recorded is a bug to see, not to skip

    def __init__(
        self,
        touchpoint: str | None = None,
        role: CallRole = "agent",
        *,
        store: Store | None = None,
        prices: PriceTable | None = None,
    ) -> None:
        super().__init__()
        self.touchpoint = touchpoint
        self.role: CallRole = role
        self.store = store
        self.prices = prices
        self.recorded: list[AiCallRecord] = []
        self._lock = threading.Lock()
        self._started: dict[UUID, tuple[float, str | None]] = {}

    def _start(self, run_id: UUID, metadata: Any, kwargs: dict[str, Any]) -> None:  # noqa: ANN401
        invocation = kwargs.get("invocation_params")
        model = _model_from(
            metadata if isinstance(metadata, dict) else None,
            invocation if isinstance(invocation, dict) else None,
        )
        with self._lock:
            self._started[run_id] = (time.monotonic(), model)

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,  # noqa: ANN401 - LangChain's callback signature
    ) -> None:
        """Note when the call started and the model it was asked of."""
        self._start(run_id, metadata, kwargs)

    def on_llm_start(
        self,
        serialized: dict[str, Any],
        prompts: list[str],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,  # noqa: ANN401 - LangChain's callback signature
    ) -> None:
        """Note when a completion-style call started."""
        self._start(run_id, metadata, kwargs)

    def on_llm_end(
        self,
        response: LLMResult,
        *,
        run_id: UUID,
        **kwargs: Any,  # noqa: ANN401 - LangChain's callback signature
    ) -> None:
        """Record the call: one record per generation that reports usage, else one unpriced."""
        with self._lock:
            started, asked = self._started.pop(run_id, (None, None))
        latency = None if started is None else time.monotonic() - started
        found: list[Usage | None] = []
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                usage = usage_from_langchain(message) if message is not None else None
                if usage is not None:
                    found.append(usage)
        if not found and response.llm_output:
            legacy = usage_from_openai(
                {
                    "usage": response.llm_output.get("token_usage"),
                    "model": response.llm_output.get("model_name"),
                }
            )
            if legacy is not None:
                found.append(legacy)
        for usage in found or [None]:
            model = (usage.model if usage is not None else None) or asked
            call = record_ai_call(
                self.touchpoint,
                model,
                usage,
                latency,
                self.role,
                store=self.store,
                prices=self.prices,
            )
            with self._lock:
                self.recorded.append(call)

    def on_llm_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        **kwargs: Any,  # noqa: ANN401 - LangChain's callback signature
    ) -> None:
        """Forget a call that failed (a provider reports no usage for it)."""
        with self._lock:
            self._started.pop(run_id, None)
