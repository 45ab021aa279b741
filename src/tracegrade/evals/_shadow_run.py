"""Shadow runs: one touchpoint's suite on the base and on a proposed copy, interleaved.

:func:`run_shadow` prepares the suite twice, once per project folder (the base, and a
copy holding the proposed change), and hands both versions' units to one executor in
turn (base repeat 0, proposed repeat 0, base repeat 1, ...), so a slow provider or a
noisy machine falls on both alike. Each version's results go to a run of its own in the
``shadow`` lane: shadow runs never count toward graduation and are never promoted to a
baseline. Nothing about the touchpoint is recorded (no version, no signal): it is a trial.

A ``call`` suite is imported once per folder, each time as if fresh (the module is taken
out of ``sys.modules`` around the import), so a suite that reads files beside its module
reads the copy's. Worker processes import it the same way from the folder they are told.
"""

from __future__ import annotations

import itertools
import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade.cost import project_prices
from tracegrade.errors import InputError
from tracegrade.evals._dispatch import WorkUnit, _FunctionSuite, import_call, prepare_suite
from tracegrade.evals._executor import LocalExecutor
from tracegrade.evals._run_report import new_run_id
from tracegrade.evals._runner import _Recorder, _Work
from tracegrade.evals._shadow import compare_shadow
from tracegrade.store import RunRecord, _problems

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from tracegrade.cost import PriceTable
    from tracegrade.evals._dispatch import PreparedSuite
    from tracegrade.evals._executor import Executor
    from tracegrade.evals._load import Project
    from tracegrade.evals._outcomes import CaseOutcome
    from tracegrade.evals._registry import SuiteFunction, TouchpointEntry
    from tracegrade.evals._shadow import ShadowComparison
    from tracegrade.store import AiCallRecord, JsonObject, Store

__all__ = ["SHADOW_LANE", "Arm", "ShadowUnit", "run_shadow"]

SHADOW_LANE = _problems.SHADOW_LANE
"""The lane a shadow run is stored in (the store refuses to promote its runs)."""

Arm = Literal["base", "proposed"]


@dataclass(frozen=True, slots=True, order=True)
class ShadowUnit(WorkUnit):
    """A work unit of one version of a shadow run."""

    arm: Arm = "base"


# Suite functions imported per shadow run and folder: (run, call, folder) -> function, in
# this process; each shadow run imports afresh (a suite module edited since is read anew).
_LOADED: dict[tuple[str, str, str], SuiteFunction] = {}
_IMPORT_LOCK = threading.Lock()


def _fresh_import(suite: _FolderFunctionSuite) -> SuiteFunction:
    """The suite's ``call`` imported from its folder, whatever another folder left cached."""
    call, folder = suite.call, str(suite.root.resolve())
    key = (suite.shadow_run, call, folder)
    with _IMPORT_LOCK:
        found = _LOADED.get(key)
        if found is not None:
            return found
        top = call.partition(":")[0].split(".")[0]

        def ours(name: str) -> bool:
            return name == top or name.startswith(f"{top}.")

        saved_modules = {name: module for name, module in sys.modules.items() if ours(name)}
        saved_path = list(sys.path)
        for name in saved_modules:
            del sys.modules[name]
        sys.path[:] = [entry for entry in sys.path if entry != folder]  # ours goes first
        try:
            found = import_call(call, suite.root, suite.project_file, suite.touchpoint)
        finally:
            for name in [name for name in sys.modules if ours(name)]:
                del sys.modules[name]
            sys.modules.update(saved_modules)
            sys.path[:] = saved_path
        _LOADED[key] = found
        return found


@dataclass(frozen=True)
class _FolderFunctionSuite:
    """A ``call`` suite bound to a project folder; picklable (workers import it themselves)."""

    call: str
    root: Path
    project_file: Path
    touchpoint: str
    shadow_run: str  # the stem of the run ids: each shadow run imports afresh

    def items(self) -> tuple[str, ...]:
        return ("",)

    def run(self, item: str, repeat: int) -> Iterator[CaseOutcome]:
        function = _fresh_import(self)
        yield from _FunctionSuite(function, self.call).run(item, repeat)


def _prepare(
    entry: TouchpointEntry, project: Project, timeout: float | None, stem: str
) -> PreparedSuite:
    call = entry.touchpoint.call
    if call is not None and entry.touchpoint.suite_kind in {"gate", "callable"}:
        suite = _FolderFunctionSuite(call, project.root, project.path, entry.touchpoint.id, stem)
        _fresh_import(suite)  # a call that does not import is bad input: stop now
        return suite
    return prepare_suite(entry, project, command_timeout=timeout)


@dataclass(frozen=True)
class _ShadowWork:
    """Runs a unit with its version's work; a class, so worker processes get it."""

    arms: dict[Arm, _Work]

    def __call__(self, unit: WorkUnit, emit: Callable[[CaseOutcome | AiCallRecord], None]) -> None:
        self.arms[unit.arm if isinstance(unit, ShadowUnit) else "base"](unit, emit)


class _Router:
    """Stores each version's outcomes in its own run; reports progress over both."""

    def __init__(
        self, recorders: dict[Arm, _Recorder], total: int, progress: Callable[[int, int], None]
    ) -> None:
        self._recorders, self._total, self._progress = recorders, total, progress
        self._done = 0
        self._lock = threading.Lock()

    @staticmethod
    def _arm(unit: WorkUnit) -> Arm:
        return unit.arm if isinstance(unit, ShadowUnit) else "base"

    def record(self, unit: WorkUnit, outcome: CaseOutcome | AiCallRecord) -> None:
        self._recorders[self._arm(unit)].record(unit, outcome)

    def done(self, unit: WorkUnit) -> None:
        self._recorders[self._arm(unit)].done(unit)
        with self._lock:
            self._done += 1
            self._progress(self._done, self._total)


def _interleaved(
    touchpoint: str, repeats: int, items: dict[Arm, tuple[str, ...]]
) -> list[ShadowUnit]:
    units: list[ShadowUnit] = []
    for repeat in range(repeats):
        for base, proposed in itertools.zip_longest(items["base"], items["proposed"]):
            if base is not None:
                units.append(ShadowUnit(touchpoint, repeat, base, "base"))
            if proposed is not None:
                units.append(ShadowUnit(touchpoint, repeat, proposed, "proposed"))
    return units


def run_shadow(
    store: Store,
    base: Project,
    proposed: Project,
    touchpoint: str,
    *,
    repeats: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    run_id: str | None = None,
    attempts: int = 3,
    backoff: float = 1.0,
    command_timeout: float | None = None,
    prices: PriceTable | None = None,
    note: dict[str, str | int] | None = None,
) -> ShadowComparison:
    """Run a touchpoint's suite on two versions of a project, interleaved, and compare them.

    Args:
        store: Where the two shadow runs and their results go.
        base: The project as it is.
        proposed: A copy of it holding the proposed change.
        touchpoint: The touchpoint whose suite runs.
        repeats: Repeats per version (default: the touchpoint's ``repeats``).
        executor: Where units run (default :class:`LocalExecutor`); any executor works.
        progress: Called with (units done, units in all) after each unit.
        run_id: The stem of the two run ids (``STEM-base``, ``STEM-proposed``).
        attempts: Tries per unit on an infrastructure failure.
        backoff: The first wait between tries, in seconds.
        command_timeout: Seconds a ``command`` suite may run.
        prices: The price table (default: the base project's).
        note: Kept in both runs' summaries (what the trial was for, e.g. the proposal).

    Raises:
        InputError: An unknown touchpoint, repeats below 1, or a suite that cannot be
            prepared in either folder (before anything is written).
    """
    if repeats is not None and repeats < 1:
        raise InputError(
            f"--repeats must be at least 1, got {repeats}", fix="pass --repeats 1 or more"
        )
    entries: dict[Arm, TouchpointEntry] = {
        "base": base.entry(touchpoint),
        "proposed": proposed.entry(touchpoint),
    }
    projects: dict[Arm, Project] = {"base": base, "proposed": proposed}
    stem = run_id or new_run_id()
    prepared = {
        arm: _prepare(entry, projects[arm], command_timeout, stem) for arm, entry in entries.items()
    }
    count = repeats or entries["base"].touchpoint.repeats
    table = prices if prices is not None else project_prices(base)
    ids: dict[Arm, str] = {"base": f"{stem}-base", "proposed": f"{stem}-proposed"}
    units = _interleaved(touchpoint, count, {arm: suite.items() for arm, suite in prepared.items()})
    about: dict[Arm, JsonObject] = {
        arm: {"arm": arm, "touchpoint": touchpoint, "repeats": count, **(note or {})} for arm in ids
    }
    for arm, project in projects.items():
        store.start_run(
            RunRecord(
                run_id=ids[arm],
                lane=SHADOW_LANE,
                registry_version=project.version,
                summary={"shadow": about[arm]},
            )
        )
    totals = {arm: sum(1 for unit in units if unit.arm == arm) for arm in ids}
    recorders = {arm: _Recorder(store, ids[arm], totals[arm], 0, None) for arm in ids}
    router = _Router(recorders, len(units), progress or (lambda _done, _total: None))
    work = _ShadowWork(
        {arm: _Work({touchpoint: prepared[arm]}, attempts, backoff, ids[arm], table) for arm in ids}
    )
    try:
        (executor or LocalExecutor()).execute(units, work, router.record, router.done)
    except BaseException:
        for each in ids.values():
            store.finish_run(each, status="killed")
        raise
    finally:
        for key in [key for key in _LOADED if key[0] == stem]:
            del _LOADED[key]
    touchpoint_contract = entries["base"].touchpoint
    comparison = compare_shadow(
        touchpoint,
        touchpoint_contract.severity_on_fail,
        (ids["base"], store.case_results(ids["base"], touchpoint)),
        (ids["proposed"], store.case_results(ids["proposed"], touchpoint)),
        repeats=count,
        calls=[*store.ai_calls(run_id=ids["base"]), *store.ai_calls(run_id=ids["proposed"])],
    )
    for arm, each in ids.items():
        store.finish_run(
            each,
            summary={"shadow": about[arm], "comparison": comparison.model_dump(mode="json")},
        )
    return comparison
