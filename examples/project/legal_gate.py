"""The legal assistant's agent-quality gate as a touchpoint suite: one repeat per call.

``tracegrade.toml`` names it as ``call = "examples.project.legal_gate:gate_repeat"``; the
runner calls it once per repeat and stores each case's run.
"""

from __future__ import annotations

from examples.legal_assistant.cases import CASES
from examples.legal_assistant.gate import run_case
from tracegrade.contract import GateResult, run_gate


def gate_repeat(repeat: int) -> GateResult:
    """Run every gate case once (repeat ``repeat``) with the scripted model."""
    return run_gate(CASES, lambda case, _: run_case(case, repeat), repeats=1)
