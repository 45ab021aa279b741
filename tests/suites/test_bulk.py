"""Bulk grading with no question file: finding trace files, naming runs, workers and Ray.

Expectations are about structure and counts computed from the files (how many runs, their
names, their order) and from ``verdicts.grade`` run here on the same traces, never about
what the claim scanners find.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import shutil
import threading
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.helpers.ray import local_ray
from tracegrade.suites import find_trace_files, grade_file_runs, grade_runs
from tracegrade.traces import read_traces
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.suites import GradedRun

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "traces"
READERS = REPO / "tests" / "fixtures" / "readers"
TAU_BENCH = READERS / "tau-bench" / "valid.json"


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance (2 CPUs) for the module."""
    yield from local_ray()


def _summary(runs: list[GradedRun]) -> list[tuple[str, str | None, object]]:
    """What a run reports: name, error, and its extracted claims (kind, raw, support)."""
    return [
        (
            run.run,
            run.error,
            None
            if run.grade is None
            else [(c.kind, c.raw, c.support, c.given) for c in run.grade.extracted],
        )
        for run in runs
    ]


def test_a_folder_is_searched_recursively_in_sorted_order_skipping_hidden(tmp_path: Path):
    for name in ("b.json", "a.jsonl", "notes.txt", "sub/c.traj", "sub/d.eval", ".hidden/e.json",
                 ".f.json", "sub/deeper/g.JSON"):  # fmt: skip
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}", encoding="utf-8")

    found = find_trace_files([tmp_path])

    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == [
        "a.jsonl", "b.json", "sub/c.traj", "sub/d.eval", "sub/deeper/g.JSON",
    ]  # fmt: skip
    assert found.empty == ()


def test_globs_files_and_folders_each_file_once_in_target_order(tmp_path: Path):
    glob = str(EXAMPLES / "*-only.json")

    found = find_trace_files([glob, EXAMPLES, str(EXAMPLES / "grep-only.json")])

    names = [path.name for path in found.files]
    expected_folder = sorted(path.name for path in EXAMPLES.iterdir())
    assert names == ["grep-only.json", *(n for n in expected_folder if n != "grep-only.json")]
    assert found.empty == ()


def test_targets_that_name_nothing_are_listed_and_missing_files_kept(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    missing = tmp_path / "absent.json"

    found = find_trace_files([tmp_path / "empty", str(tmp_path / "*.jsonl"), missing])

    assert found.files == (missing,)  # reading it reports why, beside the other files
    assert found.empty == (str(tmp_path / "empty"), str(tmp_path / "*.jsonl"))


def test_a_file_of_one_run_is_named_by_its_path():
    path = EXAMPLES / "read-source.json"

    (run,) = grade_file_runs(path)

    assert run.run == str(path)
    assert run.error is None
    assert run.grade == grade(next(read_traces(path)))


def test_a_file_of_several_runs_names_each_by_its_id():
    ids = [trace.id for trace in read_traces(TAU_BENCH)]
    assert len(ids) > 1

    runs = list(grade_file_runs(TAU_BENCH))

    assert [run.run for run in runs] == [f"{TAU_BENCH}#{trace_id}" for trace_id in ids]
    assert [run.trace_id for run in runs] == ids
    assert {run.source_format for run in runs} == {"tau-bench"}


def test_runs_sharing_an_id_are_named_by_position(tmp_path: Path):
    records = json.loads(TAU_BENCH.read_text(encoding="utf-8"))
    path = tmp_path / "twice.json"
    path.write_text(json.dumps([records[0], records[0], records[1]]), encoding="utf-8")
    ids = [trace.id for trace in read_traces(path)]
    assert ids[0] == ids[1]

    runs = list(grade_file_runs(path))

    assert [run.run for run in runs] == [f"{path}#{ids[0]}", f"{path}#2", f"{path}#{ids[2]}"]


def test_run_selects_by_id_or_position():
    ids = [trace.id for trace in read_traces(TAU_BENCH)]

    by_id = list(grade_file_runs(TAU_BENCH, run=ids[1]))
    by_position = list(grade_file_runs(TAU_BENCH, run="2"))

    assert [run.trace_id for run in by_id] == [ids[1]]
    assert _summary(by_position) == _summary(by_id)
    assert by_id[0].run == f"{TAU_BENCH}#{ids[1]}"  # still named as one of several
    assert list(grade_file_runs(TAU_BENCH, run="no-such-run")) == []


def test_runs_read_before_a_broken_record_are_graded_then_the_error_follows():
    path = READERS / "tau-bench" / "invalid.json"

    runs = list(grade_file_runs(path))

    assert [run.error is None for run in runs] == [True, False]
    assert runs[0].run.startswith(f"{path}#")
    assert runs[1].run == str(path)
    error = runs[1].error
    assert error is not None
    assert error.startswith(f"{path}: record 1")


def test_a_file_that_holds_no_run_is_an_error_entry(tmp_path: Path):
    path = tmp_path / "runs.jsonl"
    path.write_text("\n", encoding="utf-8")

    (run,) = grade_file_runs(path, format_name="openai-chat")  # no reader detects empty bytes

    assert run.grade is None
    assert run.error is not None
    assert "holds no run" in run.error


def test_a_run_that_cannot_be_graded_is_an_error_entry_named_after_it(tmp_path: Path):
    frames = [
        {"type": "user", "content": "q"},
        {"type": "tool_call", "id": "c1", "name": "read_file", "args": {}},
        {"type": "tool_result", "id": "c1", "ok": True, "result": {"ok": True, "x": 1}},
    ]
    data = {"id": "t", "commit": "v", "model": "m", "task": "t", "outcome": "success",
            "tokens": [1] * len(frames), "frames": frames}  # fmt: skip
    path = tmp_path / "strict.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    (strict,) = grade_file_runs(path)
    (lenient,) = grade_file_runs(path, strict=False)

    assert strict.error is not None
    assert strict.error.startswith(f"{path}: frame 2")
    assert lenient.error is None


def _graded_within(path: Path, seconds: float = 5) -> list[GradedRun]:
    """``grade_runs`` of one file in a thread; still running after ``seconds`` is a hang."""
    outcome: list[list[GradedRun]] = []
    thread = threading.Thread(target=lambda: outcome.append(list(grade_runs([path]))))
    thread.daemon = True
    thread.start()
    thread.join(seconds)
    assert outcome, f"grading {path} did not end within {seconds} s"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_named_like_a_native_trace_is_an_error_entry_not_a_hang(tmp_path: Path):
    fifo = tmp_path / "trace.json"
    os.mkfifo(fifo)  # opening it to read, as the core's path does, waits for a writer
    (run,) = _graded_within(fifo)
    assert run.grade is None
    assert run.error == (
        f"{fifo}: cannot read the file: it is not a regular file (a FIFO, socket or device)."
        " Save the trace to a regular file and pass that"
    )


@pytest.mark.skipif(not Path(os.devnull).is_char_device(), reason="no null device")
def test_a_device_named_like_a_native_trace_is_an_error_entry(tmp_path: Path):
    device = tmp_path / "null.json"
    device.symlink_to(os.devnull)  # reads as empty: a regular empty file is another error
    (run,) = _graded_within(device)
    assert run.error is not None
    assert "it is not a regular file (a FIFO, socket or device)" in run.error


@pytest.mark.skipif(not Path("/dev/zero").is_char_device(), reason="no /dev/zero")
def test_a_device_named_like_a_native_trace_is_never_read(tmp_path: Path):
    # Opening a device may act on it (a watchdog starts counting): it is refused by its stat.
    # /dev/zero never ends: reading it, the core would never answer.
    device = tmp_path / "zero.json"
    device.symlink_to("/dev/zero")
    (run,) = _graded_within(device)
    assert run.error is not None
    assert "it is not a regular file (a FIFO, socket or device)" in run.error


def test_a_folder_named_like_a_native_trace_is_an_error_entry(tmp_path: Path):
    folder = tmp_path / "runs.json"
    folder.mkdir()
    (run,) = _graded_within(folder)
    assert run.error is not None
    assert "cannot read the file: it is a folder" in run.error


def test_a_native_trace_file_is_graded_as_its_read_run_is():
    # The core reads and grades the file itself; the result is reading it and grading.
    path = EXAMPLES / "read-source.json"
    (run,) = grade_runs([path])
    (trace,) = read_traces(path)
    assert (run.run, run.trace_id, run.source_format) == (str(path), trace.id, "native")
    assert run.grade == grade(trace)


def _mixed_files() -> tuple[Path, ...]:
    """Every example and reader fixture: several formats, multi-run files, broken files."""
    found = find_trace_files([EXAMPLES, READERS])
    assert len(found.files) > 40
    return found.files


def test_two_workers_give_what_one_gives_in_input_order():
    files = _mixed_files()
    one = list(grade_runs(files))

    two = list(grade_runs(files, workers=2))

    assert two == one
    assert sum(run.error is not None for run in one) > 0
    assert sum(run.grade is not None for run in one) > 0


def test_ray_gives_what_one_worker_gives(ray_instance: None):
    files = _mixed_files()

    assert list(grade_runs(files, ray=True, workers=2)) == list(grade_runs(files))


def test_many_small_files_keep_their_order_across_workers(tmp_path: Path):
    for number in range(120):
        source = sorted(EXAMPLES.iterdir())[number % 4]
        shutil.copy(source, tmp_path / f"{number:03d}.json")
    files = find_trace_files([tmp_path]).files

    runs = list(grade_runs(files, workers=2))

    assert [run.run for run in runs] == [str(path) for path in files]


def test_stopping_early_stops_the_workers(tmp_path: Path):
    for number in range(300):
        shutil.copy(EXAMPLES / "read-source.json", tmp_path / f"{number:03d}.json")
    files = find_trace_files([tmp_path]).files
    started = time.perf_counter()

    runs = grade_runs(files, workers=2)
    first = [next(runs) for _ in range(3)]
    runs.close()  # type: ignore[attr-defined] # a generator

    assert [run.run for run in first] == [str(path) for path in files[:3]]
    assert time.perf_counter() - started < 30


def test_a_graded_run_travels_between_processes_unchanged():
    runs = [*grade_file_runs(TAU_BENCH), *grade_file_runs(READERS / "tau-bench" / "invalid.json")]
    assert {run.error is None for run in runs} == {True, False}

    assert [pickle.loads(pickle.dumps(run)) for run in runs] == runs  # noqa: S301 - our own


def test_memory_stays_flat_in_the_number_of_files_with_workers(tmp_path: Path):
    for number in range(800):
        shutil.copy(EXAMPLES / "read-source.json", tmp_path / f"{number:03d}.json")
    files = find_trace_files([tmp_path]).files
    held: dict[int, int] = {}
    gc.collect()
    tracemalloc.start()
    try:
        for count, _ in enumerate(grade_runs(files, workers=2), start=1):
            if count in {200, 800}:
                gc.collect()
                held[count] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()

    # Holding every result (each batch kept until the run ended) grew by ~2.3 MB here.
    assert held[800] - held[200] < 1_000_000
