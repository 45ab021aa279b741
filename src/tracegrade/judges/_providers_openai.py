"""``OpenAIJudge``: a judge backed by the OpenAI Chat Completions API (edge; ``judges`` extra).

The reply is requested as JSON conforming to the request's schema (``response_format``
``json_schema``, strict), and parsed strictly by the caller all the same. The SDK is
imported when the judge is built, so ``tracegrade.judges`` imports without it.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from tracegrade.errors import JudgeProviderError
from tracegrade.judges._model import JudgeReply
from tracegrade.judges._providers import import_sdk, plain_schema, translate_error

if TYPE_CHECKING:
    from tracegrade.judges._model import JudgeRequest

__all__ = ["OpenAIJudge"]


class OpenAIJudge:
    """A judge that asks an OpenAI model (or an OpenAI-compatible server).

    Example:
        >>> judge = OpenAIJudge("gpt-4o-mini")  # doctest: +SKIP  (reads OPENAI_API_KEY)

    Args:
        model: The model name, as the API takes it.
        name: The judge's name in a panel (default ``openai:MODEL``).
        client: An ``openai.OpenAI`` client to use as is; the options below build one
            otherwise.
        api_key: The API key (default: ``OPENAI_API_KEY``).
        base_url: Another endpoint (default: the SDK's).
        http_client: An ``httpx.Client`` for the SDK (tests pass one with a mock transport).
        timeout: Seconds per call.
        max_retries: The SDK's own retries on a rate limit or server error.
        temperature: Sampling temperature; ``None`` leaves it to the API.
        max_tokens: Completion tokens at most; ``None`` leaves it to the API.

    Raises:
        JudgeProviderError: The ``openai`` package is missing (the message gives the
            install command) or no API key is configured.
    """

    def __init__(
        self,
        model: str,
        *,
        name: str | None = None,
        client: object | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: object | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
    ) -> None:
        self.model = model
        self._name = name or f"openai:{model}"
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._sdk: Any = import_sdk("openai", self._name)
        if client is not None:
            self._client: Any = client
            return
        try:
            self._client = self._sdk.OpenAI(
                api_key=api_key,
                base_url=base_url,
                http_client=http_client,
                timeout=timeout,
                max_retries=max_retries,
            )
        except self._sdk.OpenAIError as exc:
            raise JudgeProviderError(
                f"cannot build the OpenAI client ({exc})",
                judge=self._name,
                fix="set OPENAI_API_KEY or pass api_key",
            ) from exc

    @property
    def name(self) -> str:
        """The judge's name."""
        return self._name

    def __repr__(self) -> str:
        return f"OpenAIJudge(model={self.model!r}, name={self._name!r})"

    def complete(self, request: JudgeRequest) -> JudgeReply:
        """Ask the model; return its raw reply text with the call's usage and latency.

        Raises:
            InfrastructureError: A rate limit, a server error, a timeout or a dropped
                connection (retried by the runner).
            JudgeProviderError: Bad credentials or a bad request.
        """
        options: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": message.role, "content": message.content} for message in request.messages
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": request.schema.replace("-", "_"),
                    "schema": plain_schema(request.json_schema),
                    "strict": True,
                },
            },
        }
        if self.temperature is not None:
            options["temperature"] = self.temperature
        if self.max_tokens is not None:
            options["max_completion_tokens"] = self.max_tokens
        started = time.perf_counter()
        try:
            response = self._client.chat.completions.create(**options)
        except self._sdk.OpenAIError as exc:
            raise translate_error(
                self._sdk, exc, judge=self._name, case=request.case, provider="OpenAI"
            ) from exc
        latency = time.perf_counter() - started
        choices = response.choices or []
        message = choices[0].message if choices else None
        # A refusal is passed on as the text, so parsing fails naming what the model said.
        text = (message.content or getattr(message, "refusal", None) or "") if message else ""
        usage = response.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage is not None else None
        return JudgeReply(
            judge=self._name,
            request=request,
            text=text,
            model=str(response.model or self.model),
            input_tokens=int(usage.prompt_tokens) if usage is not None else 0,
            output_tokens=int(usage.completion_tokens) if usage is not None else 0,
            cached_input_tokens=int(getattr(details, "cached_tokens", 0) or 0),
            latency_seconds=latency,
        )

    async def acomplete(self, request: JudgeRequest) -> JudgeReply:
        """:meth:`complete` in a worker thread, so the event loop is not blocked."""
        return await asyncio.to_thread(self.complete, request)
