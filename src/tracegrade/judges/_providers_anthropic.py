"""``AnthropicJudge``: a judge backed by the Anthropic Messages API (edge; ``judges`` extra).

The reply is requested as the input of one forced tool whose ``input_schema`` is the
request's schema; the tool input's JSON is the reply text, parsed strictly by the caller.
A reply without the tool call is passed on as its text, and fails parsing loudly. The SDK is
imported when the judge is built, so ``tracegrade.judges`` imports without it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tracegrade.judges._providers import ProviderAnswer, ProviderJudge, plain_schema

if TYPE_CHECKING:
    from tracegrade.judges._model import JudgeRequest

__all__ = ["AnthropicJudge"]


def _tool_name(request: JudgeRequest) -> str:
    """The name of the tool the reply is forced into."""
    return f"record_{request.schema.replace('-', '_')}"


class AnthropicJudge(ProviderJudge):
    """A judge that asks an Anthropic model.

    Example:
        >>> judge = AnthropicJudge("claude-haiku-4-5")  # doctest: +SKIP  (reads ANTHROPIC_API_KEY)

    Args:
        model: The model name, as the API takes it.
        name: The judge's name in a panel (default ``anthropic:MODEL``).
        client: An ``anthropic.Anthropic`` client to use as is; the options below build
            one otherwise.
        api_key: The API key (default: ``ANTHROPIC_API_KEY``).
        base_url: Another endpoint (default: the SDK's).
        http_client: An ``httpx.Client`` for the SDK (tests pass one with a mock transport).
        timeout: Seconds per call.
        max_retries: The SDK's own retries on a rate limit or server error.
        temperature: Sampling temperature, sent in the request body when set (newer SDKs
            no longer take it as an argument, and newer models fix it); ``None`` leaves it
            to the API.
        max_tokens: Output tokens at most (the API requires a bound).

    Raises:
        JudgeProviderError: The ``anthropic`` package is missing (the message gives the
            install command) or the client cannot be built.
    """

    _provider = "Anthropic"
    _sdk_module = "anthropic"
    _key_variable = "ANTHROPIC_API_KEY"

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
        temperature: float | None = None,
        max_tokens: int = 1024,
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
        return f"AnthropicJudge(model={self.model!r}, name={self._name!r})"

    def _options(self, request: JudgeRequest) -> dict[str, Any]:
        tool = _tool_name(request)
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        options: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": [
                {"role": "user", "content": m.content} for m in request.messages if m.role == "user"
            ],
            "tools": [
                {
                    "name": tool,
                    "description": f"Record your answer for the {request.rubric} rubric.",
                    "input_schema": plain_schema(request.json_schema),
                }
            ],
            "tool_choice": {"type": "tool", "name": tool},
        }
        if system:
            options["system"] = system
        if self.temperature is not None:
            options["extra_body"] = {"temperature": self.temperature}
        return options

    def _create(self, options: dict[str, Any]) -> Any:  # noqa: ANN401 - the SDK's response
        return self._client.messages.create(**options)

    def _read(self, request: JudgeRequest, response: Any) -> ProviderAnswer:  # noqa: ANN401 - the SDK's response
        """The forced tool's input as JSON (else the text blocks) and the usage."""
        tool = _tool_name(request)
        blocks = list(response.content or [])
        used = [b for b in blocks if getattr(b, "type", None) == "tool_use" and b.name == tool]
        text = (
            json.dumps(used[0].input)
            if used
            else "".join(
                getattr(b, "text", "") for b in blocks if getattr(b, "type", None) == "text"
            )
        )
        usage = response.usage
        # Anthropic counts cache reads and writes apart from input_tokens; the reply counts
        # every prompt token as input (as OpenAI does), cache reads also as cached.
        cached = int(getattr(usage, "cache_read_input_tokens", 0) or 0)
        written = int(getattr(usage, "cache_creation_input_tokens", 0) or 0)
        return ProviderAnswer(
            text=text,
            input_tokens=int(usage.input_tokens) + cached + written if usage is not None else 0,
            output_tokens=int(usage.output_tokens) if usage is not None else 0,
            cached_input_tokens=cached,
            cache_write_input_tokens=written,
        )
