"""Declarative decoders: a user's tool decoded from a TOML table alone."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from tests.cli.runner import run_cli
from tracegrade.errors import SuiteError
from tracegrade.observations import DeclaredDecoder, declared_decoders, observe
from tracegrade.suites import load_suite, run_suite
from tracegrade.traces import Trace

if TYPE_CHECKING:
    from pathlib import Path

RESULTS = {
    "results": [
        {"id": "kb-17", "title": "Refund policy", "excerpt": "Refunds within 45 days of delivery."},
        {"id": "kb-03", "title": "Shipping FAQ", "excerpt": "Most orders arrive in 5 days."},
    ]
}
SUITE = """
[[questions]]
id = "window"
facts = [{id = "days", text = "45 days"}]
truth_file = "Refund policy"
tell = "45 days"

[decoders.search_knowledge]
kind = "excerpt"
items = "results[*]"
id = "id"
source = "title"
text = "excerpt"

[[cases]]
trace = "run.json"
question = "window"
expect = {answer = "success", provenance = "grounded", unread = []}
"""


def _chat_run(folder: Path, content: object) -> Path:
    messages = [
        {"role": "user", "content": "How long is the refund window?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "search_knowledge", "arguments": '{"query": "refund"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": content},
        {"role": "assistant", "content": "You have 45 days to ask for a refund."},
    ]  # fmt: skip
    path = folder / "run.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


def test_a_retrieval_tool_is_decoded_from_toml_alone(tmp_path: Path):
    _chat_run(tmp_path, json.dumps(RESULTS))  # chat tools send JSON as text
    (tmp_path / "suite.toml").write_text(SUITE, encoding="utf-8")

    (result,) = run_suite(load_suite(tmp_path / "suite.toml"))

    assert result.mismatches == ()
    assert result.grade.as_text == ()  # decoded, not read as plain text
    (truth,) = result.grade.truth
    assert (truth.file, truth.line, truth.text) == (
        "Refund policy",
        1,
        RESULTS["results"][0]["excerpt"],
    )
    assert result.grade.claims[0].evidence == (truth.observation,)


def test_excerpts_keep_the_tools_ids():
    decoder = DeclaredDecoder.model_validate(
        {"kind": "excerpt", "items": "results[*]", "id": "id", "source": "title", "text": "excerpt"}
    )
    trace = Trace.model_validate(
        {
            "id": "t", "task": "q", "source_format": "openai-chat",
            "frames": [
                {"type": "tool_call", "id": "c1", "name": "search_knowledge", "args": {}},
                {"type": "tool_result", "id": "c1", "ok": True, "result": RESULTS},
            ],
        }
    )  # fmt: skip
    observed = list(observe(trace, decoders=declared_decoders({"search_knowledge": decoder})))
    assert [(o.file, o.line, o.ref) for o in observed] == [  # type: ignore[union-attr]
        ("Refund policy", 1, "kb-17"),
        ("Shipping FAQ", 2, "kb-03"),
    ]


def test_a_result_the_table_does_not_fit_falls_back_to_text_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    _chat_run(tmp_path, "search is down, try later")
    (tmp_path / "suite.toml").write_text(SUITE.replace("grounded", "unevidenced"), encoding="utf-8")

    result = run_cli(capsys, "grade", str(tmp_path / "suite.toml"))

    assert "  as text      1 result(s) with no decoder: search_knowledge" in result.out
    assert result.code == 1  # "45 days" now comes from nowhere: answer still says it


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('kind = "excerpt"\nitems = "results[*]"', "needs 'id', 'source', 'text'"),
        ('kind = "vector"', "kind"),
        ('kind = "line"\nitems = "rows[x]"\nfile = "f"\ntext = "t"', "items"),
        ('kind = "text"\nsorce = "title"', "not a known field"),
    ],
)
def test_a_bad_decoder_table_is_a_suite_error(tmp_path: Path, table: str, expected: str):
    (tmp_path / "suite.toml").write_text(f"[decoders.search_knowledge]\n{table}\n", "utf-8")
    with pytest.raises(SuiteError, match="decoders") as info:
        load_suite(tmp_path / "suite.toml")
    assert expected in str(info.value)
