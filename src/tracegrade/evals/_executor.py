"""Executors: where a run's work units run (this process, a thread pool, a Ray cluster).

An executor only schedules. The work function turns a unit into case outcomes (and never
raises: failures become ``error`` or ``infra`` outcomes); ``record`` stores each outcome and
``done`` marks the unit finished. Local executors call ``record`` as each outcome is known;
Ray hands a unit's outcomes back when its task ends.
"""

from __future__ import annotations

import importlib
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from tracegrade.errors import InfrastructureError, InputError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.evals._dispatch import WorkUnit
    from tracegrade.evals._outcomes import CaseOutcome

__all__ = ["Executor", "LocalExecutor", "RayExecutor", "UnitWork"]


class UnitWork(Protocol):
    """Run one unit, handing each outcome to ``emit`` as it is known; never raises."""

    def __call__(self, unit: WorkUnit, emit: Callable[[CaseOutcome], None], /) -> None: ...


class Executor(Protocol):
    """Runs every unit's work and reports each outcome and each finished unit."""

    def execute(
        self,
        units: Sequence[WorkUnit],
        work: UnitWork,
        record: Callable[[WorkUnit, CaseOutcome], None],
        done: Callable[[WorkUnit], None],
    ) -> None:
        """Run ``work`` for every unit; ``record`` and ``done`` may be called from threads."""
        ...


class LocalExecutor:
    """Runs units in this process: one after another, or in a pool of ``workers`` threads.

    Threads suit agent and provider suites, which wait on the network; ``record`` is
    called from the worker threads, so the caller's store writes must be thread-safe.
    """

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise InputError(f"--workers must be at least 1, got {workers}")
        self.workers = workers

    def execute(
        self,
        units: Sequence[WorkUnit],
        work: UnitWork,
        record: Callable[[WorkUnit, CaseOutcome], None],
        done: Callable[[WorkUnit], None],
    ) -> None:
        """Run every unit here; with several workers, in a thread pool."""

        def one(unit: WorkUnit) -> None:
            work(unit, lambda outcome: record(unit, outcome))
            done(unit)

        if self.workers == 1:
            for unit in units:
                one(unit)
            return
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="tracegrade") as pool:
            for future in [pool.submit(one, unit) for unit in units]:
                future.result()


class RayExecutor:
    """Runs each unit as a Ray task: on a cluster, or on this machine when none is given.

    Needs the ``ray`` extra (``pip install 'tracegrade[ray]'``). Results come back to this
    process, which stores them, so the store need not be reachable from the cluster.

    Args:
        address: A Ray cluster's address (``ray://host:10001`` or ``auto``); ``None``
            starts a local Ray instance.
        workers: How many units run at once (``None``: as many as Ray schedules).
    """

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers

    def execute(
        self,
        units: Sequence[WorkUnit],
        work: UnitWork,
        record: Callable[[WorkUnit, CaseOutcome], None],
        done: Callable[[WorkUnit], None],
    ) -> None:
        """Submit every unit as a Ray task and store each task's outcomes as it ends."""
        ray = _import_ray()
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.workers is not None and self.address is None:
                options["num_cpus"] = self.workers
            try:
                ray.init(address=self.address, **options)
            except (ConnectionError, RuntimeError) as exc:
                raise InfrastructureError(
                    f"cannot start or reach Ray at {self.address or 'this machine'} ({exc})",
                    fix="check the cluster address, or run with --executor local",
                ) from exc

        def collect(unit: WorkUnit) -> list[CaseOutcome]:
            outcomes: list[CaseOutcome] = []
            work(unit, outcomes.append)
            return outcomes

        task = ray.remote(collect)
        pending = {task.remote(unit): unit for unit in units}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                unit = pending.pop(ref)
                for outcome in ray.get(ref):
                    record(unit, outcome)
                done(unit)


def _import_ray() -> Any:  # noqa: ANN401 - ray has no stubs and is optional
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise InputError(
            "--executor ray needs Ray, which is not installed",
            fix="pip install 'tracegrade[ray]', or run with --executor local",
        ) from exc
