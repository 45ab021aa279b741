"""Stores the results-UI tests read: the example project actually run, and a hostile trace.

``fill_example_store`` runs ``examples/project`` twice (the first run promoted as the
baseline), then adds a proposal, so every page has real data. ``hostile_project`` writes
a one-touchpoint project whose only trace carries script tags, ``onerror=`` attributes
and ``javascript:`` links in a tool result and in the answer, and runs it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.evals import load_project, run_evals
from tracegrade.store import ProposalRecord, open_store

if TYPE_CHECKING:
    from tracegrade.evals import Project
    from tracegrade.store import Store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project" / "tracegrade.toml"
TOKEN = "web-test-token"  # noqa: S105 - a test's admin token

SCRIPT = "<script>window.__pwned = 1; alert('script')</script>"
IMAGE = '<img src="http://evil.invalid/x.png" onerror="alert(\'onerror\')">'
LINK = "<a href=\"javascript:alert('link')\">click me</a>"
HOSTILE = f"{SCRIPT} {IMAGE} {LINK}"


def example_project() -> Project:
    """The example project's registry."""
    return load_project(EXAMPLE, registered=())


def add_proposal(store: Store, touchpoint: str = "refund_window_grader") -> int:
    """Store a proposed change of the touchpoint's suite file; return its id."""
    return store.add_proposal(
        ProposalRecord(
            touchpoint=touchpoint,
            file="../suite.toml",
            base_sha256="a" * 64,
            proposed_sha256="b" * 64,
            diff="--- a/suite.toml\n+++ b/suite.toml\n@@ -1 +1 @@\n-old\n+new\n",
            rationale="Say which file is the one true source.",
            author="reviewer",
            drafted_by="person",
        )
    )


def fill_example_store(url: str) -> tuple[str, str]:
    """Run the example project twice into ``url`` (the first promoted); return both run ids."""
    project = example_project()
    store = open_store(url)
    try:
        first = run_evals(project, store, run_id="example-run-1", backoff=0.0)
        store.promote_baseline(first.run_id)
        second = run_evals(project, store, run_id="example-run-2", backoff=0.0)
        add_proposal(store)
    finally:
        store.close()
    return first.run_id, second.run_id


def hostile_trace() -> dict[str, object]:
    """A native trace whose tool result and answer are hostile markup."""
    return {
        "id": "hostile",
        "commit": "v1",
        "model": "scripted-model",
        "outcome": "success",
        "tokens": [10, 20, 30, 40],
        "task": f"What is the refund window? {SCRIPT}",
        "frames": [
            {"type": "user", "content": f"What is the refund window? {LINK}"},
            {"type": "tool_call", "id": "c1", "name": "read_file", "args": {"path": IMAGE}},
            {
                "type": "tool_result",
                "id": "c1",
                "ok": True,
                "result": {
                    "ok": True,
                    "file": "billing/config.py",
                    "lines": 2,
                    "truncated": False,
                    "content": f"REFUND_WINDOW_DAYS = 45\n{HOSTILE}\n",
                },
            },
            {
                "type": "assistant",
                "content": f"billing/config.py sets 45 days. {HOSTILE} It costs $1,234,567.",
            },
        ],
    }


def hostile_project(folder: Path) -> Project:
    """Write a project with one grade touchpoint over the hostile trace, and load it."""
    (folder / "traces").mkdir(parents=True, exist_ok=True)
    (folder / "traces" / "hostile.json").write_text(json.dumps(hostile_trace()), encoding="utf-8")
    (folder / "suite.toml").write_text(
        """
[suite]
traces = "traces"

[[questions]]
id = "refund"
prompt = "What is the refund window?"
facts = [{id = "file", text = "billing/config.py"}, {id = "days", text = "45"},
         {id = "script", text = "<script>"}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"

[[cases]]
trace = "hostile.json"
question = "refund"
expect = {answer = "success"}
""",
        encoding="utf-8",
    )
    (folder / "tracegrade.toml").write_text(
        """
[[touchpoints]]
id = "hostile_grader"
kind = "agent_recipe"
owner = "<b>owner</b>"
suite = "suite.toml"
severity_on_fail = "warn"
description = "<script>alert('description')</script>"
""",
        encoding="utf-8",
    )
    return load_project(folder / "tracegrade.toml", registered=())


def fill_hostile_store(folder: Path, url: str) -> Project:
    """Run the hostile project into ``url``; return the project."""
    project = hostile_project(folder)
    store = open_store(url)
    try:
        run_evals(project, store, run_id="hostile-run", backoff=0.0)
    finally:
        store.close()
    return project
