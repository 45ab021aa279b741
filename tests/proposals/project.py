"""A small project for the improvement loop's tests: one prompt file, one suite that reads it.

The suite has ``CASES`` cases; each passes when the prompt asks the agent to cite its
source, and ``knob.txt`` (when present) caps how many pass, so a test can make any run
pass or fail through the real runner.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

CASES = 20
PROMPT = "Answer the customer's question from the retrieved documents.\n"
BETTER = PROMPT + "Cite the source of every figure you give.\n"

SUITE = """
from pathlib import Path

from tracegrade.evals import CaseOutcome

HERE = Path(__file__).parent


def suite(repeat):
    prompt = (HERE / "prompts" / "answer.md").read_text(encoding="utf-8")
    knob = HERE / "knob.txt"
    cap = int(knob.read_text()) if knob.exists() else {cases}
    for n in range({cases}):
        if "Cite the source" not in prompt:
            yield CaseOutcome(
                case=f"refund-{{n:02}}",
                outcome="failed",
                detail=f"answer cites no source for the figure in frame {{n + 3}}",
            )
        elif n >= cap:
            yield CaseOutcome(case=f"refund-{{n:02}}", outcome="failed", detail="wrong fee")
        else:
            yield CaseOutcome(case=f"refund-{{n:02}}", outcome="passed")
"""

CONTRACT = """
[[touchpoints]]
id = "answer_prompt"
kind = "prompt"
owner = "support"
suite_kind = "callable"
call = "{module}:suite"
severity_on_fail = "{severity}"
files = ["prompts/answer.md"]
baseline = {{min = 0.9}}
graduation = {{window = {window}, threshold = {threshold}}}
"""


def write_project(
    folder: Path,
    *,
    prompt: str = PROMPT,
    severity: str = "block",
    window: int = 3,
    threshold: float = 0.85,
) -> Path:
    """Write the project into ``folder`` (created) and return it."""
    (folder / "prompts").mkdir(parents=True, exist_ok=True)
    module = f"answer_suite_{folder.name.replace('-', '_')}"
    (folder / f"{module}.py").write_text(SUITE.format(cases=CASES), encoding="utf-8")
    sys.modules.pop(module, None)  # a module of that name may be cached from another test
    (folder / "prompts" / "answer.md").write_text(prompt, encoding="utf-8")
    (folder / "tracegrade.toml").write_text(
        CONTRACT.format(module=module, severity=severity, window=window, threshold=threshold),
        encoding="utf-8",
    )
    return folder


def set_passing(folder: Path, count: int | None) -> None:
    """Cap how many cases pass (``None``: all of them)."""
    knob = folder / "knob.txt"
    if count is None:
        knob.unlink(missing_ok=True)
    else:
        knob.write_text(str(count), encoding="utf-8")
