"""The runner: dispatch, severities, the fail rule against stored baselines, infra, resume."""

from __future__ import annotations

import importlib
import importlib.util
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tracegrade.errors import InputError
from tracegrade.evals import (
    CaseOutcome,
    LocalExecutor,
    RayExecutor,
    Touchpoint,
    TouchpointEntry,
    compare_runs,
    load_project,
    run_evals,
)
from tracegrade.store import CaseResultRecord, InMemoryStore, Store, open_store

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project" / "tracegrade.toml"


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened: Store = (
        InMemoryStore() if request.param == "memory" else open_store(f"sqlite:///{tmp_path}/r.db")
    )
    yield opened
    opened.close()


def _cases(passed: int, total: int, outcome: str = "failed") -> Callable[[int], list[CaseOutcome]]:
    def suite(repeat: int) -> list[CaseOutcome]:
        return [
            CaseOutcome(case=f"c{n:03}", outcome="passed" if n < passed else outcome)
            for n in range(total)
        ]

    return suite


def _entry(id: str, function: Callable[[int], Any], **fields: Any) -> TouchpointEntry:
    contract = Touchpoint.model_validate(
        {
            "id": id,
            "kind": "prompt",
            "owner": "t",
            "suite_kind": "callable",
            "call": f"tests:{id}",
            "severity_on_fail": "block",
            **fields,
        }
    )
    return TouchpointEntry(contract, f"python tests:{id}", function)


def _project(tmp_path: Path, *entries: TouchpointEntry) -> Any:
    path = tmp_path / "tracegrade.toml"
    path.write_text("", encoding="utf-8")
    return load_project(path, registered=entries)


def _run(tmp_path: Path, store: Store, *entries: TouchpointEntry, **options: Any) -> Any:
    return run_evals(_project(tmp_path, *entries), store, backoff=0.0, **options)


def test_every_severity_runs_and_only_a_failed_block_exits_1(tmp_path: Path, store: Store):
    floor = {"baseline": {"min": 0.9}}
    entries = [
        _entry("held_block", _cases(10, 10), **floor),
        _entry("failed_warn", _cases(5, 10), severity_on_fail="warn", **floor),
        _entry("failed_info", _cases(5, 10), severity_on_fail="info", **floor),
        _entry("held_infra", _cases(10, 10), severity_on_fail="infra", **floor),
    ]
    report = _run(tmp_path, store, *entries)

    assert report.exit_code == 0
    statuses = {t.touchpoint: t.verdict.status for t in report.touchpoints}
    assert statuses == {
        "held_block": "held",
        "failed_warn": "failed-min",
        "failed_info": "failed-min",
        "held_infra": "held",
    }
    assert [s.split(" ")[0] for s in report.printed] == ["failed_warn"]  # info only recorded
    assert len(store.case_results(report.run_id)) == 40
    assert store.get_run(report.run_id).status == "finished"  # type: ignore[union-attr]

    failing_block = _run(tmp_path, store, _entry("failed_block", _cases(5, 10), **floor))
    assert failing_block.exit_code == 1
    failing_infra = _run(
        tmp_path, store, _entry("failed_infra", _cases(5, 10), severity_on_fail="infra", **floor)
    )
    assert failing_infra.exit_code == 3


@pytest.mark.parametrize(("severity", "code"), [("block", 1), ("warn", 0)])
def test_a_drop_beyond_max_drop_plus_band_fails_by_severity(
    tmp_path: Path, store: Store, severity: str, code: int
):
    fields = {"severity_on_fail": severity, "variance_band": 0.02,
              "baseline": {"min": 0.5, "max_drop": 0.05}}  # fmt: skip
    first = _run(tmp_path, store, _entry("tp", _cases(100, 100), **fields))
    store.promote_baseline(first.run_id)

    within = _run(tmp_path, store, _entry("tp", _cases(93, 100), **fields))  # drop 0.07: held
    beyond = _run(tmp_path, store, _entry("tp", _cases(92, 100), **fields))  # drop 0.08

    assert (within.exit_code, within.touchpoints[0].verdict.status) == (0, "held")
    assert beyond.touchpoints[0].verdict.status == "regressed"
    assert beyond.exit_code == code
    assert beyond.printed == (beyond.touchpoints[0].verdict.sentence,)
    assert "dropped 0.08 from baseline 1" in beyond.printed[0]


def test_a_provider_outage_is_retried_then_infra_and_exits_3(tmp_path: Path, store: Store):
    calls = Counter[int]()

    def down(repeat: int) -> list[CaseOutcome]:
        calls[repeat] += 1
        raise TimeoutError("provider timed out")

    report = _run(tmp_path, store, _entry("agent", down, repeats=2), attempts=3)

    assert calls == {0: 3, 1: 3}
    verdict = report.touchpoints[0].verdict
    assert (verdict.status, verdict.metric.skipped, report.exit_code) == ("infra", 2, 3)
    assert {r.outcome for r in store.case_results(report.run_id)} == {"infra"}


def test_a_suite_that_breaks_is_an_error_case_not_a_crash(tmp_path: Path, store: Store):
    def broken(repeat: int) -> list[CaseOutcome]:
        raise KeyError("bug")

    report = _run(tmp_path, store, _entry("agent", broken, baseline={"min": 0.5}))

    (result,) = store.case_results(report.run_id)
    assert (result.case_id, result.outcome, report.exit_code) == ("(suite)", "error", 1)
    assert "KeyError" in str(result.payload["detail"])


def test_repeats_are_stored_per_repeat_with_a_spread(tmp_path: Path, store: Store):
    def flaky(repeat: int) -> list[CaseOutcome]:
        return _cases(10 - repeat, 10)(repeat)

    report = _run(tmp_path, store, _entry("tp", flaky, repeats=3, variance_band=0.1))

    verdict = report.touchpoints[0].verdict
    assert verdict.metric.measured == 30
    assert verdict.spread is not None
    assert verdict.spread.range == pytest.approx(0.2)
    assert verdict.unstable
    assert sorted({r.repeat for r in store.case_results(report.run_id)}) == [0, 1, 2]


def test_a_killed_run_resumes_without_rerunning_finished_repeats(tmp_path: Path, store: Store):
    calls = Counter[int]()
    stop = {"at": 3}

    def suite(repeat: int) -> Iterator[CaseOutcome]:
        calls[repeat] += 1
        for n in range(20):
            if repeat == stop["at"] and n == 7:
                raise KeyboardInterrupt
            yield CaseOutcome(case=f"c{n}", outcome="passed")

    entry = _entry("tp", suite, repeats=5)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, store, entry, run_id="killed")
    assert store.get_run("killed").status == "killed"  # type: ignore[union-attr]
    stored = store.case_results("killed")
    assert len(stored) == 3 * 20  # the unit it was in stored nothing: units are whole
    assert {r.repeat for r in stored} == {0, 1, 2}

    stop["at"] = -1
    report = _run(tmp_path, store, entry, resume="killed")

    results = store.case_results("killed")
    assert len(results) == 100
    assert len({r.key for r in results}) == 100
    assert calls == {0: 1, 1: 1, 2: 1, 3: 2, 4: 1}
    assert (report.resumed, report.units_skipped, report.exit_code) == (True, 3, 0)
    assert store.get_run("killed").status == "finished"  # type: ignore[union-attr]


def test_resuming_checks_the_run(tmp_path: Path, store: Store):
    entry = _entry("tp", _cases(1, 1))
    with pytest.raises(InputError, match="no run 'nope'"):
        _run(tmp_path, store, entry, resume="nope")
    first = _run(tmp_path, store, entry)
    with pytest.raises(InputError, match="registry changed"):
        _run(tmp_path, store, _entry("tp", _cases(1, 1), repeats=2), resume=first.run_id)
    with pytest.raises(InputError, match="lane"):
        _run(tmp_path, store, entry, resume=first.run_id, lane="nightly")


def test_bad_input_writes_nothing(tmp_path: Path):
    store = InMemoryStore()
    path = tmp_path / "tracegrade.toml"
    path.write_text(
        '[[touchpoints]]\nid = "x"\nkind = "tool"\nowner = "t"\nsuite_kind = "callable"\n'
        'call = "no_such_module_here:suite"\nseverity_on_fail = "block"\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="cannot import no_such_module_here:suite"):
        run_evals(load_project(path, registered=()), store)
    assert store.list_runs() == []


def test_the_example_project_dispatches_every_file_suite_kind(store: Store):
    project = load_project(EXAMPLE, registered=())

    report = run_evals(project, store, executor=LocalExecutor(workers=2))

    kinds = {t.touchpoint: (t.suite_kind, t.verdict.metric.measured) for t in report.touchpoints}
    assert kinds == {
        "refund_window_grader": ("grade", 4),
        "spreadsheet_figures": ("guard", 2),
        "legal_assistant_gate": ("gate", 12),
        "legacy_evals": ("command", 3),
        "refund_answer_panel": ("callable", 4),
    }
    assert report.exit_code == 0
    assert [s.split(" ")[0] for s in report.printed] == ["spreadsheet_figures"]
    gate = store.case_results(report.run_id, "legal_assistant_gate")
    assert Counter(r.repeat for r in gate) == {0: 6, 1: 6}


def test_drift_names_the_files_changed_since_the_baseline_run(tmp_path: Path, store: Store):
    prompt = tmp_path / "prompt.md"
    prompt.write_text("v1", encoding="utf-8")
    entry = _entry("tp", _cases(1, 1), files=["prompt.md"])
    first = _run(tmp_path, store, entry)
    assert first.touchpoints[0].drift is None  # no baseline to compare with
    store.promote_baseline(first.run_id)
    assert _run(tmp_path, store, entry).touchpoints[0].drift == ()

    prompt.write_text("v2", encoding="utf-8")
    changed = _run(tmp_path, store, entry).touchpoints[0]

    assert [(d.path, d.change) for d in changed.drift or ()] == [("prompt.md", "changed")]
    assert changed.version != first.touchpoints[0].version
    assert len(store.touchpoint_versions("tp")) == 2


def test_compare_runs_names_each_case_shift():
    def results(run: str, **cases: str) -> list[CaseResultRecord]:
        return [
            CaseResultRecord(run_id=run, touchpoint="tp", case_id=c, outcome=o)
            for c, o in cases.items()
        ]

    before = results("a", up="failed", down="passed", same="passed", gone="passed", hole="infra")
    after = results("b", up="passed", down="failed", same="passed", new="passed", hole="passed")

    comparison = compare_runs("a", before, "b", after)

    shifts = {c.case: c.shift for c in comparison.touchpoints[0].cases}
    assert shifts == {"up": "improved", "down": "regressed", "same": "unchanged",
                      "gone": "gone", "new": "new", "hole": "unmeasured"}  # fmt: skip
    touchpoint = comparison.touchpoints[0]
    assert (touchpoint.shift, touchpoint.before, touchpoint.after) == ("improved", 0.75, 0.8)
    assert comparison.count("regressed") == 1


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (the ray extra)"
)
def test_the_ray_executor_stores_the_same_results(tmp_path: Path, store: Store):
    report = _run(
        tmp_path, store, _entry("tp", _cases(7, 10), repeats=3), executor=RayExecutor(workers=2)
    )
    assert len(store.case_results(report.run_id)) == 30
    assert report.touchpoints[0].verdict.metric.value == pytest.approx(0.7)


def test_the_ray_executor_without_ray_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    real = importlib.import_module

    def no_ray(name: str, *args: Any) -> Any:
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_ray)
    with pytest.raises(InputError, match=r"install 'tracegrade\[ray\]'"):
        _run(tmp_path, InMemoryStore(), _entry("tp", _cases(1, 1)), executor=RayExecutor())


class _CountingStore(InMemoryStore):
    """An in-memory store that counts its case-result writes."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[int] = []
        self.singles = 0

    def add_case_result(self, result: CaseResultRecord) -> bool:
        self.singles += 1
        return super().add_case_result(result)

    def add_case_results(self, results: Any) -> int:
        self.batches.append(len(results))
        return super().add_case_results(results)


def test_each_unit_is_stored_in_one_call(tmp_path: Path):
    store = _CountingStore()
    report = _run(tmp_path, store, _entry("tp", _cases(7, 10), repeats=3))
    assert (store.batches, store.singles) == ([10, 10, 10], 0)
    results = store.case_results(report.run_id)
    marked = [r for r in results if "unit_cases" in r.payload]
    sizes = sorted((r.repeat, r.payload["unit_cases"]) for r in marked)
    assert sizes == [(0, 10), (1, 10), (2, 10)]


def test_a_threaded_kill_leaves_only_whole_units_and_resume_completes_them(
    tmp_path: Path, store: Store
):
    stop = {"at": 4}

    def suite(repeat: int) -> Iterator[CaseOutcome]:
        for n in range(15):
            if repeat == stop["at"] and n == 9:
                raise KeyboardInterrupt
            yield CaseOutcome(case=f"c{n}", outcome="passed")

    entry = _entry("tp", suite, repeats=8)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, store, entry, run_id="k", executor=LocalExecutor(workers=3))
    per_repeat = Counter(r.repeat for r in store.case_results("k"))
    assert stop["at"] not in per_repeat
    assert set(per_repeat.values()) <= {15}  # every stored unit is whole

    stop["at"] = -1
    report = _run(tmp_path, store, entry, resume="k")
    assert report.units_skipped == len(per_repeat)
    assert len(store.case_results("k")) == 8 * 15


_GUARDED_TRACE = {
    "id": "writes-sheet",
    "commit": "v1",
    "model": "m",
    "task": "Put the balance in a sheet",
    "outcome": "success",
    "tokens": [0, 0, 0, 0, 0],
    "frames": [
        {"type": "user", "content": "Put the balance in a sheet"},
        {"type": "tool_call", "id": "c1", "name": "read_account", "args": {}},
        {"type": "tool_result", "id": "c1", "ok": True, "result": "ACCT-7 balance 91,250"},
        {
            "type": "tool_call",
            "id": "c2",
            "name": "create_spreadsheet",
            "args": {"rows": [["91,250"]]},
        },
        {"type": "assistant", "content": "Done."},
    ],
}


@pytest.mark.parametrize(("redact", "outcome"), [("", "passed"), ("yes", "failed")])
def test_a_guard_suite_reads_its_traces_with_the_projects_redact_patterns(
    tmp_path: Path, redact: str, outcome: str
) -> None:
    import orjson  # noqa: PLC0415 - only this test writes a trace

    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "run.json").write_bytes(orjson.dumps(_GUARDED_TRACE))
    (tmp_path / "guard.toml").write_text('[tools.create_spreadsheet]\nscan = ["rows[*][*]"]\n')
    table = '[redact]\npatterns = [{kind = "account", pattern = "ACCT-[0-9]+ balance [0-9,]+"}]\n'
    (tmp_path / "tracegrade.toml").write_text(
        (table if redact else "")
        + '[[touchpoints]]\nid = "sheets"\nkind = "tool"\nowner = "t"\nsuite = "guard.toml"\n'
        'traces = "traces/*.json"\nseverity_on_fail = "warn"\n'
    )
    project = load_project(tmp_path / "tracegrade.toml", registered=())
    store = InMemoryStore()

    report = run_evals(project, store, backoff=0.0)

    # Redacted, the balance was never shown by a tool: the guard blocks the sheet's figure.
    assert [r.outcome for r in store.case_results(report.run_id, "sheets")] == [outcome]
