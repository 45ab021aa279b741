"""Token usage as providers report it, read without importing their SDKs (pure).

Each reader is duck-typed: it takes the SDK's object or the same data as a dict (a
response's JSON), so tracegrade never needs the SDK installed to read it. Token counts
follow the OpenAI and OpenTelemetry ``gen_ai.usage`` convention: ``input_tokens``
includes the tokens read from or written to a prompt cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "Usage",
    "usage_from_anthropic",
    "usage_from_langchain",
    "usage_from_mapping",
    "usage_from_openai",
]


@dataclass(frozen=True, slots=True)
class Usage:
    """The tokens of one model call.

    Attributes:
        input_tokens: Input (prompt) tokens, including cached and cache-written ones.
        output_tokens: Output (completion) tokens, reasoning tokens included.
        cached_input_tokens: Of ``input_tokens``, those read from a prompt cache.
        cache_write_input_tokens: Of ``input_tokens``, those written to a prompt cache
            (Anthropic bills them above the input rate).
        model: The model the response names, when it names one.
    """

    input_tokens: int
    output_tokens: int
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0
    model: str | None = None

    def __post_init__(self) -> None:
        counts = (
            self.input_tokens,
            self.output_tokens,
            self.cached_input_tokens,
            self.cache_write_input_tokens,
        )
        if any(count < 0 for count in counts):
            msg = f"token counts cannot be negative: {counts}"
            raise ValueError(msg)
        if self.cached_input_tokens + self.cache_write_input_tokens > self.input_tokens:
            msg = (
                f"{self.cached_input_tokens} cached and {self.cache_write_input_tokens}"
                f" cache-written tokens exceed the {self.input_tokens} input tokens"
            )
            raise ValueError(msg)


def field_of(source: object, name: str) -> object:
    """``source[name]`` for a mapping, else ``source.name``; ``None`` when absent."""
    if isinstance(source, dict):
        return source.get(name)
    return getattr(source, name, None)


def _count(source: object, *path: str) -> int | None:
    value: object = source
    for name in path:
        if value is None:
            return None
        value = field_of(value, name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _model(source: object) -> str | None:
    value = field_of(source, "model")
    return value if isinstance(value, str) and value else None


def usage_from_openai(response: object) -> Usage | None:
    """The usage of an OpenAI response: Chat Completions or the Responses API.

    Reads ``usage.prompt_tokens`` / ``completion_tokens`` /
    ``prompt_tokens_details.cached_tokens`` (Chat Completions) or ``usage.input_tokens`` /
    ``output_tokens`` / ``input_tokens_details.cached_tokens`` (Responses), the details'
    ``cache_write_tokens`` where the SDK reports them, and the model from ``model``. Works
    on ``openai`` SDK objects and on their JSON as dicts.

    Returns:
        The usage, or ``None`` when the response carries none.
    """
    usage = field_of(response, "usage")
    if usage is None:
        return None
    prompt = _count(usage, "prompt_tokens")
    details = "prompt_tokens_details"
    output = _count(usage, "completion_tokens")
    if prompt is None:
        prompt = _count(usage, "input_tokens")
        details = "input_tokens_details"
        output = _count(usage, "output_tokens")
    if prompt is None or output is None:
        return None
    cached = _count(usage, details, "cached_tokens") or 0
    written = _count(usage, details, "cache_write_tokens") or 0
    return Usage(prompt, output, cached, written, model=_model(response))


def usage_from_anthropic(message: object) -> Usage | None:
    """The usage of an Anthropic ``Message`` (SDK object or its JSON as a dict).

    Anthropic's ``usage.input_tokens`` leaves out ``cache_read_input_tokens`` and
    ``cache_creation_input_tokens``; they are added here, so ``input_tokens`` counts every
    input token as for the other providers.

    Returns:
        The usage, or ``None`` when the message carries none.
    """
    usage = field_of(message, "usage")
    if usage is None:
        return None
    uncached = _count(usage, "input_tokens")
    output = _count(usage, "output_tokens")
    if uncached is None or output is None:
        return None
    read = _count(usage, "cache_read_input_tokens") or 0
    written = _count(usage, "cache_creation_input_tokens") or 0
    return Usage(uncached + read + written, output, read, written, model=_model(message))


def _langchain_model(message: object) -> str | None:
    metadata = field_of(message, "response_metadata")
    if not isinstance(metadata, dict):
        return None
    for key in ("model_name", "model"):
        value = metadata.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def usage_from_langchain(message: object) -> Usage | None:
    """The usage of a LangChain ``AIMessage``: its ``usage_metadata``.

    Reads ``input_tokens``, ``output_tokens`` and ``input_token_details.cache_read`` /
    ``cache_creation``; the model from ``response_metadata`` (``model_name`` or ``model``).

    Returns:
        The usage, or ``None`` when the message has no ``usage_metadata``.
    """
    usage = field_of(message, "usage_metadata")
    if not isinstance(usage, dict):
        return None
    total = _count(usage, "input_tokens")
    output = _count(usage, "output_tokens")
    if total is None or output is None:
        return None
    read = _count(usage, "input_token_details", "cache_read") or 0
    written = _count(usage, "input_token_details", "cache_creation") or 0
    if read + written > total:  # a provider that reports them apart from input_tokens
        total += read + written
    return Usage(total, output, read, written, model=_langchain_model(message))


def usage_from_mapping(data: Mapping[str, object]) -> Usage:
    """A :class:`Usage` from a dict with its field names, or OpenTelemetry ``gen_ai.usage`` keys.

    Accepted keys: ``input_tokens``, ``output_tokens``, ``cached_input_tokens``,
    ``cache_write_input_tokens`` and ``model``, or ``gen_ai.usage.input_tokens``,
    ``gen_ai.usage.output_tokens``, ``gen_ai.usage.cache_read.input_tokens``,
    ``gen_ai.usage.cache_creation.input_tokens`` and ``gen_ai.response.model``.

    Raises:
        ValueError: A count is missing, not an integer, or negative.
    """
    names = {
        "input_tokens": ("input_tokens", "gen_ai.usage.input_tokens"),
        "output_tokens": ("output_tokens", "gen_ai.usage.output_tokens"),
        "cached_input_tokens": ("cached_input_tokens", "gen_ai.usage.cache_read.input_tokens"),
        "cache_write_input_tokens": (
            "cache_write_input_tokens",
            "gen_ai.usage.cache_creation.input_tokens",
        ),
    }
    counts: dict[str, int] = {}
    for field, keys in names.items():
        value = next((data[key] for key in keys if key in data), None)
        if value is None:
            if field in {"input_tokens", "output_tokens"}:
                msg = f"usage has no {field}: {dict(data)}"
                raise ValueError(msg)
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            msg = f"usage {field} must be an integer, got {value!r}"
            raise ValueError(msg)
        counts[field] = value
    model = data.get("model", data.get("gen_ai.response.model"))
    return Usage(**counts, model=model if isinstance(model, str) and model else None)
