"""Both engines give the same whole results on generated traces (tests/engines/_generate.py).

The default run compares the first 400 inputs; the slow run the first 10,000 (the same
inputs on every run: a failure names the input number, and ``generated_input(number)``
rebuilds it). Every input is read, graded with no question and against its question, and
its calls replayed through the guard, under ``TRACEGRADE_CORE=python`` and under the
compiled core; the JSON of everything must be
identical, errors included (class and message), and no input may crash either engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.engines._generate import FAMILIES, generated_inputs
from tests.engines._harness import compare

if TYPE_CHECKING:
    from pathlib import Path

    from tests.engines._harness import Comparison

DEFAULT_INPUTS = 400
SLOW_INPUTS = 10_000


def _agree(comparison: Comparison) -> None:
    assert not comparison.differences, comparison.report()
    assert not comparison.crashes, comparison.report()


@pytest.fixture(scope="module")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> Comparison:
    return compare(generated_inputs(DEFAULT_INPUTS), tmp_path_factory.mktemp("inputs"))


def test_both_engines_agree_on_the_first_generated_inputs(default_run: Comparison):
    assert default_run.inputs == DEFAULT_INPUTS
    _agree(default_run)


@pytest.mark.slow
def test_both_engines_agree_on_ten_thousand_generated_inputs(tmp_path: Path):
    comparison = compare(generated_inputs(SLOW_INPUTS), tmp_path)
    assert comparison.inputs == SLOW_INPUTS
    _agree(comparison)


def test_the_generated_inputs_reach_every_rule(default_run: Comparison):
    # What the default inputs exercise, counted from the compiled engine's outcomes: if the
    # generator stopped making an input kind, the comparison above would still pass.
    seen = default_run.seen
    # Every family, read or refused: wrong types, unknown shapes, depth and truncation.
    assert seen["trace"] >= DEFAULT_INPUTS // 3
    assert seen["grade"] >= DEFAULT_INPUTS // 2
    assert seen["error:TraceFormatError"] >= 20
    assert seen["error:UnreadableResultError"] >= 20
    # Claims of every kind, read, named only and unsupported.
    kinds = {key.split(":")[1] for key in seen if key.startswith("claim:")}
    assert kinds >= {"figure", "path", "url", "id", "identifier", "date", "name", "quote"}
    supports = {key.split(":")[2] for key in seen if key.startswith("claim:")}
    assert supports == {"read", "named-only", "unsupported"}
    assert {"fact:read", "fact:unsupported"} <= set(seen)
    # The guard's replay allowed some calls and denied others (figures no source showed).
    assert seen["guard:allow"] >= 20
    assert seen["guard:deny"] >= 5
    # Provenance verdicts and redactions of the packaged rules.
    verdicts = {key for key in seen if key.startswith("provenance:")}
    assert len(verdicts) >= 4, verdicts
    assert sum(1 for key in seen if key.startswith("redacted:")) >= 12


def test_every_family_is_generated():
    families = {item.family for item in generated_inputs(DEFAULT_INPUTS)}
    assert families == set(FAMILIES)


def test_the_deep_inputs_lie_on_both_sides_of_the_limit(tmp_path: Path):
    deep = [item for item in generated_inputs(2000) if item.family == "deep"][:60]
    seen = compare(deep, tmp_path).seen
    assert seen["trace"] >= 10  # read: at most MAX_DEPTH levels
    assert seen["error:TraceFormatError"] >= 10  # refused: deeper
