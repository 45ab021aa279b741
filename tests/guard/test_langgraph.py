"""The guard in real LangGraph graphs and LangChain agents, driven by a scripted chat model.

Each graph is compiled with a checkpointer and run through ``invoke``; the tools record
whether they ran. "langgraph" is a hand-built StateGraph with a guarded ToolNode and
tools_condition; "create_agent" is LangChain v1's agent with the guard as middleware.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("langgraph", reason="the LangGraph adapter needs the 'langgraph' extra")
pytest.importorskip("langchain.agents", reason="the LangGraph adapter needs the 'langgraph' extra")

from langchain.agents import create_agent
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command, interrupt

from tracegrade.errors import InputError
from tracegrade.guard import GuardDecision, GuardHistory, parse_policy
from tracegrade.guard import langgraph as adapter
from tracegrade.guard.langgraph import (
    DENIAL_ARTIFACT_KEY,
    FigureGuard,
    ScriptedChatModel,
    guarded_tool_node,
    message_frames,
)
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
)

POLICY = parse_policy(
    {
        "sources": {"calculators": ["run_calculation"]},
        "tools": {"create_spreadsheet": {"scan": ["sheets[*].rows[*][*]"]}},
    }
)
DOCUMENT = "Loan agreement 2023: principal $1,500,000 at an interest rate of 4.25% a year."
KINDS = ["langgraph", "create_agent"]


class Desk:
    """The tools of one test, recording what ran."""

    def __init__(self) -> None:
        self.written: list[dict[str, Any]] = []
        self.emails: list[str] = []

        @tool
        def search_documents(query: str) -> str:
            """Search the loan documents."""
            return DOCUMENT

        @tool
        def run_calculation(a: float, b: float) -> str:
            """Multiply a by b."""
            return f"{a * b:,.2f}"

        @tool
        def create_spreadsheet(file_name: str, sheets: list[dict[str, Any]]) -> str:
            """Write a spreadsheet."""
            self.written.append({"file_name": file_name, "sheets": sheets})
            return f"created {file_name}"

        @tool
        def send_email(body: str) -> str:
            """Send an email (not guarded)."""
            self.emails.append(body)
            return "sent"

        self.tools = [search_documents, run_calculation, create_spreadsheet, send_email]


def call(name: str, call_id: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def write(call_id: str, *cells: Any) -> dict[str, Any]:
    sheet = {"header": ["Loan 2023"], "rows": [list(cells)]}
    return call("create_spreadsheet", call_id, file_name="loan.xlsx", sheets=[sheet])


def ask(*calls: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=list(calls))


def build(
    kind: str, model: ScriptedChatModel, tools: list[Any], guard: FigureGuard | None, **node: Any
) -> Any:
    if kind == "create_agent":
        return create_agent(
            model, tools=tools, middleware=[guard] if guard else [], checkpointer=InMemorySaver()
        )
    graph = StateGraph(MessagesState)
    graph.add_node("agent", lambda state: {"messages": [model.invoke(state["messages"])]})
    if guard is None:
        graph.add_node("tools", ToolNode(tools, **node))
    else:
        graph.add_node("tools", guarded_tool_node(tools, guard, **node))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=InMemorySaver())


def run(
    kind: str,
    prompt: str,
    *responses: AIMessage,
    desk: Desk | None = None,
    guard: FigureGuard | None = None,
    thread: str = "t1",
) -> tuple[list[BaseMessage], ScriptedChatModel]:
    desk = desk or Desk()
    model = ScriptedChatModel(responses=list(responses))
    app = build(kind, model, desk.tools, FigureGuard(POLICY) if guard is None else guard)
    out = app.invoke({"messages": [HumanMessage(prompt)]}, {"configurable": {"thread_id": thread}})
    return out["messages"], model


def results(messages: list[BaseMessage], call_id: str) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id == call_id]


@pytest.mark.parametrize("kind", KINDS)
def test_an_unsourced_write_is_not_run_and_the_agent_reads_one_error(kind):
    desk = Desk()
    final = AIMessage(content="The interest figure is not in retrieved documents.")
    messages, model = run(
        kind,
        "Put the loan terms in a spreadsheet.",
        ask(call("search_documents", "s1", query="loan")),
        ask(write("w1", "Principal", "$1,500,000", "Fee", "$2,750,000")),
        final,
        desk=desk,
    )

    assert desk.written == []
    [denied] = results(messages, "w1")
    assert denied.status == "error"
    assert denied.name == "create_spreadsheet"
    assert isinstance(denied.content, str)
    assert denied.content.startswith("create_spreadsheet was not run: 1 figure")
    assert "$2,750,000 (sheets[0].rows[0][3])" in denied.content
    assert "$1,500,000" not in denied.content
    assert denied.artifact[DENIAL_ARTIFACT_KEY]["unsourced"] == [
        {"figure": "$2,750,000", "value": "2750000", "location": "sheets[0].rows[0][3]"}
    ]
    # The graph went on: the model's next turn was sent the error, and the run ended there.
    assert len(model.received) == 3
    seen = model.received[2][-1]
    assert isinstance(seen, ToolMessage)
    assert (seen.tool_call_id, seen.status) == ("w1", "error")
    assert messages[-1].content == final.content


@pytest.mark.parametrize("kind", KINDS)
def test_a_figure_from_a_prior_tool_result_is_written(kind):
    desk = Desk()
    messages, _ = run(
        kind,
        "Put the loan terms in a spreadsheet.",
        ask(call("search_documents", "s1", query="loan")),
        ask(write("w1", "Principal", "$1.5 million", "Rate", "4.25%")),
        AIMessage(content="Done."),
        desk=desk,
    )

    assert len(desk.written) == 1
    assert desk.written[0]["sheets"][0]["rows"] == [["Principal", "$1.5 million", "Rate", "4.25%"]]
    [done] = results(messages, "w1")
    assert done.status == "success"
    assert done.content == "created loan.xlsx"


@pytest.mark.parametrize("kind", KINDS)
def test_a_figure_from_the_human_message_is_written(kind):
    desk = Desk()
    messages, _ = run(
        kind,
        "The facility fee is $2,750,000. Put it in a spreadsheet.",
        ask(write("w1", "Fee", "2,750,000")),
        AIMessage(content="Done."),
        desk=desk,
    )

    assert len(desk.written) == 1
    assert results(messages, "w1")[0].status == "success"


@pytest.mark.parametrize("kind", KINDS)
def test_a_computed_figure_is_written_once_the_calculator_returned_it(kind):
    desk = Desk()
    messages, _ = run(
        kind,
        "Put the yearly interest in a spreadsheet.",
        ask(call("search_documents", "s1", query="loan")),
        ask(write("w1", "Interest", "$63,750")),
        ask(call("run_calculation", "c1", a=1500000, b=0.0425)),
        ask(write("w2", "Interest", "$63,750")),
        AIMessage(content="Done."),
        desk=desk,
    )

    assert results(messages, "w1")[0].status == "error"
    assert "run_calculation" in results(messages, "w1")[0].content
    assert results(messages, "c1")[0].content == "63,750.00"
    assert results(messages, "w2")[0].status == "success"
    assert [sheet["sheets"][0]["rows"] for sheet in desk.written] == [[["Interest", "$63,750"]]]


@pytest.mark.parametrize("kind", KINDS)
def test_a_tool_the_policy_does_not_guard_runs_unchecked(kind):
    desk = Desk()
    decisions: list[GuardDecision] = []
    messages, _ = run(
        kind,
        "Email the fee.",
        ask(call("send_email", "e1", body="The fee is $9,999,999.")),
        AIMessage(content="Sent."),
        desk=desk,
        guard=FigureGuard(POLICY, on_decision=decisions.append),
    )

    assert desk.emails == ["The fee is $9,999,999."]
    assert results(messages, "e1")[0].content == "sent"
    assert decisions == []


def test_a_call_of_a_tool_the_node_does_not_have_gets_the_node_s_usual_answer():
    def unknown_tool_answer(guard: FigureGuard | None) -> list[ToolMessage]:
        model = ScriptedChatModel(
            responses=[ask(call("delete_everything", "x1", really=True)), AIMessage(content="ok")]
        )
        app = build("langgraph", model, Desk().tools, guard)
        out = app.invoke({"messages": [HumanMessage("go")]}, {"configurable": {"thread_id": "u"}})
        return results(out["messages"], "x1")

    [without] = unknown_tool_answer(None)
    [with_guard] = unknown_tool_answer(FigureGuard(POLICY))
    assert with_guard.content == without.content
    assert with_guard.status == without.status == "error"
    assert "delete_everything is not a valid tool" in with_guard.content


@pytest.mark.parametrize("kind", KINDS)
def test_parallel_calls_get_one_tool_message_each_allowed_and_denied_mixed(kind):
    desk = Desk()
    messages, model = run(
        kind,
        "The fee is $2,750,000. File everything.",
        ask(
            call("search_documents", "p1", query="loan"),
            write("p2", "Fee", "$2,750,000"),
            write("p3", "Penalty", "$480,000"),
            call("send_email", "p4", body="Penalty $480,000"),
        ),
        AIMessage(content="Done."),
        desk=desk,
    )

    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    assert sorted(m.tool_call_id for m in tool_messages) == ["p1", "p2", "p3", "p4"]
    status = {m.tool_call_id: m.status for m in tool_messages}
    assert status == {"p1": "success", "p2": "success", "p3": "error", "p4": "success"}
    assert "$480,000" in results(messages, "p3")[0].content
    assert [w["sheets"][0]["rows"] for w in desk.written] == [[["Fee", "$2,750,000"]]]
    assert desk.emails == ["Penalty $480,000"]
    assert len(model.received) == 2


def exploding_tools() -> list[Any]:
    @tool
    def create_spreadsheet(file_name: str, sheets: list[dict[str, Any]]) -> str:
        """Write a spreadsheet (the disk is full)."""
        raise OSError(28, "No space left on device")

    return [create_spreadsheet]


@pytest.mark.parametrize("kind", KINDS)
def test_a_tool_that_raises_raises_as_without_the_guard(kind):
    def crash(guard: FigureGuard | None) -> OSError:
        model = ScriptedChatModel(responses=[ask(write("w1", "Fee", "$2,750,000"))])
        app = build(kind, model, exploding_tools(), guard)
        with pytest.raises(OSError, match="No space left") as caught:
            app.invoke(
                {"messages": [HumanMessage("The fee is $2,750,000.")]},
                {"configurable": {"thread_id": "x"}},
            )
        return caught.value

    assert crash(FigureGuard(POLICY)).errno == crash(None).errno == 28


def test_a_handled_tool_error_is_the_same_message_as_without_the_guard():
    def answer(guard: FigureGuard | None) -> ToolMessage:
        model = ScriptedChatModel(
            responses=[ask(write("w1", "Fee", "$2,750,000")), AIMessage(content="It failed.")]
        )
        app = build("langgraph", model, exploding_tools(), guard, handle_tool_errors=True)
        out = app.invoke(
            {"messages": [HumanMessage("The fee is $2,750,000.")]},
            {"configurable": {"thread_id": "h"}},
        )
        return results(out["messages"], "w1")[0]

    with_guard, without = answer(FigureGuard(POLICY)), answer(None)
    assert with_guard.status == without.status == "error"
    assert with_guard.content == without.content
    assert "No space left" in with_guard.content


@pytest.mark.parametrize("kind", KINDS)
def test_an_interrupt_in_a_guarded_tool_pauses_and_resumes_as_without_the_guard(kind):
    ran: list[str] = []

    @tool
    def create_spreadsheet(file_name: str, sheets: list[dict[str, Any]]) -> str:
        """Write a spreadsheet after a human approves."""
        answer = interrupt(f"write {file_name}?")
        ran.append(answer)
        return f"created {file_name} ({answer})"

    def pause_and_resume(guard: FigureGuard | None) -> tuple[Any, list[BaseMessage]]:
        model = ScriptedChatModel(
            responses=[ask(write("w1", "Fee", "$2,750,000")), AIMessage(content="Done.")]
        )
        app = build(kind, model, [create_spreadsheet], guard)
        config = {"configurable": {"thread_id": "i"}}
        paused = app.invoke({"messages": [HumanMessage("The fee is $2,750,000.")]}, config)
        done = app.invoke(Command(resume="approved"), config)
        return paused["__interrupt__"][0].value, done["messages"]

    question, messages = pause_and_resume(FigureGuard(POLICY))
    question_without, _ = pause_and_resume(None)
    assert question == question_without == "write loan.xlsx?"
    assert results(messages, "w1")[0].content == "created loan.xlsx (approved)"
    assert ran == ["approved", "approved"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_message_is_indexed_once_per_thread(kind, monkeypatch):
    labels: list[str | None] = []
    original = GuardHistory.add

    def spy(self: GuardHistory, frame: Any, evidence: str | None = None) -> None:
        labels.append(evidence)
        original(self, frame, evidence)

    monkeypatch.setattr(GuardHistory, "add", spy)
    guard = FigureGuard(POLICY)
    desk = Desk()
    model = ScriptedChatModel(
        responses=[
            ask(call("search_documents", "s1", query="loan")),
            ask(write("w1", "Principal", "$1,500,000")),
            AIMessage(content="Written."),
            ask(write("w2", "Rate", "4.25%")),
            AIMessage(content="Written again."),
        ]
    )
    app = build(kind, model, desk.tools, guard)
    config = {"configurable": {"thread_id": "long"}}
    app.invoke({"messages": [HumanMessage("Principal please.")]}, config)
    first_turn = len(labels)
    out = app.invoke({"messages": [HumanMessage("Now the rate.")]}, config)

    # Turn one indexed the human message, AI + call, result, AI + call (6 frames) at w1;
    # turn two only w1's result, the AI reply, the new human message and AI + call at w2.
    assert first_turn == 6
    assert labels == [
        "messages[0]", "messages[1]", "messages[1]", "messages[2]", "messages[3]", "messages[3]",
        "messages[4]", "messages[5]", "messages[6]", "messages[7]", "messages[7]",
    ]  # fmt: skip
    assert len(desk.written) == 2
    assert results(out["messages"], "w2")[0].status == "success"


def test_the_history_is_rebuilt_when_the_messages_were_removed():
    guard = FigureGuard(POLICY)
    desk = Desk()
    model = ScriptedChatModel(
        responses=[
            ask(call("search_documents", "s1", query="loan")),
            ask(write("w1", "Principal", "$1,500,000")),
            AIMessage(content="Written."),
            ask(write("w2", "Principal", "$1,500,000")),
            AIMessage(content="Not in the conversation any more."),
        ]
    )
    app = build("langgraph", model, desk.tools, guard)
    config = {"configurable": {"thread_id": "summarised"}}
    app.invoke({"messages": [HumanMessage("Principal please.")]}, config)
    removed = [RemoveMessage(id=REMOVE_ALL_MESSAGES), HumanMessage("Write it again.")]
    out = app.invoke({"messages": removed}, config)

    assert results(out["messages"], "w2")[0].status == "error"
    assert len(desk.written) == 1
    history = guard.history("summarised", "tools")
    assert history is not None
    assert history.frames_seen == 3  # human, AI, call: only the messages still in the state


def test_threads_do_not_share_sources():
    guard = FigureGuard(POLICY)
    desk = Desk()
    run(
        "langgraph",
        "The fee is $2,750,000.",
        ask(write("a1", "$2,750,000")),
        AIMessage(content="ok"),
        desk=desk,
        guard=guard,
        thread="a",
    )
    messages, _ = run(
        "langgraph",
        "Write the fee.",
        ask(write("b1", "$2,750,000")),
        AIMessage(content="ok"),
        desk=desk,
        guard=guard,
        thread="b",
    )

    assert results(messages, "b1")[0].status == "error"
    assert len(desk.written) == 1


def test_a_denial_never_sources_the_figures_it_quotes():
    # Even when the guarded tool's own results count as sources, its denial does not.
    policy = parse_policy(
        {
            "sources": {"tools": ["create_spreadsheet"]},
            "tools": {"create_spreadsheet": {"scan": ["sheets[*].rows[*][*]"]}},
        }
    )
    desk = Desk()
    messages, _ = run(
        "langgraph",
        "Write the fee.",
        ask(write("w1", "$2,750,000")),
        ask(write("w2", "$2,750,000")),
        AIMessage(content="Gave up."),
        desk=desk,
        guard=FigureGuard(policy),
    )

    assert [results(messages, i)[0].status for i in ("w1", "w2")] == ["error", "error"]
    assert desk.written == []


def test_the_async_path_denies_and_allows_like_the_sync_one():
    desk = Desk()
    model = ScriptedChatModel(
        responses=[
            ask(write("w1", "$2,750,000"), call("search_documents", "s1", query="loan")),
            ask(write("w2", "$1,500,000")),
            AIMessage(content="Done."),
        ]
    )
    app = build("langgraph", model, desk.tools, FigureGuard(POLICY))
    out = asyncio.run(
        app.ainvoke({"messages": [HumanMessage("Write it.")]}, {"configurable": {"thread_id": "a"}})
    )

    messages = out["messages"]
    assert [results(messages, i)[0].status for i in ("w1", "s1", "w2")] == [
        "error",
        "success",
        "success",
    ]
    assert [w["sheets"][0]["rows"] for w in desk.written] == [[["$1,500,000"]]]


def test_decisions_are_reported_with_the_evidence_message():
    decisions: list[GuardDecision] = []
    run(
        "langgraph",
        "Write the principal.",
        ask(call("search_documents", "s1", query="loan")),
        ask(write("w1", "$1,500,000")),
        AIMessage(content="Done."),
        guard=FigureGuard(POLICY, on_decision=decisions.append),
    )

    [decision] = decisions
    assert decision.allowed
    assert decision.call_id == "w1"
    assert decision.evidence == ("messages[2]",)


def test_a_state_without_the_messages_key_is_a_clear_error():
    model = ScriptedChatModel(responses=[ask(write("w1", "$1"))])
    app = build("langgraph", model, Desk().tools, FigureGuard(POLICY, messages_key="history"))
    with pytest.raises(InputError, match="no message list under 'history'"):
        app.invoke({"messages": [HumanMessage("go")]}, {"configurable": {"thread_id": "k"}})


def test_messages_become_frames():
    assert message_frames(SystemMessage("Fees are $10,000.")) == (
        SystemFrame(content="Fees are $10,000."),
    )
    assert message_frames(HumanMessage([{"type": "text", "text": "fee"}, "is $5"])) == (
        UserFrame(content="fee\nis $5"),
    )
    assert message_frames(ask(write("w1", "$1"))) == (
        AssistantFrame(content=""),
        ToolCallFrame(id="w1", name="create_spreadsheet", args=write("w1", "$1")["args"]),
    )
    failed = ToolMessage("boom", tool_call_id="w1", status="error", artifact={"raw": 1})
    assert message_frames(failed) == (
        ToolResultFrame(id="w1", ok=False, result="boom", artifact={"raw": 1}),
    )
    denial = ToolMessage("x was not run: $5", tool_call_id="w1", artifact={DENIAL_ARTIFACT_KEY: {}})
    assert message_frames(denial) == (ToolResultFrame(id="w1", ok=False),)


def test_the_scripted_model_binds_tools_records_prompts_and_fails_when_the_script_ends():
    model = ScriptedChatModel(responses=[AIMessage(content="one")])
    assert model.bind_tools(Desk().tools) is model
    assert model.invoke("hello").content == "one"
    assert [m.content for m in model.received[0]] == ["hello"]
    with pytest.raises(IndexError, match="called 2 times but has 1 responses"):
        model.invoke("again")


def test_guarded_tool_node_refuses_a_second_wrapper():
    with pytest.raises(TypeError, match="sets wrap_tool_call itself"):
        guarded_tool_node(
            Desk().tools, POLICY, wrap_tool_call=lambda request, execute: execute(request)
        )


def test_all_is_sorted_and_names_every_public_member_defined_here():
    defined = [
        name
        for name, value in vars(adapter).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == adapter.__name__
    ]
    assert adapter.__all__ == sorted(adapter.__all__)
    assert sorted(adapter.__all__) == sorted([*defined, "DENIAL_ARTIFACT_KEY"])
