"""record_response: one line records an OpenAI or Anthropic SDK response (objects built offline)."""

from __future__ import annotations

import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion

from tracegrade.cost import record_response
from tracegrade.store import InMemoryStore


def _completion(usage: dict[str, object] | None) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "ok"},
                }
            ],
            "usage": usage,
        }
    )


def _message() -> Message:
    return Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-20250514",
            "content": [{"type": "text", "text": "ok"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": 100,
                "output_tokens": 20,
                "cache_read_input_tokens": 1_000,
                "cache_creation_input_tokens": 0,
            },
        }
    )


def test_an_openai_completion_is_recorded_with_its_model_usage_and_price():
    store = InMemoryStore()
    response = _completion(
        {"prompt_tokens": 2_000, "completion_tokens": 100, "total_tokens": 2_100}
    )

    call = record_response(response, "search", latency=0.4, store=store)

    # gpt-4o-mini: $0.15 / M input, $0.60 / M output; the dated snapshot prices as its family.
    assert call.model == "gpt-4o-mini-2024-07-18"
    assert (call.input_tokens, call.output_tokens, call.latency_seconds) == (2_000, 100, 0.4)
    assert call.cost_usd == pytest.approx((2_000 * 0.15 + 100 * 0.60) / 1e6)
    assert call.details["provider"] == "openai"
    assert store.ai_calls() == [call]


def test_an_anthropic_message_is_recorded_with_cache_reads_priced_as_such():
    store = InMemoryStore()

    call = record_response(_message(), "search", role="judge", store=store)

    # claude-sonnet-4: $3 / M input, $15 / M output, $0.30 / M cache reads.
    assert (call.role, call.input_tokens, call.cached_input_tokens) == ("judge", 1_100, 1_000)
    assert call.cost_usd == pytest.approx((100 * 3.00 + 1_000 * 0.30 + 20 * 15.00) / 1e6)
    assert call.details["provider"] == "anthropic"


def test_a_response_without_usage_is_recorded_unpriced_not_free():
    store = InMemoryStore()

    call = record_response(_completion(None).model_dump(), "search", store=store)

    assert call.cost_usd is None
    assert call.details["usage_missing"] is True
