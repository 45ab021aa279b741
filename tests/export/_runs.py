"""Runs the exporter tests grade: one read from Phoenix spans, one native trace."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tests.testing._runs import UNGROUNDED

if TYPE_CHECKING:
    from pathlib import Path

TRACE_ID = "5b8efff798038103d269b633813fc60c"
ROOT_SPAN = "eee19b7ec3c1b173"
LLM_SPAN = "eee19b7ec3c1b174"
TOOL_SPAN = "eee19b7ec3c1b175"
ANSWER = "The window is 45 days and the fee is $25."


def _span(
    span_id: str, name: str, parent: str | None, kind: str, start: int, **attributes: Any
) -> dict[str, Any]:
    return {
        "name": name,
        "context": {"trace_id": TRACE_ID, "span_id": span_id},
        "span_kind": kind,
        "parent_id": parent,
        "start_time": f"2025-06-01T10:00:0{start}+00:00",
        "end_time": f"2025-06-01T10:00:0{start + 1}+00:00",
        "status_code": "OK",
        "attributes": {"openinference.span.kind": kind, **attributes},
        "events": [],
    }


def phoenix_spans() -> list[dict[str, Any]]:
    """An OpenInference agent run as Phoenix exports its spans: agent, tool, then LLM."""
    asked = "How long is the refund window, and what is the fee?"
    return [
        _span(
            ROOT_SPAN, "agent", None, "AGENT", 0, **{"input.value": asked, "output.value": ANSWER}
        ),
        _span(
            TOOL_SPAN,
            "read_policy",
            ROOT_SPAN,
            "TOOL",
            1,
            **{
                "tool.name": "read_policy",
                "input.value": "{}",
                "output.value": "Refunds are accepted within 30 days. The fee is $25.",
            },
        ),
        _span(
            LLM_SPAN,
            "ChatCompletion",
            ROOT_SPAN,
            "LLM",
            3,
            **{
                "llm.model_name": "gpt-4.1-mini",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": asked,
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": ANSWER,
            },
        ),
    ]


def write_runs(folder: Path) -> tuple[Path, Path]:
    """The span file and a native trace file (no spans) in ``folder``."""
    spans = folder / "phoenix-spans.json"
    spans.write_text(json.dumps(phoenix_spans()), encoding="utf-8")
    native = folder / "guess.json"
    native.write_text(UNGROUNDED, encoding="utf-8")
    return spans, native
