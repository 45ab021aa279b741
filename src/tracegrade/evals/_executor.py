"""Executors: where a run's work units run (this process, threads, processes, a Ray cluster).

An executor only schedules. The work function turns a unit into case outcomes (and never
raises: failures become ``error`` or ``infra`` outcomes); ``record`` stores each outcome and
``done`` marks the unit finished. In-process executors call ``record`` as each outcome is
known. The process pool and Ray ship the work function to each worker process once, run the
units there in batches, and hand a batch's outcomes back to this process as the batch ends;
this process records them, so workers never touch the store. The model calls a unit
recorded (:func:`tracegrade.cost.record_ai_call`) travel the same way, after its outcomes.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import math
import multiprocessing
import os
import pickle
import sys
import threading
import time
import uuid
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from tracegrade.errors import InfrastructureError, InputError, MissingExtraError
from tracegrade.evals._orphans import exit_with

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from tracegrade.evals._dispatch import WorkUnit
    from tracegrade.evals._outcomes import CaseOutcome
    from tracegrade.store import AiCallRecord

    Record = Callable[[WorkUnit, CaseOutcome | AiCallRecord], None]
    """Where an executor hands each outcome (and each recorded model call) of a unit."""

__all__ = ["Executor", "LocalExecutor", "ProcessExecutor", "RayExecutor", "UnitWork"]

_BATCHES_PER_WORKER = 8
"""Batches per worker: enough that a slow batch does not leave the other workers idle."""
_MAX_BATCH = 256
"""Units per batch at most, so a killed run loses little and progress moves."""
_BATCH_SECONDS = 2.0
"""A pool worker hands back what it finished once a batch has run this long (the rest of the
batch goes out again): a ``kill -9`` of the run loses at most this much work per worker."""
_IN_FLIGHT_PER_WORKER = 2
"""Batches handed out per worker at a time (process pool; Ray when it caps the workers): a
stop (``--cost-limit``) then leaves at most one more batch per worker to finish, and no
worker waits for work."""

UnitT = TypeVar("UnitT")
ResultT = TypeVar("ResultT")

# The process pool and Ray schedule any picklable unit and result; the eval runner's are a
# WorkUnit and its outcomes, bulk grading's a trace file and its graded runs.
Batch = list[tuple[UnitT, list[ResultT]]]


class UnitWork(Protocol):
    """Run one unit, handing each outcome to ``emit`` as it is known; never raises."""

    def __call__(
        self, unit: WorkUnit, emit: Callable[[CaseOutcome | AiCallRecord], None], /
    ) -> None: ...


class Executor(Protocol):
    """Runs every unit's work and reports each outcome and each finished unit."""

    def execute(
        self,
        units: Sequence[WorkUnit],
        work: UnitWork,
        record: Record,
        done: Callable[[WorkUnit], None],
    ) -> None:
        """Run ``work`` for every unit; ``record`` and ``done`` may be called from threads."""
        ...


def _check_workers(workers: int) -> None:
    if workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")


class LocalExecutor:
    """Runs units in this process: one after another, or in a pool of ``workers`` threads.

    Threads suit agent and provider suites, which wait on the network; ``record`` is
    called from the worker threads, so the caller's store writes must be thread-safe.
    CPU-bound suites (grade, guard, contract) gain nothing from threads: use
    :class:`ProcessExecutor`.
    """

    def __init__(self, workers: int = 1) -> None:
        _check_workers(workers)
        self.workers = workers

    def execute(
        self,
        units: Sequence[WorkUnit],
        work: UnitWork,
        record: Record,
        done: Callable[[WorkUnit], None],
    ) -> None:
        """Run every unit here; with several workers, in a thread pool."""
        stopped = threading.Event()

        def one(unit: WorkUnit) -> None:
            # A failure (or --cost-limit) in any thread stops the others starting units at
            # once, not only when the caller's thread gets round to cancelling them.
            if stopped.is_set():
                return
            try:
                work(unit, lambda outcome: record(unit, outcome))
                done(unit)
            except BaseException:
                stopped.set()
                raise

        if self.workers == 1:
            for unit in units:
                one(unit)
            return

        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="tracegrade") as pool:
            futures = [pool.submit(one, unit) for unit in units]
            try:
                for future in futures:
                    future.result()
            except BaseException:
                for future in futures:  # a failure (or --cost-limit) stops units not started
                    future.cancel()
                raise


def _batches(units: Sequence[UnitT], workers: int) -> list[list[UnitT]]:
    """Consecutive units in batches: about eight per worker, at most ``_MAX_BATCH`` each."""
    size = max(1, min(_MAX_BATCH, math.ceil(len(units) / (workers * _BATCHES_PER_WORKER))))
    return [list(units[start : start + size]) for start in range(0, len(units), size)]


def _run_batch(
    work: Callable[[UnitT, Callable[[ResultT], None]], None],
    units: Sequence[UnitT],
    seconds: float | None = None,
) -> Batch[UnitT, ResultT]:
    """Run units one after another; each finished unit's outcomes, in order.

    With ``seconds``, stop after the first unit that ends past that time: the caller sends
    the units not run out again.
    """
    results: Batch[UnitT, ResultT] = []
    started = time.monotonic()
    for unit in units:
        outcomes: list[ResultT] = []
        work(unit, outcomes.append)
        results.append((unit, outcomes))
        if seconds is not None and time.monotonic() - started >= seconds:
            break
    return results


def _deliver(
    batch: Batch[UnitT, ResultT],
    record: Callable[[UnitT, ResultT], None],
    done: Callable[[UnitT], None],
) -> None:
    """Record and finish every unit of a finished batch, then raise ``done``'s first error.

    A batch is delivered whole even when ``done`` refuses to go on (``--cost-limit``): its
    other units finished in the worker, and their results are kept.
    """
    failure: Exception | None = None
    for unit, outcomes in batch:
        for outcome in outcomes:
            record(unit, outcome)
        try:
            done(unit)
        except Exception as exc:  # noqa: BLE001 - raised again once the batch is stored
            failure = failure or exc
    if failure is not None:
        raise failure


def _finish_running(
    pending: set[Future[Batch[UnitT, ResultT]]],
    record: Callable[[UnitT, ResultT], None],
    done: Callable[[UnitT], None],
) -> None:
    """After a stop: cancel the batches not started, deliver those running when they end."""
    for future in pending:
        future.cancel()
    for future in pending:
        if not future.cancelled():
            with suppress(Exception):  # the stop itself is raised by the caller
                _deliver(future.result(), record, done)


def _driver_paths() -> list[str]:
    """This process's import path, the working folder in place of ``''``."""
    return [path or os.getcwd() for path in sys.path]


def _add_paths(paths: Sequence[str]) -> None:
    for path in paths:
        if path not in sys.path:
            sys.path.append(path)


def _dumps(work: object) -> bytes:
    """The work function as bytes: pickle, or cloudpickle for closures when it is installed."""
    try:
        return pickle.dumps(work, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        try:
            cloudpickle: Any = importlib.import_module("cloudpickle")
        except ImportError:
            raise InputError(
                f"the run's suites cannot be sent to worker processes ({exc})",
                fix="define suite functions at module level, or run with --executor thread",
            ) from exc
        try:
            data: bytes = cloudpickle.dumps(work, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as again:  # anything cloudpickle raises means "cannot ship"
            raise InputError(
                f"the run's suites cannot be sent to worker processes ({again})",
                fix="define suite functions at module level, or run with --executor thread",
            ) from again
        return data


# The work function of the run this worker process serves (process pool and Ray workers).
_WORKER: dict[str, Any] = {}


def _install(payload: bytes, environment: dict[str, str], driver: int) -> None:
    """Process-pool initializer: load the run's work function once per worker process.

    The environment is this run's driver's: a worker forked from the fork server would
    otherwise see the environment the server started with. The worker ends when the
    driver does (:func:`tracegrade.evals._orphans.exit_with`), even after a ``kill -9``.
    """
    exit_with(driver)
    os.environ.clear()
    os.environ.update(environment)
    _WORKER["pool"] = pickle.loads(payload)  # noqa: S301 - bytes this run's own driver pickled


def _pool_batch(units: list[Any]) -> Batch[Any, Any]:
    return _run_batch(_WORKER["pool"], units, _BATCH_SECONDS)


def _pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where there is one, with tracegrade imported in the server; else ``spawn``.

    Spawned workers each import tracegrade (about 0.6 s) before their first unit, and on a
    busy machine the second waits for the first; workers forked from a server that imported
    it once start at once. The server is single-threaded, so forking from it is safe.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


class ProcessExecutor:
    """Runs units in a pool of ``workers`` processes on this machine (forked from a fork server).

    For CPU-bound suites (grade, guard, contract), which threads cannot run in parallel.
    Each worker process loads the run's suites once; units run in batches and a batch's
    outcomes are stored by this process when it ends. Suite functions must be picklable
    (defined at module level), or ``cloudpickle`` must be installed.
    """

    def __init__(self, workers: int = 2) -> None:
        _check_workers(workers)
        self.workers = workers

    def execute(
        self,
        units: Sequence[UnitT],
        work: Callable[[UnitT, Callable[[ResultT], None]], None],
        record: Callable[[UnitT, ResultT], None],
        done: Callable[[UnitT], None],
    ) -> None:
        """Run every unit in the process pool; store each batch's outcomes as it ends.

        Any picklable units and results will do (``tracegrade grade DIR`` hands trace files).
        """
        if not units:
            return
        payload = _dumps(work)
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(units)),
            mp_context=_pool_context(),
            initializer=_install,
            initargs=(payload, dict(os.environ), os.getpid()),
        )
        try:
            waiting = _batches(units, self.workers)
            waiting.reverse()
            pending: set[Future[Batch[UnitT, ResultT]]] = set()
            # The order batches were handed out, for those not stored yet: a stored batch is
            # dropped here, so its results are freed as the run goes on, not at its end.
            submitted: dict[Future[Batch[UnitT, ResultT]], int] = {}
            sent: dict[Future[Batch[UnitT, ResultT]], list[UnitT]] = {}
            handed_out = itertools.count()

            def top_up() -> None:  # each worker busy and one batch queued: no more in flight
                while waiting and len(pending) < _IN_FLIGHT_PER_WORKER * self.workers:
                    batch = waiting.pop()
                    future = pool.submit(_pool_batch, batch)
                    submitted[future] = next(handed_out)
                    sent[future] = batch
                    pending.add(future)

            def rest(future: Future[Batch[UnitT, ResultT]]) -> None:
                """Send out again the units a batch stopped before (its time ran out)."""
                batch = sent.pop(future)
                ran = len(future.result())
                if ran < len(batch):
                    waiting.append(batch[ran:])  # next out: the run keeps its order

            top_up()
            try:
                while pending:
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    # Several may end at once: store them in the order they were handed out;
                    # on a stop, those not stored yet go back to pending, which the stop stores.
                    ordered = sorted(finished, key=submitted.__getitem__)
                    pending.difference_update(ordered)
                    for index, future in enumerate(ordered):
                        try:
                            rest(future)
                            _deliver(future.result(), record, done)
                        except Exception:
                            pending.update(ordered[index + 1 :])
                            raise
                        del submitted[future]
                    top_up()
            except Exception:
                _finish_running(pending, record, done)  # what already ran is kept
                raise
        except BrokenProcessPool as exc:
            raise InfrastructureError(
                f"a worker process died ({exc})",
                fix="resume the run with --resume RUN_ID; finished units are kept",
            ) from exc
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _ray_batch(
    token: str, shipped: list[Any], paths: list[str], units: list[Any]
) -> Batch[Any, Any]:
    """A Ray task: load the run's work function (once per worker process), run the units."""
    work = _WORKER.get(token)
    if work is None:
        _add_paths(paths)  # modules the suites import by name, as the driver found them
        work = _import_ray().get(shipped[0])
        _WORKER.clear()
        _WORKER[token] = work
    return _run_batch(work, units)


class RayExecutor:
    """Runs units as Ray tasks: on a cluster, or on a Ray instance it starts on this machine.

    Needs the ``ray`` extra (``pip install 'tracegrade[ray]'``). The work function goes to
    the object store once and is loaded once per Ray worker process; units run in batches
    (one task each) and each batch's outcomes come back to this process, which stores them
    as the batches end, so the store need not be reachable from the cluster.

    Args:
        address: A Ray cluster's address (``ray://host:10001`` or ``auto``); ``None`` uses
            ``RAY_ADDRESS`` if set, else starts a local Ray instance (with ``workers`` CPUs)
            and shuts it down at the end. A Ray already initialised in this process is used
            as it is.
        workers: How many batches run at once (``None``: as many as Ray schedules).
    """

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        if workers is not None:
            _check_workers(workers)
        self.address = address
        self.workers = workers

    @contextmanager
    def running(self) -> Iterator[None]:
        """Ray initialised in this thread for the block (unless it was), shut down after.

        For callers that run :meth:`execute` on another thread: Ray sets its signal
        handlers only when started on the main thread.
        """
        local = (self.address or os.environ.get("RAY_ADDRESS") or None) is None
        with _no_ray_egress() if local else contextlib.nullcontext():
            ray = _import_ray()  # reads RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER on first import
            started = self._start(ray)
        try:
            yield
        finally:
            if started:
                ray.shutdown()

    def _start(self, ray: Any) -> bool:  # noqa: ANN401 - ray has no stubs
        """Initialise Ray unless it is; whether this call started it."""
        if ray.is_initialized():
            return False
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        address = self.address or os.environ.get("RAY_ADDRESS") or None
        if address is None:
            options["num_cpus"] = self.workers or os.cpu_count() or 1
        try:
            ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise InfrastructureError(
                f"cannot start or reach Ray at {address or 'this machine'} ({exc})",
                fix="check the cluster address, or run with --executor local",
            ) from exc
        return True

    def execute(
        self,
        units: Sequence[UnitT],
        work: Callable[[UnitT, Callable[[ResultT], None]], None],
        record: Callable[[UnitT, ResultT], None],
        done: Callable[[UnitT], None],
    ) -> None:
        """Submit the units as Ray tasks and store each task's outcomes as it ends.

        Any picklable units and results will do (``tracegrade grade DIR`` hands trace files).
        """
        if not units:
            _import_ray()  # the missing extra is reported even with nothing to run
            return
        with self.running():
            self._run(_import_ray(), units, work, record, done)

    def _run(
        self,
        ray: Any,  # noqa: ANN401 - ray has no stubs
        units: Sequence[UnitT],
        work: Callable[[UnitT, Callable[[ResultT], None]], None],
        record: Callable[[UnitT, ResultT], None],
        done: Callable[[UnitT], None],
    ) -> None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        workers = self.workers or cpus
        token = uuid.uuid4().hex
        shipped = [ray.put(work)]  # in a list, so tasks get the reference, not the object
        task = ray.remote(_ray_batch)
        paths = _driver_paths()
        waiting = _batches(units, workers)
        waiting.reverse()
        limit = _ray_in_flight(self.workers, cpus)
        pending: dict[Any, list[UnitT]] = {}

        def top_up() -> None:
            while waiting and len(pending) < limit:
                batch = waiting.pop()
                pending[task.remote(token, shipped, paths, batch)] = batch

        try:
            top_up()
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    del pending[ref]
                top_up()  # keep the workers busy while this process stores the results
                for index, ref in enumerate(ready):
                    try:
                        _deliver(_ray_results(ray, ref), record, done)
                    except Exception:
                        # A stop (--cost-limit) or a failure: what was handed out is kept.
                        _finish_ray(ray, [*ready[index + 1 :], *pending], record, done)
                        pending.clear()
                        raise
        finally:
            for ref in pending:  # only after an interrupt (Ctrl-C): nothing more starts
                ray.cancel(ref)


def _ray_results(ray: Any, ref: Any) -> Batch[Any, Any]:  # noqa: ANN401 - ray has no stubs
    """A finished task's batch; a failed task is an infrastructure failure."""
    try:
        results: Batch[Any, Any] = ray.get(ref)
    except ray.exceptions.RayError as exc:
        raise InfrastructureError(
            f"a Ray task failed ({type(exc).__name__}: {exc})".splitlines()[0],
            fix="resume the run with --resume RUN_ID; finished units are kept",
        ) from exc
    return results


def _finish_ray(
    ray: Any,  # noqa: ANN401 - ray has no stubs
    refs: list[Any],
    record: Callable[[UnitT, ResultT], None],
    done: Callable[[UnitT], None],
) -> None:
    """After a stop: deliver every batch handed out, in order, as each ends.

    They are at most the ones running and one queued per worker; each made its (paid)
    calls or is about to, so its results and cost are kept rather than cancelled and lost.
    """
    for ref in refs:
        with suppress(Exception):  # the stop itself is raised by the caller
            _deliver(_ray_results(ray, ref), record, done)


def _ray_in_flight(workers: int | None, cpus: int) -> int:
    """How many batches to hand Ray at once.

    When Ray has no more CPUs than the workers asked for (the local instance a run starts
    has ``workers`` CPUs; without ``workers``, all of Ray's), Ray itself runs that many at
    once, so one more batch per worker waits in its queue: a worker that ends a batch starts
    the next at once instead of waiting while this process stores the other workers'
    results (7-18 ms a batch, measured). With more CPUs than ``workers``, a queued batch
    would run beside the others, so only ``workers`` are handed out. Either way a stop
    leaves at most one more batch per worker to run.
    """
    if workers is None:
        return _IN_FLIGHT_PER_WORKER * cpus
    return _IN_FLIGHT_PER_WORKER * workers if cpus <= workers else workers


# The environment a local Ray starts in (its processes inherit it), so that nothing calls
# another machine (DESIGN.md: no network call unless a provider is configured):
_RAY_OFFLINE = {
    "RAY_USAGE_STATS_ENABLED": "0",  # no usage report
    # A single-node instance on loopback: else each process finds "its" address with a UDP
    # connect to 8.8.8.8 and the node listens on the machine's network address.
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    # The dashboard probes cloud metadata (169.254.169.254, metadata.google.internal) with
    # requests even with usage stats off; a proxy on a closed loopback port ends each probe.
    "http_proxy": "http://127.0.0.1:9",
    "HTTP_PROXY": "http://127.0.0.1:9",
    "no_proxy": "localhost,127.0.0.1,::1",
    "NO_PROXY": "localhost,127.0.0.1,::1",
}


@contextmanager
def _no_ray_egress() -> Iterator[None]:
    """The environment Ray starts its processes in: no call to another machine."""
    saved = {name: os.environ.get(name) for name in _RAY_OFFLINE}
    os.environ.update(_RAY_OFFLINE)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _import_ray() -> Any:  # noqa: ANN401 - ray has no stubs and is optional
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise MissingExtraError(
            "--executor ray needs the ray extra (ray is not installed; or run with --executor"
            " local)",
            extra="ray",
        ) from exc
