"""``OpenAIJudge``: a judge backed by the OpenAI Chat Completions API (edge; ``judges`` extra).

The reply is requested as JSON conforming to the request's schema (``response_format``
``json_schema``, strict), and parsed strictly by the caller all the same. The SDK is
imported when the judge is built, so ``tracegrade.judges`` imports without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.judges._providers import ProviderAnswer, ProviderJudge, plain_schema

if TYPE_CHECKING:
    from tracegrade.judges._model import JudgeRequest

__all__ = ["OpenAIJudge"]


class OpenAIJudge(ProviderJudge):
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

    _provider = "OpenAI"
    _sdk_module = "openai"
    _key_variable = "OPENAI_API_KEY"

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
        self.temperature = temperature
        self.max_tokens = max_tokens
        super().__init__(
            model,
            name=name,
            client=client,
            api_key=api_key,
            base_url=base_url,
            http_client=http_client,
            timeout=timeout,
            max_retries=max_retries,
        )

    def __repr__(self) -> str:
        return f"OpenAIJudge(model={self.model!r}, name={self._name!r})"

    def _options(self, request: JudgeRequest) -> dict[str, Any]:
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
        return options

    def _create(self, options: dict[str, Any]) -> Any:  # noqa: ANN401 - the SDK's response
        return self._client.chat.completions.create(**options)

    def _read(self, request: JudgeRequest, response: Any) -> ProviderAnswer:  # noqa: ANN401 - the SDK's response
        """The first choice's content (or its refusal) and the usage, cache reads included."""
        choices = response.choices or []
        message = choices[0].message if choices else None
        # A refusal is passed on as the text, so parsing fails naming what the model said.
        text = (message.content or getattr(message, "refusal", None) or "") if message else ""
        usage = response.usage
        details = getattr(usage, "prompt_tokens_details", None) if usage is not None else None
        return ProviderAnswer(
            text=text,
            input_tokens=int(usage.prompt_tokens) if usage is not None else 0,
            output_tokens=int(usage.completion_tokens) if usage is not None else 0,
            cached_input_tokens=int(getattr(details, "cached_tokens", 0) or 0),
        )
