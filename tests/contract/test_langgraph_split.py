"""The grounding split through real LangGraph graphs and a LangChain agent.

A scripted model searches, then reads; the tool node caps results and attaches artifacts.
Every test checks, on every model call, that no artifact reached the model.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("langgraph", reason="the LangGraph split needs the 'langgraph' extra")

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition

from tracegrade.contract import Stage, validate_grounding_contract
from tracegrade.contract.langgraph import (
    GroundingSplit,
    ModelInputRecorder,
    ServedDocument,
    ServedSearch,
    grounded_tool_node,
    project_for_model,
    read_transcript,
)
from tracegrade.errors import ArtifactError, InputError
from tracegrade.guard.langgraph import ScriptedChatModel
from tracegrade.traces import ToolResultFrame

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

DOC = "Section 1. The loan is $2,400,000.\nSection 2. A payment default is cured in 10 days.\n"
KEY = "loan-2023-acme"
STAGES = (
    Stage(name="title-match", result_ids=(KEY, "loan-2021-birch")),
    Stage(name="rerank", result_ids=(KEY,)),
)


@tool(response_format="content_and_artifact")
def search_knowledge(query: str) -> tuple[str, ServedSearch]:
    """Search."""
    hits = ((KEY, "Term Loan Agreement: loan of $2,400,000"), ("loan-2021-birch", "Other loan"))
    return "results", ServedSearch(tool="search_knowledge", query=query, hits=hits, stages=STAGES)


@tool(response_format="content_and_artifact")
def read_knowledge_document(resource_key: str, deep: bool = False) -> tuple[str, ServedDocument]:
    """Read a document."""
    half = DOC.index("Section 2")
    segments = ((0, DOC[:half]), (half, DOC[half:])) if deep else ((0, DOC),)
    payload = ServedDocument(
        resource_type="loan_agreement",
        resource_key=resource_key,
        title="Term Loan Agreement",
        total_chars=len(DOC),
        segments=segments,
        deep=deep,
        header="Term Loan Agreement:\n",
    )
    return DOC, payload


def call(name: str, call_id: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def script(answer: str, *, deep: bool = True) -> list[AIMessage]:
    return [
        AIMessage("", tool_calls=[call("search_knowledge", "s1", query="acme cure")]),
        AIMessage(
            "", tool_calls=[call("read_knowledge_document", "r1", resource_key=KEY, deep=deep)]
        ),
        AIMessage(answer),
    ]


ANSWER = f"A payment default is cured in 10 days [{KEY}]."
CONFIG: RunnableConfig = {"configurable": {"thread_id": "t1"}}


def build(model: ScriptedChatModel, split: GroundingSplit, *, project: bool = True) -> Any:
    def agent(state: MessagesState) -> dict[str, Any]:
        messages = project_for_model(state["messages"]) if project else state["messages"]
        return {"messages": [model.invoke(messages)]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", grounded_tool_node([search_knowledge, read_knowledge_document], split))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=InMemorySaver())


def no_artifact_reached(model: ScriptedChatModel) -> None:
    assert model.received, "the model was never called"
    for messages in model.received:
        for message in messages:
            if isinstance(message, ToolMessage):
                assert message.artifact is None, f"artifact reached the model: {message}"


def results(trace: Any) -> list[Any]:
    return [f for f in trace.frames if isinstance(f, ToolResultFrame)]


def tool_artifacts(messages: list[Any]) -> list[Any]:
    return [m.artifact for m in messages if isinstance(m, ToolMessage)]


EXPECTED_TOUCH = {
    "schema_version": 1,
    "kind": "touch",
    "tool": "search_knowledge",
    "query": "acme cure",
    "result_ids": [KEY, "loan-2021-birch"],
    "stages": [
        {"name": "title-match", "result_ids": [KEY, "loan-2021-birch"]},
        {"name": "rerank", "result_ids": [KEY]},
    ],
}
EXPECTED_DEEP_READ = {
    "schema_version": 1,
    "kind": "document_read",
    "resource_type": "loan_agreement",
    "resource_key": KEY,
    "title": "Term Loan Agreement",
    "total_chars": 85,
    "body_served_range": None,
    "coverage_mode": "deep-read",
    "read_evidence": [[0, 85]],
}


def test_state_checkpoint_and_transcript_keep_exact_artifacts() -> None:
    assert len(DOC) == 85
    model = ScriptedChatModel(responses=script(ANSWER))
    app = build(model, GroundingSplit(1000))
    out = app.invoke({"messages": [HumanMessage("How long is the cure period?")]}, CONFIG)
    expected = [EXPECTED_TOUCH, EXPECTED_DEEP_READ]
    assert tool_artifacts(out["messages"]) == expected
    reloaded = app.get_state(CONFIG)
    assert tool_artifacts(reloaded.values["messages"]) == expected
    trace = read_transcript(reloaded)
    assert [f.artifact for f in trace.frames if isinstance(f, ToolResultFrame)] == expected
    assert trace.id == "t1"
    assert trace.task == "How long is the cure period?"
    assert trace.final_answer == ANSWER
    # the checkpointer's own tuple and the plain state read the same
    tuple_trace = read_transcript(app.checkpointer.get_tuple(CONFIG))
    assert tuple_trace.frames == trace.frames
    assert read_transcript(out).frames == trace.frames
    no_artifact_reached(model)


def test_the_model_receives_the_text_but_no_artifact() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    app = build(model, GroundingSplit(1000))
    app.invoke({"messages": [HumanMessage("q")]}, CONFIG)
    assert len(model.received) == 3
    no_artifact_reached(model)
    last = model.received[-1]
    tool_texts = [m.content for m in last if isinstance(m, ToolMessage)]
    assert json.loads(str(tool_texts[0]))["results"][0] == {
        "id": KEY,
        "text": "Term Loan Agreement: loan of $2,400,000",
    }
    assert tool_texts[1] == f"Term Loan Agreement:\n{DOC[:35]}\n{DOC[35:]}"
    # while the state still holds them
    assert all(tool_artifacts(app.get_state(CONFIG).values["messages"]))


def test_without_the_projection_the_model_sees_artifacts() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    recorder = ModelInputRecorder()
    app = build(model, GroundingSplit(1000), project=False)
    app.invoke({"messages": [HumanMessage("q")]}, {**CONFIG, "callbacks": [recorder]})
    assert len(recorder.calls) == 3
    assert [(index, m.tool_call_id) for index, m in recorder.artifacts_seen()] == [
        (1, "s1"),
        (2, "s1"),
        (2, "r1"),
    ]


def test_a_structured_search_and_a_deep_read_satisfy_the_validator_after_a_reload() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    app = build(model, GroundingSplit(1000))
    app.invoke({"messages": [HumanMessage("q")]}, CONFIG)
    assert validate_grounding_contract(read_transcript(app.get_state(CONFIG))) == ()
    no_artifact_reached(model)


def test_capping_changes_the_served_range_and_breaks_the_contract() -> None:
    served = {}
    for budget in (1000, 30):
        model = ScriptedChatModel(responses=script(ANSWER, deep=False))
        app = build(model, GroundingSplit({"read_knowledge_document": budget}))
        app.invoke({"messages": [HumanMessage("q")]}, CONFIG)
        trace = read_transcript(app.get_state(CONFIG))
        served[budget] = results(trace)[-1].artifact["body_served_range"]
        no_artifact_reached(model)
        failures = validate_grounding_contract(trace)
        assert [f.rule for f in failures] == ([] if budget == 1000 else ["claim-not-served"])
    assert served == {1000: [0, 85], 30: [0, 30]}


def test_a_capped_deep_read_is_incomplete() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    app = build(model, GroundingSplit({"read_knowledge_document": 50}))
    app.invoke({"messages": [HumanMessage("q")]}, CONFIG)
    trace = read_transcript(app.get_state(CONFIG))
    assert results(trace)[-1].artifact["read_evidence"] == [[0, 50]]
    assert results(trace)[-1].result.endswith("[capped: 50 of 85 characters served]")
    rules = [f.rule for f in validate_grounding_contract(trace)]
    assert "incomplete-deep-read" in rules
    no_artifact_reached(model)


def test_a_capped_search_keeps_only_the_ids_it_showed() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    app = build(model, GroundingSplit({"search_knowledge": 39}))
    app.invoke({"messages": [HumanMessage("q")]}, CONFIG)
    search = app.get_state(CONFIG).values["messages"][2]
    assert search.artifact["result_ids"] == [KEY]
    assert json.loads(search.content)["not_shown"] == 1
    no_artifact_reached(model)


def test_create_agent_middleware_splits_both_ways() -> None:
    model = ScriptedChatModel(responses=script(ANSWER))
    agent = create_agent(
        model,
        tools=[search_knowledge, read_knowledge_document],
        middleware=[GroundingSplit(1000)],
        checkpointer=InMemorySaver(),
    )
    agent.invoke({"messages": [HumanMessage("q")]}, CONFIG)
    no_artifact_reached(model)
    state = agent.get_state(CONFIG)
    assert tool_artifacts(state.values["messages"]) == [EXPECTED_TOUCH, EXPECTED_DEEP_READ]
    assert validate_grounding_contract(read_transcript(state)) == ()


def test_project_for_model_does_not_mutate_its_input() -> None:
    tool_message = ToolMessage("text", tool_call_id="c1", name="t", artifact={"x": 1}, id="m1")
    human = HumanMessage("q")
    projected: list[Any] = project_for_model([human, tool_message])
    assert projected[0] is human
    assert projected[1].artifact is None
    assert (
        projected[1].content,
        projected[1].tool_call_id,
        projected[1].name,
        projected[1].id,
    ) == (
        "text",
        "c1",
        "t",
        "m1",
    )
    assert tool_message.artifact == {"x": 1}


def test_an_invalid_artifact_is_an_error_naming_the_call_and_frame() -> None:
    bad = ToolMessage("x", tool_call_id="r9", name="read", artifact={"kind": "touch", "tool": "s"})
    messages = [
        HumanMessage("q"),
        AIMessage("", tool_calls=[call("read", "r9")]),
        bad,
    ]
    with pytest.raises(ArtifactError) as caught:
        read_transcript({"messages": messages})
    assert caught.value.frame == 3
    assert caught.value.exit_code == 2
    assert "r9" in str(caught.value)
    assert "frame 3" in str(caught.value)
    with pytest.raises(ArtifactError, match="r9"):
        GroundingSplit(100).attach(bad)


def test_a_ready_artifact_over_budget_is_refused() -> None:
    ready = {"kind": "touch", "tool": "s", "query": "q", "result_ids": ["a"]}
    message = ToolMessage("x" * 20, tool_call_id="c1", name="s", artifact=ready)
    assert GroundingSplit(20).attach(message).artifact == {
        **ready,
        "schema_version": 1,
        "stages": [],
    }
    with pytest.raises(ArtifactError, match="over its budget of 10"):
        GroundingSplit(10).attach(message)


def test_read_transcript_needs_messages() -> None:
    with pytest.raises(InputError, match="no message list under 'messages'"):
        read_transcript({"other": []})
    with pytest.raises(ValueError, match="at least 1 character"):
        GroundingSplit(0)
