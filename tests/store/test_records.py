"""Store records: validation, UTC, and the pure baseline builder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pydantic
import pytest

from tests.test_exported_members import isort_order, public_members
from tracegrade import store as store_package
from tracegrade.store import CaseKey, CaseResultRecord, RunRecord, build_baselines

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def test_records_are_frozen_and_refuse_unknown_values() -> None:
    run = RunRecord(run_id="r", lane="fast", registry_version="1")
    with pytest.raises(pydantic.ValidationError):
        run.status = "finished"  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        RunRecord.model_validate({"run_id": "r", "lane": "f", "registry_version": "1", "x": 1})
    with pytest.raises(pydantic.ValidationError):
        CaseResultRecord.model_validate(
            {"run_id": "r", "touchpoint": "t", "case_id": "c", "outcome": "skipped"}
        )
    with pytest.raises(pydantic.ValidationError):
        CaseResultRecord(run_id="r", touchpoint="t", case_id="c", outcome="passed", repeat=-1)


def test_times_must_be_aware_and_are_kept_in_utc() -> None:
    with pytest.raises(pydantic.ValidationError):
        RunRecord(run_id="r", lane="f", registry_version="1", started_at=datetime(2026, 3, 1))
    later = T0.astimezone(timezone(timedelta(hours=-5)))
    run = RunRecord(run_id="r", lane="f", registry_version="1", started_at=later)
    assert run.started_at == T0
    assert run.started_at.tzinfo == UTC


def result(case_id: str, repeat: int, outcome: str, metric: float | None, tp: str = "t") -> object:
    return CaseResultRecord.model_validate(
        {
            "run_id": "r",
            "touchpoint": tp,
            "case_id": case_id,
            "repeat": repeat,
            "outcome": outcome,
            "metric": metric,
        }
    )


def test_a_baseline_averages_known_metrics_and_keeps_outcomes_in_repeat_order() -> None:
    results = [
        result("b", 1, "failed", None),
        result("b", 0, "passed", 0.5),
        result("a", 0, "infra", 1.0),
        result("z", 0, "passed", 0.0, tp="other"),
    ]
    baselines = build_baselines("r", results, touchpoint=None, promoted_at=T0)  # type: ignore[arg-type]
    assert [(b.touchpoint, b.metric, b.outcomes) for b in baselines] == [
        ("other", 0.0, {"z": ("passed",)}),
        ("t", 0.75, {"a": ("infra",), "b": ("passed", "failed")}),
    ]
    only = build_baselines("r", results, touchpoint="t", promoted_at=T0)  # type: ignore[arg-type]
    assert [b.touchpoint for b in only] == ["t"]
    assert build_baselines("r", results, touchpoint="none", promoted_at=T0) == []  # type: ignore[arg-type]


def test_case_keys_sort_by_touchpoint_case_and_repeat() -> None:
    keys = [CaseKey("t", "b", 0), CaseKey("t", "a", 1), CaseKey("s", "z", 0), CaseKey("t", "a", 0)]
    assert sorted(keys) == [keys[2], keys[3], keys[1], keys[0]]


def test_all_is_sorted_and_names_every_public_member() -> None:
    exported = store_package.__all__
    assert exported == sorted(exported, key=isort_order)
    assert sorted(public_members(store_package)) == sorted(exported)
