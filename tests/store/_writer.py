"""Writers that run in other processes: concurrent runners and a runner killed mid-write."""

from __future__ import annotations

import sys
from contextlib import suppress
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.store import CaseResultRecord, RunRecord, open_store

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Barrier

    from tracegrade.store import Store


def result(run_id: str, index: int) -> CaseResultRecord:
    """The result of case ``index``, with a payload big enough to take a while to write."""
    return CaseResultRecord(
        run_id=run_id,
        touchpoint=f"tp-{index % 3}",
        case_id=f"case-{index:05d}",
        outcome="passed" if index % 2 else "failed",
        metric=index / 10,
        payload={"index": index, "verdicts": [{"claim": f"c{n}", "ok": True} for n in range(20)]},
    )


def ensure_run(store: Store, run_id: str) -> None:
    """Start the run unless another process already has."""
    if store.get_run(run_id) is None:
        with suppress(InputError):  # the other writer started it first
            store.start_run(RunRecord(run_id=run_id, lane="test", registry_version="1"))


def write_concurrently(
    url: str,
    run_id: str,
    cases: range,
    *,
    barrier: Barrier,
    inserted: Queue[int],
    batch: int = 0,
) -> None:
    """Open the store together with the other writer, then write the cases in ``cases``.

    One call per case, or with ``batch``, ``add_case_results`` of that many at a time.
    """
    barrier.wait()
    store = open_store(url)
    ensure_run(store, run_id)
    barrier.wait()
    if batch:
        chunks = [cases[start : start + batch] for start in range(0, len(cases), batch)]
        added = sum(store.add_case_results([result(run_id, i) for i in chunk]) for chunk in chunks)
    else:
        added = sum(store.add_case_result(result(run_id, i)) for i in cases)
    inserted.put(added)
    store.close()


def main(url: str, run_id: str, count: int) -> None:
    """Write the cases not yet stored, printing each index once its write committed."""
    store = open_store(url)
    ensure_run(store, run_id)
    done = store.finished_cases(run_id)
    for index in range(count):
        record = result(run_id, index)
        if record.key in done:
            continue
        store.add_case_result(record)
        print(index, flush=True)
    store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))


def merge_concurrently(url: str, marker: str, traces: int, *, barrier: Barrier) -> None:
    """Add ``marker`` to each of ``traces`` received traces, slowly, beside another writer."""
    import time  # noqa: PLC0415 - only this writer needs it

    from tracegrade.store import ReceivedTraceRecord  # noqa: PLC0415

    store = open_store(url)
    barrier.wait()
    for number in range(traces):
        trace_id = f"{number:032x}"

        def merge(
            stored: ReceivedTraceRecord | None, trace_id: str = trace_id
        ) -> ReceivedTraceRecord:
            markers = list(stored.trace["markers"]) if stored is not None else []  # type: ignore[arg-type]
            time.sleep(0.005)  # a read-merge-write race would lose the other writer's marker
            trace = {"markers": [*markers, marker]}
            return ReceivedTraceRecord(trace_id=trace_id, source_format="otlp", trace=trace)

        store.merge_received_trace(trace_id, merge)
    store.close()
