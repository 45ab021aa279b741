"""compare_shadow over hand-made results (pure), and the cost of a shadow run's two versions."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

from tracegrade.evals import compare_shadow, load_project, run_shadow
from tracegrade.store import CaseResultRecord, open_store

if TYPE_CHECKING:
    from pathlib import Path


def _results(run: str, outcomes: dict[tuple[str, int], str]) -> list[CaseResultRecord]:
    return [
        CaseResultRecord(
            run_id=run, touchpoint="t", case_id=case, repeat=repeat, outcome=outcome, metric=None
        )
        for (case, repeat), outcome in outcomes.items()
    ]


def test_pairs_flips_and_infra_worked_by_hand() -> None:
    before = _results(
        "b",
        {
            ("a", 0): "failed", ("a", 1): "failed",  # fixed in both repeats
            ("b", 0): "passed", ("b", 1): "passed",  # broken in one repeat
            ("c", 0): "infra", ("c", 1): "passed",  # repeat 0 unpaired
            ("gone", 0): "passed",
        },
    )  # fmt: skip
    after = _results(
        "p",
        {
            ("a", 0): "passed", ("a", 1): "passed",
            ("b", 0): "passed", ("b", 1): "error",
            ("c", 0): "passed", ("c", 1): "passed",
            ("new", 0): "failed",
        },
    )  # fmt: skip
    trial = compare_shadow("t", "block", ("b", before), ("p", after), repeats=2)
    # Paired: a0 a1 (fixed), b0 (same), b1 (broken), c1 (same). Left out: c0 on both sides
    # (infra before), gone0 and new0: four results of fourteen.
    assert (trial.pairs, trial.unpaired) == (5, 4)
    assert (trial.fixed_pairs, trial.broken_pairs) == (2, 1)
    assert trial.p_value == 1.0  # 2 * (1 + 3) / 8, capped
    assert trial.verdict == "noise"
    assert {case.case: case.flip for case in trial.cases} == {
        "a": "fixed", "b": "broken", "c": "unchanged", "gone": "gone", "new": "new",
    }  # fmt: skip
    assert trial.broken_block == ("b",)
    assert trial.before == pytest.approx(4 / 6)  # passed / measured, infra left out
    assert trial.after == pytest.approx(5 / 7)
    warn = compare_shadow("t", "warn", ("b", before), ("p", after), repeats=2)
    assert warn.broken_block == ()  # only a block touchpoint's broken cases are named


SUITE = """
from pathlib import Path

from tracegrade.cost import record_ai_call
from tracegrade.evals import CaseOutcome

HERE = Path(__file__).parent


def suite(repeat):
    calls = int((HERE / "calls.txt").read_text())
    for _ in range(calls):
        record_ai_call(None, "gpt-4o-mini", {"input_tokens": 1000, "output_tokens": 100}, 0.1)
    record_ai_call(None, "gpt-4o-mini", {"input_tokens": 500, "output_tokens": 50}, 0.1, "judge")
    return [CaseOutcome(case="one", outcome="passed")]
"""

CONTRACT = """
[[touchpoints]]
id = "costly"
kind = "prompt"
owner = "t"
suite_kind = "callable"
call = "{module}:suite"
severity_on_fail = "warn"
files = ["calls.txt"]
"""


def _project(folder: Path, calls: int) -> Path:
    folder.mkdir()
    module = f"costly_{folder.name}"
    (folder / f"{module}.py").write_text(SUITE, encoding="utf-8")
    (folder / "calls.txt").write_text(str(calls), encoding="utf-8")
    (folder / "tracegrade.toml").write_text(CONTRACT.format(module=module), encoding="utf-8")
    sys.modules.pop(module, None)
    return folder / "tracegrade.toml"


def test_each_version_pays_its_own_calls_agent_apart_from_judge(tmp_path: Path) -> None:
    base = load_project(_project(tmp_path / "base", 1))
    proposed_folder = tmp_path / "proposed"
    proposed_folder.mkdir()
    for name in ("tracegrade.toml", "costly_base.py"):
        (proposed_folder / name).write_bytes((tmp_path / "base" / name).read_bytes())
    (proposed_folder / "calls.txt").write_text("3", encoding="utf-8")  # the change: 3 agent calls
    proposed = load_project(proposed_folder / "tracegrade.toml")
    store = open_store(f"sqlite:///{tmp_path / 'results.db'}")
    try:
        trial = run_shadow(store, base, proposed, "costly", repeats=2)
    finally:
        store.close()
    assert (trial.cost_before.agent.calls, trial.cost_before.judge.calls) == (2, 2)
    assert (trial.cost_after.agent.calls, trial.cost_after.judge.calls) == (6, 2)
    # gpt-4o-mini: $0.15 / M input, $0.60 / M output.
    agent_call = (1000 * 0.15 + 100 * 0.60) / 1e6
    assert trial.cost_after.agent.cost_usd == pytest.approx(6 * agent_call)
    assert trial.cost_before.judge.cost_usd == pytest.approx(2 * (500 * 0.15 + 50 * 0.60) / 1e6)
