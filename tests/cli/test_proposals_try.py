"""``tracegrade proposals try`` and the approve gate, from the CLI, on the example project."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tests.cli.runner import Outcome, run_cli
from tests.proposals.example import PROMPT, TOUCHPOINT, copy_example

if TYPE_CHECKING:
    from pathlib import Path


class Example:
    def __init__(self, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.folder, self.capsys = folder, capsys

    def cli(self, *args: str) -> Outcome:
        return run_cli(self.capsys, *args, "--project", str(self.folder))

    def propose(self, name: str) -> str:
        made = self.cli(
            "proposals", "new", TOUCHPOINT, PROMPT, "--from", str(self.folder / name),
            "--rationale", f"try {name}", "--author", "ana", "--format", "json",
        )  # fmt: skip
        assert made.code == 0, made.err
        return str(json.loads(made.out)["id"])

    def tried(self, number: str, *extra: str) -> dict[str, Any]:
        result = self.cli("proposals", "try", number, "--format", "json", *extra)
        assert result.code == 0, result.err
        found: dict[str, Any] = json.loads(result.out)["comparison"]
        return found


@pytest.fixture
def example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Example:
    return Example(copy_example(tmp_path / "refunds"), capsys)


def test_try_prints_the_gain_its_interval_and_the_fixed_cases(example: Example) -> None:
    number = example.propose("fix.md")
    result = example.cli("proposals", "try", number)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == f"proposal #{number} tried on {TOUCHPOINT}"
    assert lines[2].startswith("metric       0.700 -> 1.000  (+0.300; 95% bootstrap interval +0.")
    assert "6 fixed, 0 broken (McNemar exact p = 0.03125)" in lines[3]
    assert lines[4] == "cases        6 fixed, 14 unchanged"
    assert lines[5].startswith("  fixed      refund-currency-00, refund-currency-01,")
    assert lines[6] == "cost         base: no model calls"
    assert lines[-1] == "verdict      better: a significant gain (McNemar p = 0.03125 < 0.05)"


def test_try_json_and_show_carry_the_comparison(example: Example) -> None:
    number = example.propose("reworded.md")
    found = example.tried(number, "--repeats", "2")
    assert (found["verdict"], found["pairs"], found["p_value"]) == ("noise", 40, 1.0)
    shown = example.cli("proposals", "show", number)
    assert "verdict      not better than noise (McNemar p = 1, not below 0.05)" in shown.out
    as_json = json.loads(example.cli("proposals", "show", number, "--format", "json").out)
    assert as_json["shadow"]["verdict"] == "noise"


def test_approve_warns_on_noise_and_require_improvement_refuses(example: Example) -> None:
    noise, harm = example.propose("reworded.md"), example.propose("shorter.md")
    example.tried(noise)
    assert example.tried(harm)["broken_block"][:2] == ["refund-cite-00", "refund-cite-01"]

    refused = example.cli(
        "proposals", "approve", harm, "--yes", "--by", "ana", "--require-improvement"
    )
    assert refused.code == 2
    assert refused.err.startswith(
        f"tracegrade: error: not approved: proposal {harm} breaks 10 case(s) of block"
        " touchpoint refund_answer (refund-cite-00,"
    )
    assert len(refused.err.strip().splitlines()) == 1
    refused = example.cli(
        "proposals", "approve", noise, "--yes", "--by", "ana", "--require-improvement"
    )
    assert refused.code == 2
    assert "shadow run is not better than noise" in refused.err

    warned = example.cli("proposals", "approve", noise, "--yes", "--by", "ana")
    assert warned.code == 0  # approving is still a person's act
    assert warned.out == f"proposal #{noise} approved by ana\n"
    assert warned.err.startswith(f"warning: proposal {noise}'s shadow run is not better than noise")


def test_a_gain_passes_require_improvement(example: Example) -> None:
    number = example.propose("fix.md")
    example.tried(number)
    passed = example.cli(
        "proposals", "approve", number, "--yes", "--by", "ana", "--require-improvement"
    )
    assert (passed.code, passed.err) == (0, "")


def test_try_refuses_bad_input_in_one_line(example: Example) -> None:
    unknown = example.cli("proposals", "try", "42")
    assert (unknown.code, unknown.err.strip()) == (
        2,
        (
            "tracegrade: error: no proposal 42 in the store. Pass an id that `tracegrade proposals"
            " list` shows"
        ),
    )
    number = example.propose("fix.md")
    (example.folder / PROMPT).write_text("Edited.\n", encoding="utf-8")
    moved = example.cli("proposals", "try", number)
    assert moved.code == 2
    assert moved.err.startswith(f"tracegrade: error: {PROMPT} changed since proposal {number}")
    assert "no longer applies" in moved.err
    assert len(moved.err.strip().splitlines()) == 1
    listed = json.loads(example.cli("proposals", "list", "--format", "json").out)
    assert [p["status"] for p in listed["proposals"]] == ["proposed"]
