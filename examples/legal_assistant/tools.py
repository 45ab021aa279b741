"""The assistant's tools: search, a capped document read with a deep-read mode, a spreadsheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.tools import BaseTool, tool

from tracegrade.contract.langgraph import ServedDocument, ServedSearch

if TYPE_CHECKING:
    from examples.legal_assistant.corpus import Corpus


class LegalDesk:
    """The tools of one agent, over one corpus; ``written`` records the spreadsheets made."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.written: list[dict[str, Any]] = []

        @tool(response_format="content_and_artifact")
        def search_knowledge(query: str) -> tuple[str, ServedSearch]:
            """Search the loan and mortgage documents; returns document keys with a snippet."""
            ranking = corpus.search(query)
            payload = ServedSearch(
                tool="search_knowledge", query=query, hits=ranking.hits, stages=ranking.stages
            )
            content = "\n".join(f"[{key}] {text}" for key, text in ranking.hits)
            return content, payload

        @tool(response_format="content_and_artifact")
        def read_knowledge_document(
            resource_key: str,
            start: int = 0,
            deep: bool = False,  # noqa: FBT001, FBT002 - a tool argument the model sets
        ) -> tuple[str, ServedDocument | None]:
            """Read a document by key from character ``start``, or whole with ``deep=True``.

            Long reads are capped: read on from where the text stops.
            """
            document = corpus.get(resource_key)
            if document is None:
                return f"No document has the key {resource_key!r}; search first.", None
            mode = "deep read" if deep else f"from character {start}"
            header = (
                f"{document.title} [{document.resource_key}] ({document.resource_type},"
                f" {len(document.text)} characters, {mode}):\n"
            )
            segments = document.sections() if deep else ((start, document.text[start:]),)
            payload = ServedDocument(
                resource_type=document.resource_type,
                resource_key=document.resource_key,
                title=document.title,
                total_chars=len(document.text),
                segments=segments,
                deep=deep,
                header=header,
            )
            return header + "\n".join(text for _, text in segments), payload

        @tool
        def create_spreadsheet(file_name: str, sheets: list[dict[str, Any]]) -> str:
            """Write a spreadsheet: each sheet has a ``header`` list and ``rows`` of cells."""
            self.written.append({"file_name": file_name, "sheets": sheets})
            rows = sum(len(sheet.get("rows", [])) for sheet in sheets)
            return f"created {file_name} with {rows} row(s)"

        self.tools: list[BaseTool] = [search_knowledge, read_knowledge_document, create_spreadsheet]
