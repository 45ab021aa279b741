"""OpenAIJudge and AnthropicJudge through the real SDK clients over a MockTransport.

No test here opens a socket: each client gets an HTTP client whose transport is a handler
in this file: an ``httpx.Client`` for the OpenAI SDK, an ``httpx2.Client`` for the Anthropic
SDK (which moved to httpx2 and refuses httpx objects). Live calls run only with
TRACEGRADE_LIVE_JUDGES=1 and an API key.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

import httpx
import httpx2
import pytest

from tests.judges.builders import verdict
from tracegrade.errors import InfrastructureError, JudgeOutputError, JudgeProviderError
from tracegrade.judges import (
    INSTALL_HINT,
    AnthropicJudge,
    OpenAIJudge,
    PanelCase,
    arun_panel,
    parse_verdict,
    run_panel,
    verdict_request,
)

GOOD = verdict("supported", 0.75, ["billing/config.py:4"], "line 4 sets it")
REQUEST = verdict_request("read-source", "Task: ...\n[f4.4] billing/config.py:4: REFUND = 45")


def _openai_body(content: str | None, refusal: str | None = None) -> dict[str, object]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 320,
            "completion_tokens": 45,
            "total_tokens": 365,
            "prompt_tokens_details": {"cached_tokens": 128},
        },
    }


def _anthropic_body(content: list[dict[str, Any]]) -> dict[str, object]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 300,
            "output_tokens": 50,
            "cache_read_input_tokens": 100,
            "cache_creation_input_tokens": 20,
        },
    }


def _error(status: int) -> tuple[int, dict[str, object]]:
    return status, {"error": {"type": "error", "message": f"status {status}"}}


class Recorder:
    """A MockTransport handler answering with one scripted response (or raising).

    The answer is ``(status, JSON body)`` or an exception name (``timeout``, ``refused``),
    built with whichever HTTP package the SDK uses.
    """

    def __init__(self, answer: tuple[int, dict[str, object]] | str) -> None:
        self.answer = answer
        self.requests: list[httpx.Request] = []

    def __call__(self, request):  # an httpx or httpx2 request
        self.requests.append(request)
        http = httpx2 if type(request).__module__.startswith("httpx2") else httpx
        if self.answer == "timeout":
            raise http.ReadTimeout("read timed out", request=request)
        if self.answer == "refused":
            raise http.ConnectError("connection refused", request=request)
        assert isinstance(self.answer, tuple)
        status, body = self.answer
        return http.Response(status, json=body)

    def body(self) -> dict[str, Any]:
        (request,) = self.requests
        data: dict[str, Any] = json.loads(request.content)
        return data


def _openai(handler: Recorder) -> OpenAIJudge:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return OpenAIJudge(
        "gpt-4o-mini",
        api_key="sk-test",
        base_url="https://api.openai.com/v1",  # not whatever OPENAI_BASE_URL says
        http_client=client,
        max_retries=0,
    )


def _anthropic(handler: Recorder) -> AnthropicJudge:
    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    return AnthropicJudge(
        "claude-haiku-4-5",
        api_key="sk-ant-test",
        base_url="https://api.anthropic.com",
        http_client=client,
        max_retries=0,
    )


# --- OpenAI -------------------------------------------------------------------------------


def test_openai_good_reply_parses_with_usage_and_asks_for_the_json_schema() -> None:
    handler = Recorder((200, _openai_body(json.dumps(GOOD))))
    judge = _openai(handler)
    reply = judge.complete(REQUEST)
    assert parse_verdict(reply).citations == ("billing/config.py:4",)
    assert (reply.judge, reply.model) == ("openai:gpt-4o-mini", "gpt-4o-mini-2024-07-18")
    assert (reply.input_tokens, reply.output_tokens, reply.cached_input_tokens) == (320, 45, 128)
    assert reply.latency_seconds >= 0
    sent = handler.body()
    assert handler.requests[0].url.path == "/v1/chat/completions"
    assert sent["model"] == "gpt-4o-mini"
    assert sent["temperature"] == 0.0
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    response_format = sent["response_format"]
    assert response_format["type"] == "json_schema"
    schema = response_format["json_schema"]
    assert (schema["name"], schema["strict"]) == ("verdict", True)
    assert schema["schema"]["properties"]["verdict"]["enum"] == ["supported", "unsupported"]


def test_openai_malformed_json_fails_loudly() -> None:
    handler = Recorder((200, _openai_body('{"verdict": "supported",')))
    reply = _openai(handler).complete(REQUEST)
    with pytest.raises(JudgeOutputError, match="judge 'openai:gpt-4o-mini': the reply is not JSON"):
        parse_verdict(reply)


def test_openai_a_refusal_fails_parsing_with_what_the_model_said() -> None:
    body = _openai_body(None, refusal="I cannot judge this.")
    reply = _openai(Recorder((200, body))).complete(REQUEST)
    with pytest.raises(JudgeOutputError, match=r"not JSON .*: 'I cannot judge this\.'"):
        parse_verdict(reply)


def test_openai_no_content_is_an_empty_reply_not_a_verdict() -> None:
    reply = _openai(Recorder((200, _openai_body(None)))).complete(REQUEST)
    with pytest.raises(JudgeOutputError, match="the reply is empty"):
        parse_verdict(reply)


def test_openai_without_an_api_key_says_how_to_set_one(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(JudgeProviderError, match="Set OPENAI_API_KEY or pass api_key"):
        OpenAIJudge("gpt-4o-mini")


# --- Anthropic ----------------------------------------------------------------------------


def test_anthropic_good_reply_is_the_forced_tool_input() -> None:
    content = [{"type": "tool_use", "id": "toolu_1", "name": "record_verdict", "input": GOOD}]
    handler = Recorder((200, _anthropic_body(content)))
    reply = _anthropic(handler).complete(REQUEST)
    assert parse_verdict(reply).verdict == "supported"
    assert reply.model == "claude-haiku-4-5-20251001"
    # Cache reads and writes count as input, as in OpenAI's usage.
    assert (reply.input_tokens, reply.cached_input_tokens, reply.cache_write_input_tokens) == (
        420,
        100,
        20,
    )
    assert reply.output_tokens == 50
    sent = handler.body()
    assert handler.requests[0].url.path == "/v1/messages"
    assert sent["tool_choice"] == {"type": "tool", "name": "record_verdict"}
    (tool,) = sent["tools"]
    assert tool["input_schema"]["required"] == ["verdict", "confidence", "citations", "reasoning"]
    assert "Reply with one JSON object" in sent["system"]
    assert [m["role"] for m in sent["messages"]] == ["user"]
    assert sent["max_tokens"] == 1024


def test_anthropic_text_instead_of_the_tool_fails_loudly() -> None:
    content = [{"type": "text", "text": "I think it is supported."}]
    reply = _anthropic(Recorder((200, _anthropic_body(content)))).complete(REQUEST)
    with pytest.raises(JudgeOutputError, match="the reply is not JSON"):
        parse_verdict(reply)


def test_anthropic_malformed_tool_input_fails_loudly() -> None:
    bad = {**GOOD, "confidence": 7}
    content = [{"type": "tool_use", "id": "toolu_1", "name": "record_verdict", "input": bad}]
    reply = _anthropic(Recorder((200, _anthropic_body(content)))).complete(REQUEST)
    with pytest.raises(JudgeOutputError, match="confidence 7 is not a number from 0 to 1"):
        parse_verdict(reply)


# --- both ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("judge", "answer", "message"),
    [
        (_openai, _error(429), "OpenAI answered rate limited"),
        (_openai, _error(500), "OpenAI answered HTTP 500"),
        (_openai, _error(503), "OpenAI answered HTTP 503"),
        (_openai, "timeout", "the OpenAI call timed out"),
        (_openai, "refused", "could not reach OpenAI"),
        (_anthropic, _error(429), "Anthropic answered rate limited"),
        (_anthropic, _error(500), "Anthropic answered HTTP 500"),
        (_anthropic, _error(529), "Anthropic answered HTTP 529"),  # overloaded
        (_anthropic, "timeout", "the Anthropic call timed out"),
        (_anthropic, "refused", "could not reach Anthropic"),
    ],
)
def test_rate_limits_server_errors_and_timeouts_are_infrastructure(judge, answer, message) -> None:
    with pytest.raises(InfrastructureError, match=message) as raised:
        judge(Recorder(answer)).complete(REQUEST)
    assert raised.value.exit_code == 3
    assert raised.value.case == "read-source"


@pytest.mark.parametrize(
    ("judge", "provider", "status", "fix"),
    [
        (_openai, "OpenAI", 401, "Check the OpenAI API key"),
        (_openai, "OpenAI", 400, "Check the model name"),
        (_openai, "OpenAI", 404, "Check the model"),
        (_anthropic, "Anthropic", 401, "Check the Anthropic API key"),
        (_anthropic, "Anthropic", 403, "Check the Anthropic API key"),
        (_anthropic, "Anthropic", 400, "Check the model name"),
    ],
)
def test_auth_and_bad_requests_are_clear_errors(judge, provider, status, fix) -> None:
    match = f"{provider} refused the call with HTTP {status}"
    with pytest.raises(JudgeProviderError, match=match) as raised:
        judge(Recorder(_error(status))).complete(REQUEST)
    assert fix in str(raised.value)
    assert not isinstance(raised.value, InfrastructureError)


@pytest.mark.parametrize(
    ("module", "judge"), [("openai", OpenAIJudge), ("anthropic", AnthropicJudge)]
)
def test_a_missing_sdk_gives_the_install_command(monkeypatch, module, judge) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import now fails as if not installed
    with pytest.raises(
        JudgeProviderError, match=f"the {module} package is not installed"
    ) as raised:
        judge("some-model", api_key="k")
    assert INSTALL_HINT in str(raised.value)
    assert INSTALL_HINT == "pip install 'tracegrade[judges]'"


def test_a_provider_judge_is_named_after_its_sdk_and_model() -> None:
    openai_judge = _openai(Recorder("refused"))
    anthropic_judge = _anthropic(Recorder("refused"))
    assert repr(openai_judge) == "OpenAIJudge(model='gpt-4o-mini', name='openai:gpt-4o-mini')"
    assert repr(anthropic_judge) == (
        "AnthropicJudge(model='claude-haiku-4-5', name='anthropic:claude-haiku-4-5')"
    )
    assert OpenAIJudge("m", name="mine", api_key="k").name == "mine"


def test_provider_judges_can_be_awaited() -> None:
    content = [{"type": "tool_use", "id": "toolu_1", "name": "record_verdict", "input": GOOD}]
    openai_judge = _openai(Recorder((200, _openai_body(json.dumps(GOOD)))))
    anthropic_judge = _anthropic(Recorder((200, _anthropic_body(content))))
    result = asyncio.run(
        arun_panel([openai_judge, anthropic_judge], [PanelCase("c", "x", expected="supported")])
    )
    assert result.cases[0].counts == {"supported": 2}
    assert [call.model for call in result.calls] == [
        "gpt-4o-mini-2024-07-18",
        "claude-haiku-4-5-20251001",
    ]


def test_a_provider_judge_sits_in_a_panel_like_any_other() -> None:
    handler = Recorder((200, _openai_body(json.dumps(GOOD))))
    result = run_panel([_openai(handler)], [PanelCase("c", "material", expected="supported")])
    assert result.control_accuracy == 1.0
    assert result.calls[0].model == "gpt-4o-mini-2024-07-18"


# --- live (opt-in) ------------------------------------------------------------------------

LIVE = os.environ.get("TRACEGRADE_LIVE_JUDGES") == "1"


@pytest.mark.skipif(not LIVE, reason="live judge calls need TRACEGRADE_LIVE_JUDGES=1 and keys")
@pytest.mark.parametrize(
    ("factory", "key"),
    [
        (
            lambda: OpenAIJudge(os.environ.get("TRACEGRADE_LIVE_OPENAI_MODEL", "gpt-4o-mini")),
            "OPENAI_API_KEY",
        ),
        (
            lambda: AnthropicJudge(
                os.environ.get("TRACEGRADE_LIVE_ANTHROPIC_MODEL", "claude-haiku-4-5")
            ),
            "ANTHROPIC_API_KEY",
        ),
    ],
)
def test_live_judge_returns_a_parseable_verdict(factory, key) -> None:
    if not os.environ.get(key):
        pytest.skip(f"{key} is not set")
    reply = factory().complete(REQUEST)
    assert parse_verdict(reply).verdict in {"supported", "unsupported"}
    assert reply.input_tokens > 0
