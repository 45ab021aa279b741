"""Reading usage from real SDK objects built locally (no network), and from their JSON."""

from __future__ import annotations

import pytest
from anthropic.types import Message
from langchain_core.messages import AIMessage
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from tracegrade.cost import (
    Usage,
    usage_from_anthropic,
    usage_from_langchain,
    usage_from_mapping,
    usage_from_openai,
)


def _chat_completion(usage: dict[str, object] | None) -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-2024-08-06",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "42"},
                }
            ],
            "usage": usage,
        }
    )


def test_openai_chat_completions_usage_with_cached_tokens():
    response = _chat_completion(
        {
            "prompt_tokens": 1_500,
            "completion_tokens": 120,
            "total_tokens": 1_620,
            "prompt_tokens_details": {"cached_tokens": 1_024},
        }
    )
    assert usage_from_openai(response) == Usage(1_500, 120, 1_024, model="gpt-4o-2024-08-06")
    assert usage_from_openai(response.model_dump()) == usage_from_openai(response)


def test_openai_chat_completions_without_details_or_usage():
    plain = _chat_completion({"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12})
    assert usage_from_openai(plain) == Usage(10, 2, 0, model="gpt-4o-2024-08-06")
    assert usage_from_openai(_chat_completion(None)) is None


def test_openai_responses_api_usage():
    response = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1_700_000_000,
            "model": "o4-mini-2025-04-16",
            "output": [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {
                "input_tokens": 900,
                "input_tokens_details": {"cached_tokens": 300, "cache_write_tokens": 100},
                "output_tokens": 400,
                "output_tokens_details": {"reasoning_tokens": 256},
                "total_tokens": 1_300,
            },
        }
    )
    assert usage_from_openai(response) == Usage(900, 400, 300, 100, model="o4-mini-2025-04-16")


def test_anthropic_message_usage_adds_cache_reads_and_writes_to_input():
    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-20250514",
            "content": [{"type": "text", "text": "42"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": 50,
                "output_tokens": 200,
                "cache_read_input_tokens": 3_000,
                "cache_creation_input_tokens": 1_000,
            },
        }
    )
    expected = Usage(4_050, 200, 3_000, 1_000, model="claude-sonnet-4-20250514")
    assert usage_from_anthropic(message) == expected
    assert usage_from_anthropic(message.model_dump()) == expected


def test_anthropic_message_without_cache_fields():
    data = {"model": "claude-3-5-haiku-20241022", "usage": {"input_tokens": 7, "output_tokens": 3}}
    assert usage_from_anthropic(data) == Usage(7, 3, model="claude-3-5-haiku-20241022")
    assert usage_from_anthropic({"model": "x"}) is None


def test_langchain_usage_metadata_with_cache_read_and_model_name():
    message = AIMessage(
        content="42",
        usage_metadata={
            "input_tokens": 1_200,
            "output_tokens": 90,
            "total_tokens": 1_290,
            "input_token_details": {"cache_read": 1_024},
        },
        response_metadata={"model_name": "gpt-4o-mini-2024-07-18"},
    )
    assert usage_from_langchain(message) == Usage(1_200, 90, 1_024, model="gpt-4o-mini-2024-07-18")


def test_langchain_model_from_the_anthropic_key_and_no_usage():
    message = AIMessage(
        content="hi",
        usage_metadata={"input_tokens": 5, "output_tokens": 1, "total_tokens": 6},
        response_metadata={"model": "claude-3-7-sonnet-20250219"},
    )
    assert usage_from_langchain(message) == Usage(5, 1, model="claude-3-7-sonnet-20250219")
    assert usage_from_langchain(AIMessage(content="hi")) is None


@pytest.mark.parametrize(
    "data",
    [
        {"input_tokens": 10, "output_tokens": 4, "cached_input_tokens": 2, "model": "gpt-4o"},
        {
            "gen_ai.usage.input_tokens": 10,
            "gen_ai.usage.output_tokens": 4,
            "gen_ai.usage.cache_read.input_tokens": 2,
            "gen_ai.response.model": "gpt-4o",
        },
    ],
)
def test_usage_from_a_mapping_or_otel_attributes(data: dict[str, object]):
    assert usage_from_mapping(data) == Usage(10, 4, 2, model="gpt-4o")


def test_usage_from_a_mapping_refuses_missing_or_non_integer_counts():
    with pytest.raises(ValueError, match="output_tokens"):
        usage_from_mapping({"input_tokens": 1})
    with pytest.raises(ValueError, match="integer"):
        usage_from_mapping({"input_tokens": 1.5, "output_tokens": 1})
