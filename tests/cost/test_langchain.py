"""CostCallbackHandler: LangChain results, and a real LangGraph agent on a scripted model."""

from __future__ import annotations

import uuid

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, Generation, LLMResult
from langchain_core.tools import tool

from tracegrade.cost import collect_calls
from tracegrade.cost.langchain import CostCallbackHandler
from tracegrade.guard.langgraph import ScriptedChatModel
from tracegrade.store import InMemoryStore

USAGE = {"input_tokens": 1_000, "output_tokens": 50, "total_tokens": 1_050}
GPT_4O_MINI_CALL = (1_000 * 0.15 + 50 * 0.60) / 1e6


@tool
def lookup_rate(loan: str) -> str:
    """The interest rate of a loan."""
    return f"{loan}: 4.25%"


def _agent_replies() -> list[AIMessage]:
    return [
        AIMessage(
            content="",
            tool_calls=[{"name": "lookup_rate", "args": {"loan": "delta"}, "id": "c1"}],
        ),
        AIMessage(content="The delta loan's rate is 4.25%."),
    ]


def test_a_chat_result_is_recorded_with_usage_model_and_latency():
    store = InMemoryStore()
    handler = CostCallbackHandler("search", store=store)
    run_id = uuid.uuid4()
    handler.on_chat_model_start({}, [[HumanMessage("hi")]], run_id=run_id)
    message = AIMessage(
        content="hello",
        usage_metadata={**USAGE, "input_token_details": {"cache_read": 400}},
        response_metadata={"model_name": "gpt-4o-mini-2024-07-18"},
    )
    handler.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]), run_id=run_id)
    [call] = store.ai_calls()
    assert call == handler.recorded[0]
    assert (call.touchpoint, call.model, call.role) == ("search", "gpt-4o-mini-2024-07-18", "agent")
    assert (call.input_tokens, call.output_tokens, call.cached_input_tokens) == (1_000, 50, 400)
    assert call.cost_usd == pytest.approx((600 * 0.15 + 400 * 0.075 + 50 * 0.60) / 1e6)
    assert call.latency_seconds is not None
    assert call.latency_seconds >= 0


def test_a_legacy_llm_output_token_usage_is_read_and_the_model_from_the_start():
    store = InMemoryStore()
    handler = CostCallbackHandler("summariser", role="judge", store=store)
    run_id = uuid.uuid4()
    handler.on_llm_start(
        {}, ["prompt"], run_id=run_id, invocation_params={"model_name": "gpt-4.1-nano"}
    )
    result = LLMResult(
        generations=[[Generation(text="ok")]],
        llm_output={"token_usage": {"prompt_tokens": 2_000, "completion_tokens": 500}},
    )
    handler.on_llm_end(result, run_id=run_id)
    [call] = store.ai_calls()
    assert (call.model, call.role) == ("gpt-4.1-nano", "judge")
    assert call.cost_usd == pytest.approx((2_000 * 0.10 + 500 * 0.40) / 1e6)


def test_the_model_asked_for_prices_a_reply_that_names_none():
    store = InMemoryStore()
    handler = CostCallbackHandler("search", store=store)
    run_id = uuid.uuid4()
    handler.on_chat_model_start(
        {}, [[HumanMessage("hi")]], run_id=run_id, metadata={"ls_model_name": "gpt-4o-mini"}
    )
    reply = AIMessage(content="x", usage_metadata=USAGE)
    handler.on_llm_end(LLMResult(generations=[[ChatGeneration(message=reply)]]), run_id=run_id)
    [call] = store.ai_calls()
    assert call.model == "gpt-4o-mini"
    assert call.cost_usd == pytest.approx(GPT_4O_MINI_CALL)


def test_a_result_without_usage_is_one_unpriced_call():
    store = InMemoryStore()
    handler = CostCallbackHandler("search", store=store)
    run_id = uuid.uuid4()
    handler.on_chat_model_start({}, [[HumanMessage("hi")]], run_id=run_id)
    handler.on_llm_end(
        LLMResult(generations=[[ChatGeneration(message=AIMessage(content="x"))]]), run_id=run_id
    )
    [call] = store.ai_calls()
    assert call.cost_usd is None
    assert call.details == {"usage_missing": True}


def test_a_real_langgraph_agent_records_each_model_turn():
    store = InMemoryStore()
    model = ScriptedChatModel(responses=_agent_replies(), model_name="gpt-4o-mini", usage=USAGE)
    agent = create_agent(model, tools=[lookup_rate])
    handler = CostCallbackHandler("rate_agent", store=store)
    out = agent.invoke(
        {"messages": [HumanMessage("What is the delta loan's rate?")]}, {"callbacks": [handler]}
    )
    assert out["messages"][-1].content == "The delta loan's rate is 4.25%."
    calls = store.ai_calls()
    assert [call.model for call in calls] == ["gpt-4o-mini", "gpt-4o-mini"]
    assert [call.cost_usd for call in calls] == [pytest.approx(GPT_4O_MINI_CALL)] * 2
    assert all(call.latency_seconds is not None for call in calls)
    [rollup] = store.cost_rollup("touchpoint")
    assert (rollup.key, rollup.calls) == ("rate_agent", 2)
    assert rollup.cost_usd == pytest.approx(2 * GPT_4O_MINI_CALL)


def test_inside_a_run_the_handler_joins_the_unit_and_an_unnamed_model_is_unpriced():
    model = ScriptedChatModel(responses=_agent_replies(), usage=USAGE)
    agent = create_agent(model, tools=[lookup_rate])
    with collect_calls("run-7", "rate_agent") as calls:
        agent.invoke({"messages": [HumanMessage("rate?")]}, {"callbacks": [CostCallbackHandler()]})
    assert [(c.run_id, c.touchpoint, c.model, c.cost_usd) for c in calls] == [
        ("run-7", "rate_agent", "unknown", None)
    ] * 2


def test_the_scripted_model_keeps_a_replys_own_usage_and_names_the_model():
    own = AIMessage(
        content="a", usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    )
    model = ScriptedChatModel(responses=[own], model_name="o3", usage=USAGE)
    reply = model.invoke([HumanMessage("q")])
    assert isinstance(reply, AIMessage)
    assert reply.usage_metadata == {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    assert reply.response_metadata["model_name"] == "o3"
    assert own.response_metadata == {}  # the script itself is not changed
