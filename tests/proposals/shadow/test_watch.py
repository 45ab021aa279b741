"""Guarded auto-apply on the example project, with real runs on SQLite and PostgreSQL.

The example graduates after three runs (14/20 each). Its fix (ask for the currency) shows a
significant gain in a shadow run, so it may auto-apply; then a provider update (scripted
model ``v2``) makes that prompt lose its citations, the next run drops from 0.7 to 0.5,
beyond max_drop 0.05 + band 0.05, and the watch rolls the prompt back by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.proposals.example import (
    PROMPT,
    TOUCHPOINT,
    proposed,
    set_model,
)
from tracegrade.errors import InputError
from tracegrade.evals import run_evals
from tracegrade.proposals import (
    WATCHER,
    apply_proposal,
    approve_proposal,
    propose,
    try_proposal,
)

if TYPE_CHECKING:
    from tracegrade.evals import Project, RunReport
    from tracegrade.store import Store


def _run(store: Store, project: Project) -> RunReport:
    return run_evals(project, store)


def _graduated_with(store: Store, project: Project, name: str) -> int:
    """Three held runs (graduated), then a proposal of ``name``, approved by a person."""
    for _ in range(3):
        report = _run(store, project)
    graduation = report.touchpoints[0].graduation
    assert graduation is not None
    assert graduation.graduated, graduation.reason
    made = propose(
        store, project, TOUCHPOINT, PROMPT, proposed(project.root, name),
        rationale="ask for the currency", author="ana",
    )  # fmt: skip
    assert made.id is not None
    approve_proposal(store, made.id, by="ana")
    return made.id


def test_a_regression_after_an_auto_apply_is_rolled_back_without_a_person(
    store: Store, project: Project
) -> None:
    before = (project.root / PROMPT).read_text(encoding="utf-8")
    number = _graduated_with(store, project, "fix.md")
    prior = store.touchpoint_versions(TOUCHPOINT)[0].version
    _, trial = try_proposal(store, project, number)
    assert trial.significant_gain
    applied = apply_proposal(store, project, number, by="nightly", auto=True, watch_runs=2)
    assert (project.root / PROMPT).read_text(encoding="utf-8") == proposed(project.root, "fix.md")
    [watch] = store.watches(TOUCHPOINT)
    assert (watch.status, watch.prior_version, watch.applied_version) == (
        "watching", prior, applied.applied_version,
    )  # fmt: skip
    assert watch.reference == 0.7
    assert watch.allowed_drop == pytest.approx(0.1)

    set_model(project.root, "v2")  # a provider update the shadow run could not see
    dropped = _run(store, project)
    assert dropped.touchpoints[0].verdict.metric.value == 0.5  # 10 citations lost
    # Nobody ran a command: the run itself restored the prompt and recorded it.
    assert (project.root / PROMPT).read_text(encoding="utf-8") == before
    [watch] = store.watches(TOUCHPOINT)
    assert watch.status == "rolled_back"
    assert watch.runs == [dropped.run_id]
    assert watch.rolled_back_by == f"{WATCHER} (run {dropped.run_id})"
    assert "measured 0.500, 0.200 below 0.700" in watch.reason
    newest = store.touchpoint_versions(TOUCHPOINT)[0]
    assert newest.version == watch.rolled_back_to
    assert newest.version.startswith(prior)  # the prior state, recorded anew (.r1)
    assert newest.recorded_by == watch.rolled_back_by
    [signal] = store.signals(TOUCHPOINT, processed=False)
    assert signal.kind == "auto_rollback"
    assert signal.run_id == dropped.run_id
    assert signal.payload["restored"] == prior
    shown = dropped.touchpoints[0].watch
    assert shown is not None
    assert shown.startswith("auto-apply watch rolled_back: run ")

    again = _run(store, project)  # the restored prompt under v2: back to 14/20
    assert again.touchpoints[0].verdict.metric.value == 0.7
    assert again.touchpoints[0].watch is None  # the watch is closed


def test_runs_that_hold_keep_the_change(store: Store, project: Project) -> None:
    number = _graduated_with(store, project, "fix.md")
    try_proposal(store, project, number)
    apply_proposal(store, project, number, by="nightly", auto=True, watch_runs=2)
    first = _run(store, project)
    assert first.touchpoints[0].watch == "auto-apply watch watching: 1 of 2 runs held so far"
    _run(store, project)
    [watch] = store.watches(TOUCHPOINT)
    assert watch.status == "kept"
    assert len(watch.runs) == 2
    assert (project.root / PROMPT).read_text(encoding="utf-8") == proposed(project.root, "fix.md")
    assert store.signals(TOUCHPOINT, processed=False) == []


def test_a_hand_edit_after_the_auto_apply_ends_the_watch_and_is_never_overwritten(
    store: Store, project: Project
) -> None:
    number = _graduated_with(store, project, "fix.md")
    try_proposal(store, project, number)
    apply_proposal(store, project, number, by="nightly", auto=True)
    set_model(project.root, "v2")
    (project.root / PROMPT).write_text("Answer briefly.\n", encoding="utf-8")  # 0/20
    _run(store, project)
    [watch] = store.watches(TOUCHPOINT)
    assert watch.status == "kept"
    assert "files changed since the auto-apply" in watch.reason
    assert (project.root / PROMPT).read_text(encoding="utf-8") == "Answer briefly.\n"


def test_auto_apply_needs_a_shadow_run_that_shows_a_gain(store: Store, project: Project) -> None:
    number = _graduated_with(store, project, "shorter.md")
    with pytest.raises(InputError, match="was never tried"):
        apply_proposal(store, project, number, by="nightly", auto=True)
    try_proposal(store, project, number)
    with pytest.raises(InputError, match=r"breaks 10 case\(s\) of block touchpoint"):
        apply_proposal(store, project, number, by="nightly", auto=True)
    assert store.watches() == []
    applied = apply_proposal(store, project, number, by="ana")  # a person still may
    assert applied.status == "applied"
    assert store.watches() == []  # and nothing watches a person's apply
