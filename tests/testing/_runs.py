"""Trace files and a project that the pytester sessions of these tests read."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tests.testing.conftest import plugin_args

if TYPE_CHECKING:
    from pathlib import Path

ASKED = "How long is the refund window, and what does the fee cost?"
POLICY = "Refunds are accepted within 30 days of delivery.\nThe restocking fee is $25.\n"


def run(answer: str, *, run_id: str = "refund-run") -> str:
    """A native trace: one read_file of the policy, then ``answer``."""
    frames = [
        {"type": "user", "content": ASKED},
        {"type": "tool_call", "id": "c1", "name": "read_file", "args": {"path": "policy.md"}},
        {
            "type": "tool_result",
            "id": "c1",
            "ok": True,
            "result": {
                "ok": True,
                "file": "policy.md",
                "lines": 2,
                "truncated": False,
                "content": POLICY,
            },
        },
        {"type": "assistant", "content": answer},
    ]
    return json.dumps(
        {
            "id": run_id,
            "commit": "v1",
            "model": "m",
            "task": ASKED,
            "outcome": "success",
            "tokens": [0] * len(frames),
            "frames": frames,
        }
    )


GROUNDED = run("The window is 30 days and the fee is $25.", run_id="grounded-run")
UNGROUNDED = run("The window is 45 days and the fee is $25, or $40 abroad.", run_id="guess-run")

QUESTIONS = """
[[questions]]
id = "window"
facts = [{id = "days", text = "30 days"}]
truth_file = "policy.md"
tell = "within 30 days"

[[questions]]
id = "fee"
truth_file = "fees.md"
tell = "$25"
"""


def project(folder: Path, touchpoint: str = "refund_agent", *, min_share: float = 0.0) -> Path:
    """A tracegrade.toml whose touchpoint runs this folder's tests through pytest."""
    # Loaded by name only when the installed package does not load it by its entry point.
    loading = ", ".join(f'"{arg}"' for arg in plugin_args())
    text = f"""
[store]
url = "sqlite:///.tracegrade/tracegrade.db"

[[touchpoints]]
id = "{touchpoint}"
kind = "agent_recipe"
owner = "tests"
suite_kind = "command"
command = ["python", "-m", "pytest", "-q", {loading},
           "--tracegrade-report", "grades.json"]
output_format = "json"
output = "grades.json"
severity_on_fail = "block"
baseline = {{min = {min_share}}}
"""
    path = folder / "tracegrade.toml"
    path.write_text(text, encoding="utf-8")
    return path
