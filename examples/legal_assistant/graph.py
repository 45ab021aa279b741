"""The assistant's LangGraph graph: model node, guarded and split tool node, checkpointer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.messages import SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition

from examples.legal_assistant.corpus import Corpus
from examples.legal_assistant.tools import LegalDesk
from tracegrade.contract.langgraph import GroundingSplit, grounded_tool_node, project_for_model
from tracegrade.guard import load_policy
from tracegrade.guard.langgraph import FigureGuard

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.graph.state import CompiledStateGraph

HERE = Path(__file__).resolve().parent
BUDGETS = {"search_knowledge": 600, "read_knowledge_document": 1500}
"""Characters served per call: a search's snippets, a read's document text."""

SYSTEM_PROMPT = (
    "You answer questions about the loan and mortgage documents in the knowledge base. "
    "Search with search_knowledge, then read each document you rely on with "
    "read_knowledge_document (deep=True reads it whole). Cite every document you state a fact "
    "from as [resource_key]. Put only figures you read into spreadsheets. If the asked-for "
    "figure is in no document you read, say it is not in retrieved documents."
)


def build_agent(
    model: BaseChatModel,
    *,
    corpus: Corpus | None = None,
    split: GroundingSplit | None = None,
    project: bool = True,
    checkpointer: Any = None,  # noqa: ANN401 - any LangGraph checkpointer
) -> tuple[CompiledStateGraph[Any], LegalDesk]:
    """The compiled agent and its tools.

    Args:
        model: A chat model (a ``ScriptedChatModel`` in tests, a real one otherwise).
        corpus: The documents; the bundled corpus by default.
        split: The grounding split; ``GroundingSplit(BUDGETS)`` by default.
        project: Project artifacts away before each model call (only a test turns it off).
        checkpointer: Where state is saved; an ``InMemorySaver`` by default.
    """
    desk = LegalDesk(corpus or Corpus())
    split = split or GroundingSplit(BUDGETS)
    guard = FigureGuard(load_policy(HERE / "guard.toml"))
    bound = model.bind_tools(desk.tools)

    def agent(state: MessagesState) -> dict[str, Any]:
        messages = state["messages"]
        view = project_for_model(messages) if project else list(messages)
        return {"messages": [bound.invoke([SystemMessage(SYSTEM_PROMPT), *view])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", grounded_tool_node(desk.tools, split, guard=guard))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=checkpointer or InMemorySaver()), desk


def model_from_environment() -> BaseChatModel | None:
    """The model named by ``TRACEGRADE_MODEL``, or ``None`` when no provider is configured.

    The name is ``provider:model`` (``openai:gpt-4o-mini``), as ``init_chat_model`` takes it;
    the provider's LangChain package must be installed.
    """
    name = os.environ.get("TRACEGRADE_MODEL")
    if not name:
        return None
    from langchain.chat_models import init_chat_model  # noqa: PLC0415 - only with a provider

    return init_chat_model(name, temperature=0)
