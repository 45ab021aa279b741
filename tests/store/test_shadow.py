"""The shadow part of the SQL store: comparisons and auto-apply watches (SQLite, PostgreSQL)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
import sqlalchemy as sa

from tests.proposals.example import PROMPT, TOUCHPOINT, copy_example, proposed, set_model
from tracegrade.errors import InputError
from tracegrade.evals import load_project, run_evals
from tracegrade.proposals import apply_proposal, approve_proposal, propose, try_proposal
from tracegrade.store import ShadowComparisonRecord, WatchRecord, open_store
from tracegrade.store._schema import file_blobs

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tracegrade.store import SqlStore


@pytest.fixture
def sql(store_url: str) -> Iterator[SqlStore]:
    store = open_store(store_url)
    try:
        yield store
    finally:
        store.close()


def _comparison(proposal: int, verdict: str = "better") -> ShadowComparisonRecord:
    return ShadowComparisonRecord.model_validate(
        {
            "proposal_id": proposal,
            "touchpoint": "answer",
            "base_run": f"r{proposal}-base",
            "proposed_run": f"r{proposal}-proposed",
            "verdict": verdict,
            "comparison": {"p_value": 0.03125, "cases": [{"case": "a", "flip": "fixed"}]},
        }
    )


def test_comparisons_come_back_as_stored_newest_first(sql: SqlStore) -> None:
    first = sql.add_shadow_comparison(_comparison(1, "noise"))
    second = sql.add_shadow_comparison(_comparison(1))
    sql.add_shadow_comparison(_comparison(2, "worse"))
    found = sql.shadow_comparisons(proposal_id=1)
    assert [each.id for each in found] == [second, first]
    assert found[0].comparison == {"p_value": 0.03125, "cases": [{"case": "a", "flip": "fixed"}]}
    assert [each.verdict for each in sql.shadow_comparisons(touchpoint="answer")] == [
        "worse", "better", "noise",
    ]  # fmt: skip
    assert sql.shadow_comparisons(proposal_id=3) == []


def _watch() -> WatchRecord:
    return WatchRecord(
        proposal_id=1,
        touchpoint="answer",
        prior_version="v1",
        applied_version="v2",
        reference=0.7,
        allowed_drop=0.1,
        runs_to_watch=2,
    )


def test_a_watch_moves_until_it_closes_and_then_is_final(sql: SqlStore) -> None:
    number = sql.add_watch(_watch())
    assert [w.status for w in sql.watches("answer", status="watching")] == ["watching"]
    held = sql.update_watch(number, runs=["r1"], status="watching", reason="1 of 2 held")
    assert (held.runs, held.closed_at) == (["r1"], None)
    closed = sql.update_watch(
        number,
        runs=["r1", "r2"],
        status="rolled_back",
        reason="r2 dropped",
        rolled_back_to="v1.r1",
        rolled_back_by="tracegrade auto-apply watch (run r2)",
    )
    assert closed.closed_at is not None
    assert sql.watches("answer") == [closed]
    assert sql.watches("answer", status="watching") == []
    with pytest.raises(InputError, match="is rolled_back already"):
        sql.update_watch(number, runs=["r1", "r2", "r3"], status="kept", reason="late")
    with pytest.raises(InputError, match="no auto-apply watch 99"):
        sql.update_watch(99, runs=[], status="kept", reason="x")


def test_a_rollback_that_cannot_restore_says_so_and_the_run_still_concludes(
    sqlite_url: str, tmp_path: Path
) -> None:
    project = load_project(copy_example(tmp_path / "refunds") / "tracegrade.toml")
    store = open_store(sqlite_url)
    try:
        for _ in range(3):
            run_evals(project, store)
        made = propose(
            store, project, TOUCHPOINT, PROMPT, proposed(project.root, "fix.md"),
            rationale="ask for the currency", author="ana",
        )  # fmt: skip
        number = made.id or 0
        approve_proposal(store, number, by="ana")
        try_proposal(store, project, number)
        apply_proposal(store, project, number, by="nightly", auto=True)
        [watch] = store.watches(TOUCHPOINT)
        [prior] = [
            v for v in store.touchpoint_versions(TOUCHPOINT) if v.version == watch.prior_version
        ]
        lost = prior.hashes[PROMPT]
        with store._engine.begin() as connection:  # the prior content lost from the store
            connection.execute(sa.delete(file_blobs).where(file_blobs.c.sha256 == lost))
        set_model(project.root, "v2")
        dropped = run_evals(project, store)
        assert store.get_run(dropped.run_id).status == "finished"  # type: ignore[union-attr]
        [watch] = store.watches(TOUCHPOINT)
        assert watch.status == "watching"
        assert f"but rolling back to {prior.version} failed" in watch.reason
        [signal] = store.signals(TOUCHPOINT, processed=False)
        assert signal.payload["rule"] == "auto-apply-rollback-failed"
        assert (project.root / PROMPT).read_text(encoding="utf-8") == proposed(
            project.root, "fix.md"
        )
    finally:
        store.close()
