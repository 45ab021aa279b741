"""Grade every run of many trace files with no question file (``tracegrade grade DIR``).

Each run is graded by the claims extracted from its answer (``verdicts.grade(trace)``). A
file is read one run at a time, so memory stays flat however many runs a file or a folder
holds. A file that cannot be read, or a run that cannot be graded, becomes an error entry
beside the others' results instead of stopping them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracegrade.errors import TracegradeError
from tracegrade.suites._native_files import core_may_grade, graded_by_core
from tracegrade.traces import read_traces
from tracegrade.verdicts import Grade, grade

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence
    from pathlib import Path

    from tracegrade.claims import ClaimKind
    from tracegrade.traces import Trace
    from tracegrade.verdicts import GradedAnswerClaim

__all__ = ["GradeTraceFile", "GradedRun", "TraceFile", "grade_file_runs", "grade_runs"]


@dataclass(frozen=True, slots=True)
class GradedRun:
    """One run of a trace file, graded with no question; or why it could not be.

    Attributes:
        run: Its name in reports: the file for a file of one run, ``FILE#ID`` for a file of
            several (``FILE#N``, N counted from 1, when two runs of the file share an id).
        path: The trace file.
        trace_id: The run's recorded id (``None`` for an error about the whole file).
        source_format: The reader that read it (``None`` for an error about the whole file).
        grade: What the grader concluded; ``None`` when ``error`` says why not.
        error: One line naming the file (and record, frame or tool) and how to fix it.
    """

    run: str
    path: str
    trace_id: str | None = None
    source_format: str | None = None
    grade: Grade | None = None
    error: str | None = None

    def __reduce__(
        self,
    ) -> tuple[Callable[[tuple[str | None, ...]], GradedRun], tuple[tuple[str | None, ...]]]:
        # Between processes the grade travels as JSON: pydantic-core reads it back three
        # times faster than pickle rebuilds the model tree, and the parent's share of the
        # work is what limits two workers' speed-up on two cores.
        grade = None if self.grade is None else self.grade.model_dump_json()
        fields = (self.run, self.path, self.trace_id, self.source_format, grade, self.error)
        return _unpickled, (fields,)

    def unsupported(
        self, kinds: Collection[ClaimKind] | None = None
    ) -> tuple[GradedAnswerClaim, ...]:
        """Its unsupported claims the user did not give (of ``kinds`` only, when given)."""
        if self.grade is None:
            return ()
        claims = self.grade.unsupported_claims
        return claims if kinds is None else tuple(c for c in claims if c.kind in kinds)


def _unpickled(fields: tuple[str | None, ...]) -> GradedRun:
    """A graded run from what :meth:`GradedRun.__reduce__` pickled."""
    run, path, trace_id, source_format, grade, error = fields
    if run is None or path is None:  # never: both are always set
        msg = "a pickled graded run lacks its name or path"
        raise ValueError(msg)
    graded = None if grade is None else Grade.model_validate_json(grade)
    return GradedRun(run, path, trace_id, source_format, graded, error)


class _FileRuns:
    """Names a file's runs as they are read, and grades the selected ones."""

    __slots__ = ("path", "run", "seen", "strict")

    def __init__(self, path: str, run: str | None, *, strict: bool | None) -> None:
        self.path = path
        self.run = run
        self.strict = strict
        self.seen: set[str] = set()

    def graded(self, trace: Trace, number: int, *, several: bool) -> Iterator[GradedRun]:
        """The run graded under its name, when it is selected; nothing otherwise."""
        name = self.path
        if several:
            name = f"{self.path}#{trace.id if trace.id not in self.seen else number}"
            self.seen.add(trace.id)
        if self.run is not None and self.run not in {trace.id, str(number)}:
            return
        try:
            graded = grade(trace, strict=self.strict)
        except TracegradeError as exc:
            error = str(exc.in_file(name))
            yield GradedRun(name, self.path, trace.id, trace.source_format, error=error)
            return
        yield GradedRun(name, self.path, trace.id, trace.source_format, grade=graded)


def grade_file_runs(
    path: str | Path,
    *,
    format_name: str | None = None,
    strict: bool | None = None,
    run: str | None = None,
) -> Iterator[GradedRun]:
    """Grade every run of one trace file, in file order, reading one run ahead.

    One run ahead is read to name the run: a file of one run is named by its path, a
    file of several by ``path#ID``. Runs read before the file turned out to be broken are
    graded; the file's error follows them.

    Args:
        path: The trace file, in any format the readers know.
        format_name: Use this trace reader instead of detecting the format.
        strict: See :func:`~tracegrade.observations.observe`.
        run: Grade only the run with this id (or this 1-based position in the file).

    Yields:
        Each selected run, graded or with its error; an error entry for the file when it
        cannot be read or holds no run.
    """
    name = str(path)
    if run is None and core_may_grade(format_name, strict=strict):
        graded = graded_by_core(name, auto=True)
        if graded is not None:
            yield GradedRun(name, name, graded.trace_id, "native", graded)
            return
    runs = _FileRuns(name, run, strict=strict)
    held: Trace | None = None
    number = 0
    try:
        for trace in read_traces(path, format_name=format_name):
            if held is not None:
                yield from runs.graded(held, number, several=True)
            held = trace
            number += 1
    except TracegradeError as exc:
        if held is not None:  # the file went on past it: one of several
            yield from runs.graded(held, number, several=True)
        yield GradedRun(name, name, error=str(exc.in_file(name)))
        return
    if held is None:
        error = f"{name}: the file holds no run. Remove it, or export the runs into it again"
        yield GradedRun(name, name, error=error)
    else:
        yield from runs.graded(held, number, several=number > 1)


def _guarded(path: str, work: GradeTraceFile) -> Iterator[GradedRun]:
    """A file's graded runs; a crash becomes the file's error entry, after what was graded."""
    try:
        yield from grade_file_runs(
            path, format_name=work.format_name, strict=work.strict, run=work.run
        )
    except Exception as exc:  # noqa: BLE001 - one file's crash must not stop the others
        what = f"{type(exc).__name__}: {exc}".splitlines()[0]
        yield GradedRun(path, path, error=f"{path}: internal error ({what})")


@dataclass(frozen=True, slots=True)
class TraceFile:
    """A trace file handed to a worker: its position in the input, and its path."""

    index: int
    path: str


@dataclass(frozen=True, slots=True)
class GradeTraceFile:
    """Grade one trace file in a worker; never raises (a crash is the file's error entry).

    Workers get the path, not the parsed runs: only the (small) graded runs travel back.
    """

    format_name: str | None = None
    strict: bool | None = None
    run: str | None = None

    def __call__(self, unit: TraceFile, emit: Callable[[GradedRun], None], /) -> None:
        """Grade ``unit``'s file, handing each graded run to ``emit`` in file order."""
        for graded in _guarded(unit.path, self):
            emit(graded)


def grade_runs(
    files: Sequence[str | Path],
    *,
    format_name: str | None = None,
    strict: bool | None = None,
    run: str | None = None,
    workers: int = 1,
    ray: bool = False,
    ray_address: str | None = None,
) -> Iterator[GradedRun]:
    """Grade every run of every file, yielding results as they come, in input order.

    Args:
        files: The trace files (see :func:`find_trace_files`).
        format_name: Read every file with this reader instead of detecting each format.
        strict: See :func:`~tracegrade.observations.observe`.
        run: Grade only the runs with this id (or 1-based position in their file).
        workers: Grade in this many processes (a local process pool) when above 1.
        ray: Grade as Ray tasks, ``workers`` at once (a local instance gets ``workers`` CPUs).
        ray_address: The Ray cluster; ``None``: ``RAY_ADDRESS``, else a local instance.

    Raises:
        InputError: ``workers`` is below 1, or Ray is asked for and not installed.
        InfrastructureError: A worker process died, or Ray failed.
    """
    work = GradeTraceFile(format_name, strict, run)
    if not ray and workers == 1:
        for path in files:
            yield from _guarded(str(path), work)
        return
    from tracegrade.suites._parallel import in_parallel  # noqa: PLC0415 - only when asked

    units = [TraceFile(index, str(path)) for index, path in enumerate(files)]
    yield from in_parallel(units, work, workers=workers, ray=ray, ray_address=ray_address)
