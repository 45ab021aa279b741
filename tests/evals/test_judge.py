"""The fail rule with numbers, the unstable flag, metrics, spreads, exit codes and drift."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracegrade.evals import (
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_INFRA,
    Baseline,
    CaseOutcome,
    FileDrift,
    Metric,
    Severity,
    Spread,
    Touchpoint,
    TouchpointVerdict,
    drift,
    exit_code,
    judge,
    metric_for,
    spread,
)


def contract(
    severity: Severity = "block",
    *,
    min_: float = 0.8,
    max_drop: float = 0.05,
    band: float = 0.02,
    touchpoint_id: str = "search_knowledge",
) -> Touchpoint:
    return Touchpoint(
        id=touchpoint_id,
        kind="tool",
        owner="retrieval-team",
        suite_kind="grade",
        suite="suites/grounding.toml",
        severity_on_fail=severity,
        variance_band=band,
        baseline=Baseline(min=min_, max_drop=max_drop),
    )


def metric(passed: int, failed: int = 0, infra: int = 0, error: int = 0) -> Metric:
    outcomes = ["passed"] * passed + ["failed"] * failed + ["infra"] * infra + ["error"] * error
    return metric_for("grade", outcomes)  # type: ignore[arg-type]


def share(value: float) -> Metric:
    """A metric of exactly ``value`` over 1000 cases."""
    passed = round(value * 1000)
    return metric(passed, 1000 - passed)


# -- metric -------------------------------------------------------------------------------


def test_metric_is_the_share_passed_among_measured():
    m = metric(passed=6, failed=2, infra=3, error=2)
    assert m.value == 0.6
    assert (m.passed, m.measured, m.errors, m.skipped) == (6, 10, 2, 3)
    assert m.name == "share of cases whose verdicts match their predictions"


def test_each_suite_kind_says_what_its_metric_is():
    names = {
        kind: metric_for(kind, []).name
        for kind in ("grade", "guard", "contract", "gate", "command", "callable")
    }
    assert names["guard"] == "share of write calls with every figure sourced"
    assert names["gate"] == "share of passing case runs"
    assert len(set(names.values())) == 6


def test_nothing_measured_is_unknown_not_zero():
    assert metric_for("gate", []).value is None
    only_infra = metric_for("gate", [CaseOutcome(case="a", outcome="infra")])
    assert only_infra.value is None
    assert only_infra.infra_only
    assert only_infra.skipped == 1
    assert metric(0, 3).value == 0.0


@given(st.lists(st.sampled_from(["passed", "failed", "infra", "error"])))
def test_metric_is_a_share_or_none(outcomes: list[str]):
    m = metric_for("command", outcomes)  # type: ignore[arg-type]
    measured = [o for o in outcomes if o != "infra"]
    if measured:
        assert m.value is not None
        assert 0.0 <= m.value <= 1.0
        assert m.value == outcomes.count("passed") / len(measured)
    else:
        assert m.value is None
    assert m.skipped == outcomes.count("infra")


# -- the fail rule ------------------------------------------------------------------------
# min 0.8, max_drop 0.05, band 0.02: a drop of up to 0.07 from the baseline is allowed.


@pytest.mark.parametrize(
    ("value", "baseline", "status"),
    [
        (0.80, None, "held"),  # exactly min, no baseline
        (0.799, None, "failed-min"),  # just below min, no baseline
        (0.79, 0.80, "failed-min"),  # below min even with a tiny drop
        (0.83, 0.90, "held"),  # dropped exactly max_drop + band
        (0.829, 0.90, "regressed"),  # dropped just more
        (0.85, 0.90, "held"),  # dropped max_drop, inside the band too
        (0.87, 0.90, "held"),  # dropped less than max_drop
        (0.95, 0.90, "improved"),
        (0.90, 0.90, "held"),
        (0.75, 0.95, "failed-min"),  # both below min and regressed: min is named first
    ],
)
def test_the_fail_rule_with_numbers(value: float, baseline: float | None, status: str):
    verdict = judge(contract(), share(value), baseline)
    assert verdict.status == status
    assert verdict.failed == (status in {"failed-min", "regressed"})


def test_the_band_widens_the_allowed_drop():
    # Same drop of 0.06: fails with no band, holds with a 0.02 band.
    assert judge(contract(band=0.0), share(0.84), 0.90).status == "regressed"
    assert judge(contract(band=0.02), share(0.84), 0.90).status == "held"


def test_sentences_name_the_numbers():
    regressed = judge(contract(), share(0.82), 0.90).sentence
    assert regressed == (
        "search_knowledge regressed: 0.82 (820/1000 share of cases whose verdicts match their"
        " predictions) dropped 0.08 from baseline 0.9, more than max_drop 0.05 + band 0.02 = 0.07"
    )
    low = judge(contract(), share(0.7), None).sentence
    assert low.startswith("search_knowledge failed: 0.7 (700/1000 ")
    assert low.endswith("is below min 0.8")
    held = judge(contract(), share(0.85), None).sentence
    assert held.endswith("at least min 0.8, no baseline yet")
    up = judge(contract(), share(0.95), 0.9).sentence
    assert up.endswith("up 0.05 from baseline 0.9")


def test_a_verdict_records_the_terms_it_was_judged_by():
    verdict = judge(contract(), share(0.82), 0.90)
    assert verdict.min == 0.8
    assert math.isclose(verdict.allowed_drop, 0.07)
    assert verdict.delta is not None
    assert math.isclose(verdict.delta, -0.08)
    assert TouchpointVerdict.model_validate_json(verdict.model_dump_json()) == verdict


@given(
    baseline=st.floats(0.0, 1.0),
    rise=st.floats(0.0, 1.0),
    min_=st.floats(0.0, 1.0),
    max_drop=st.floats(0.0, 1.0),
    band=st.floats(0.0, 1.0),
)
def test_an_improvement_never_regresses_and_fails_only_below_min(
    baseline: float, rise: float, min_: float, max_drop: float, band: float
):
    value = min(1.0, baseline + rise)
    m = metric_for("gate", [])
    m = m.model_copy(update={"value": value, "passed": 1, "measured": 1})
    verdict = judge(contract(min_=min_, max_drop=max_drop, band=band), m, baseline)
    assert verdict.status != "regressed"
    if value >= min_:
        assert not verdict.failed
        assert verdict.status in {"held", "improved"}


@given(baseline=st.floats(0.0, 1.0), drop=st.floats(0.0, 0.07))
def test_a_drop_within_max_drop_plus_band_never_regresses(baseline: float, drop: float):
    value = max(0.0, baseline - drop)
    m = metric_for("gate", []).model_copy(update={"value": value, "passed": 1, "measured": 1})
    verdict = judge(contract(min_=0.0, max_drop=0.05, band=0.02), m, baseline)
    assert not verdict.failed


def test_infra_only_and_unmeasured():
    infra = judge(contract(), metric(0, infra=4), 0.9)
    assert (infra.status, infra.failed) == ("infra", False)
    assert "all 4 cases hit infrastructure failures" in infra.sentence
    nothing = judge(contract(), metric(0), 0.9)
    assert (nothing.status, nothing.failed) == ("unmeasured", False)


# -- spread and the unstable flag ---------------------------------------------------------


def test_spread_is_a_t_interval_of_the_repeat_means():
    s = spread([0.8, 0.9, 1.0])
    assert s.n == 3
    assert s.mean is not None
    assert math.isclose(s.mean, 0.9)
    # sd 0.1, se 0.1/sqrt(3), t(0.975, 2) = 4.303 -> half-width 0.2484; clipped at 1.
    assert s.low is not None
    assert math.isclose(s.low, 0.9 - 4.303 * 0.1 / math.sqrt(3), rel_tol=1e-9)
    assert s.high == 1.0
    assert s.range is not None
    assert math.isclose(s.range, 0.2)
    assert s.width is not None
    assert math.isclose(s.width, s.high - s.low)


def test_spread_of_many_repeats_uses_the_large_sample_quantile():
    s = spread([0.5, 0.7] * 50)  # df 99: t ~ 1.984
    assert s.low is not None
    assert s.mean is not None
    half = s.mean - s.low
    sd = math.sqrt(sum((v - 0.6) ** 2 for v in [0.5, 0.7] * 50) / 99)
    assert math.isclose(half, 1.9842 * sd / 10, rel_tol=1e-3)


def test_spread_of_fewer_than_two_values_is_unknown():
    assert spread([]) == Spread(n=0, mean=None)
    one = spread([0.7, None])
    assert (one.n, one.skipped, one.mean, one.low, one.range) == (1, 1, 0.7, None, None)


def test_a_range_wider_than_the_band_is_unstable_without_failing():
    wide = judge(contract(band=0.02), share(0.9), 0.9, spread([0.85, 0.9, 0.95]))
    assert wide.unstable
    assert not wide.failed
    assert "unstable: repeats ranged 0.1, wider than band 0.02" in wide.sentence
    assert "95% CI" in wide.sentence
    narrow = judge(contract(band=0.02), share(0.9), 0.9, spread([0.89, 0.9, 0.91]))
    assert not narrow.unstable  # range 0.02 equals the band
    single = judge(contract(band=0.0), share(0.9), 0.9, spread([0.9]))
    assert not single.unstable  # one repeat: the spread is unknown


# -- exit codes ---------------------------------------------------------------------------


def verdict_for(
    severity: Severity, value: float | None, baseline: float | None = 0.9
) -> TouchpointVerdict:
    tp = contract(severity, touchpoint_id=f"tp_{severity}")
    m = metric(0, infra=2) if value is None else share(value)
    return judge(tp, m, baseline)


def test_every_severity_holding_exits_0():
    verdicts = [verdict_for(s, 0.9) for s in ("block", "warn", "info", "infra")]
    decision = exit_code(verdicts)
    assert decision.code == EXIT_HELD
    assert decision.printed == ()


def test_a_block_regression_beyond_max_drop_and_band_exits_1():
    verdicts = [verdict_for("block", 0.82), verdict_for("warn", 0.9), verdict_for("info", 0.9)]
    decision = exit_code(verdicts)
    assert decision.code == EXIT_FAILED
    assert decision.blocking == ("tp_block",)
    assert [v.touchpoint for v in decision.printed] == ["tp_block"]


def test_a_warn_regression_exits_0_and_prints_a_warning():
    decision = exit_code([verdict_for("block", 0.9), verdict_for("warn", 0.82)])
    assert decision.code == EXIT_HELD
    assert [v.touchpoint for v in decision.printed] == ["tp_warn"]
    assert decision.printed[0].status == "regressed"


def test_an_info_failure_is_recorded_not_printed():
    decision = exit_code([verdict_for("info", 0.5)])
    assert decision.code == EXIT_HELD
    assert decision.printed == ()


def test_only_infra_problems_exit_3():
    decision = exit_code([verdict_for("block", None), verdict_for("warn", 0.9)])
    assert decision.code == EXIT_INFRA
    assert decision.infra == ("tp_block",)
    assert [v.status for v in decision.printed] == ["infra"]
    # An infra-severity touchpoint's failure is an infrastructure problem too.
    assert exit_code([verdict_for("infra", 0.5)]).code == EXIT_INFRA


def test_a_block_failure_outranks_infra():
    decision = exit_code([verdict_for("block", 0.5), verdict_for("warn", None)])
    assert decision.code == EXIT_FAILED
    assert decision.infra == ("tp_warn",)


def test_a_registry_with_every_severity_failing():
    verdicts = [verdict_for(s, 0.5) for s in ("block", "warn", "info", "infra")]
    decision = exit_code(verdicts)
    assert decision.code == EXIT_FAILED
    assert [v.touchpoint for v in decision.printed] == ["tp_block", "tp_warn", "tp_infra"]


def test_no_verdicts_exit_0():
    assert exit_code([]).code == EXIT_HELD


# -- drift --------------------------------------------------------------------------------


def test_drift_lists_changed_added_and_removed_files_by_path():
    baseline = {"prompts/a.md": "1", "prompts/b.md": "2", "prompts/c.md": "3"}
    current = {"prompts/a.md": "1", "prompts/b.md": "9", "prompts/d.md": "4"}
    assert drift(current, baseline) == (
        FileDrift("prompts/b.md", "changed", "2", "9"),
        FileDrift("prompts/c.md", "removed", "3", None),
        FileDrift("prompts/d.md", "added", None, "4"),
    )
    assert drift(current, current) == ()
    assert drift({}, {}) == ()


@given(
    st.dictionaries(st.sampled_from("abcde"), st.sampled_from("xyz")),
    st.dictionaries(st.sampled_from("abcde"), st.sampled_from("xyz")),
)
def test_drift_is_exactly_the_differing_paths(current: dict[str, str], baseline: dict[str, str]):
    found = drift(current, baseline)
    differing = {p for p in set(current) | set(baseline) if current.get(p) != baseline.get(p)}
    assert {f.path for f in found} == differing
    assert [f.path for f in found] == sorted(differing)
