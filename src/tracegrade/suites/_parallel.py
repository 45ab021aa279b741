"""Bulk grading on the eval engine's process pool or on Ray, yielded in input order.

The executors (evals/_executor.py) batch the files, grade each batch in a worker and hand
its results back as the batch ends, through callbacks. Here they run on a thread of their
own; this generator takes each finished file from a bounded queue and yields the files in
input order. What it holds is the queue and the files finished ahead of the first one still
running (at most the batches in flight, two per worker, when batches take alike).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from typing import TYPE_CHECKING

from tracegrade.errors import InfrastructureError
from tracegrade.evals import ProcessExecutor, RayExecutor

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tracegrade.suites._bulk import GradedRun, GradeTraceFile, TraceFile

__all__ = ["in_parallel"]

_QUEUE_FILES = 256
"""Finished files waiting for the consumer at most; then the executor's thread waits."""
_POLL_SECONDS = 0.1


class _Stopped(Exception):  # noqa: N818 - a signal, not an error
    """The consumer went away (an error, Ctrl-C, a closed generator): stop handing out."""


def in_parallel(
    units: Sequence[TraceFile],
    work: GradeTraceFile,
    *,
    workers: int,
    ray: bool,
    ray_address: str | None,
) -> Iterator[GradedRun]:
    """Grade the files on a process pool (or Ray) and yield their runs in input order.

    Raises:
        InputError: ``workers`` is below 1, or Ray is not installed.
        InfrastructureError: A worker process died, or a Ray task failed.
    """
    executor: ProcessExecutor | RayExecutor
    if ray:
        executor = RayExecutor(address=ray_address, workers=workers)
    else:
        executor = ProcessExecutor(workers)
    if not units:
        return
    # Ray starts here, on the calling thread, where it may set its signal handlers.
    running = executor.running() if isinstance(executor, RayExecutor) else contextlib.nullcontext()
    with running:
        try:
            yield from _ordered(units, work, executor)
        except InfrastructureError as exc:  # its fix names `tracegrade run --resume`
            raise InfrastructureError(
                exc.what, fix="grade again; --workers 1 grades in this process"
            ) from exc


def _ordered(
    units: Sequence[TraceFile], work: GradeTraceFile, executor: ProcessExecutor | RayExecutor
) -> Iterator[GradedRun]:
    # A finished file (its index and runs), the executor's failure, or None: all handed out.
    finished: queue.Queue[tuple[int, list[GradedRun]] | BaseException | None] = queue.Queue(
        maxsize=_QUEUE_FILES
    )
    stop = threading.Event()
    gathered: dict[TraceFile, list[GradedRun]] = {}  # touched by the executor's thread only

    def hand_over(item: tuple[int, list[GradedRun]] | None) -> None:
        while True:
            try:
                finished.put(item, timeout=_POLL_SECONDS)
            except queue.Full:
                if stop.is_set():
                    raise _Stopped from None
            else:
                return

    def record(unit: TraceFile, result: GradedRun) -> None:
        gathered.setdefault(unit, []).append(result)

    def done(unit: TraceFile) -> None:
        if stop.is_set():
            raise _Stopped
        hand_over((unit.index, gathered.pop(unit, [])))

    def drive() -> None:
        try:
            executor.execute(units, work, record, done)
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, raised there
            with contextlib.suppress(queue.Full):
                finished.put_nowait(exc)
        else:
            with contextlib.suppress(_Stopped):
                hand_over(None)

    thread = threading.Thread(target=drive, name="tracegrade-bulk", daemon=True)
    thread.start()
    ahead: dict[int, list[GradedRun]] = {}
    following = 0
    try:
        while following < len(units):
            item = finished.get()
            if isinstance(item, BaseException):
                raise item
            if item is None:
                break
            index, results = item
            ahead[index] = results
            while following in ahead:
                yield from ahead.pop(following)
                following += 1
    finally:
        stop.set()
        while thread.is_alive():  # let the executor's thread see the stop and wind down
            with contextlib.suppress(queue.Empty):
                finished.get(timeout=_POLL_SECONDS)
        thread.join()
