"""Builders for traces with grounding artifacts (schema version 2 native traces)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.helpers.builders import make_trace

if TYPE_CHECKING:
    from tracegrade.traces import Trace

JSON = dict[str, Any]

LOAN = (
    "LOAN AGREEMENT. The Lender agrees to lend the Borrower a principal amount of $1,500,000. "
    "Interest accrues at 5.25% per annum. The Borrower shall repay the loan within 30 days "
    "of demand. An Event of Default occurs if any payment is late."
)
LEASE = "LEASE. The Tenant pays rent of $4,000 per month under Section 4.2. Term: 24 months."


def touch(result_ids: list[str], tool: str = "search_documents", query: str = "loan") -> JSON:
    return {"kind": "touch", "tool": tool, "query": query, "result_ids": result_ids}


def document_read(
    key: str = "loan-2023",
    *,
    title: str = "Loan Agreement",
    total: int = len(LOAN),
    served: tuple[int, int] | None = None,
    deep: list[tuple[int, int]] | None = None,
) -> JSON:
    artifact: JSON = {
        "kind": "document_read",
        "resource_type": "loan_agreement",
        "resource_key": key,
        "title": title,
        "total_chars": total,
    }
    if deep is not None:
        artifact |= {"coverage_mode": "deep-read", "read_evidence": [list(r) for r in deep]}
    else:
        artifact["body_served_range"] = list(served or (0, total))
    return artifact


def tool_step(call_id: str, name: str, result: Any, artifact: JSON | None = None) -> list[JSON]:
    """A tool call and its result (frames ``2k+1`` and ``2k+2`` after the question)."""
    frame: JSON = {"type": "tool_result", "id": call_id, "ok": True, "result": result}
    if artifact is not None:
        frame["artifact"] = artifact
    return [{"type": "tool_call", "id": call_id, "name": name, "args": {}}, frame]


def contract_trace(steps: list[list[JSON]], answer: str, trace_id: str = "run-1") -> Trace:
    """Question at frame 0, each step's two frames, then the answer as the last frame."""
    frames: list[JSON] = [{"type": "user", "content": "What are the loan terms?"}]
    for step in steps:
        frames.extend(step)
    frames.append({"type": "assistant", "content": answer})
    return make_trace(frames, schema_version=2, id=trace_id)


def read_loan(call_id: str = "c1", **kwargs: Any) -> list[JSON]:
    """A complete direct read of the loan agreement, serving its whole text."""
    return tool_step(call_id, "read_document", LOAN, document_read(**kwargs))
