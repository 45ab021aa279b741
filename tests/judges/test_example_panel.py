"""The example project's judge-panel suite: outcomes, citations and judge cost."""

from __future__ import annotations

from examples.project.judge_panel import TOUCHPOINT, judge_panel, panel_cases
from tracegrade.cost import collect_calls


def test_the_example_panel_passes_the_cases_with_a_verdict_and_good_citations() -> None:
    with collect_calls("run-1", TOUCHPOINT) as calls:
        outcomes = judge_panel(1)
    assert [(o.case, o.outcome, o.repeat) for o in outcomes] == [
        ("control/read-source", "passed", 1),
        ("control/listing-guess", "failed", 1),
        ("open/grep-only", "failed", 1),
        ("open/docs-and-source", "passed", 1),
    ]
    assert outcomes[1].detail == "cited what the run never observed: billing/config.py:4"
    assert outcomes[2].detail == (
        "panel split {'supported': 2, 'unsupported': 2}; cited what the run never observed:"
        " billing/config.py:4"
    )
    # 2 judges x 2 repeats x 4 cases, role judge; local-judge-v1 has no price.
    assert len(calls) == 16
    assert {(c.run_id, c.touchpoint, c.role) for c in calls} == {("run-1", TOUCHPOINT, "judge")}
    priced = {c.model for c in calls if c.cost_usd is not None}
    unpriced = {c.model for c in calls if c.cost_usd is None}
    assert (priced, unpriced) == ({"gpt-4o-mini"}, {"local-judge-v1"})


def test_the_example_has_two_controls_beside_two_open_cases() -> None:
    cases = panel_cases()
    assert [(c.id, c.expected) for c in cases] == [
        ("read-source", "supported"),
        ("listing-guess", "unsupported"),
        ("grep-only", None),
        ("docs-and-source", None),
    ]
