"""``tracegrade grade PATH...`` with no question file: every run found, graded by its claims.

Results are written as they come (text, TSV or JSON Lines; JSON framed around them), in
input order (JUnit XML and GitHub annotations once every run is graded: a CI case each is
kept, not the grade). A file that cannot be read is one line on stderr (and an error entry in JSON)
and the others go on; exit 2 only when nothing could be read at all. Output starts with the
first graded run, so a command that exits 2 has written nothing on stdout.
"""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Literal, get_args

import click

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tracegrade.claims import ClaimKind
    from tracegrade.report import CiCase, RunTally
    from tracegrade.suites import GradedRun

__all__ = ["grade_runs_command", "parse_fail_on"]

RunsFormat = Literal["text", "tsv", "json", "jsonl", "junit", "github"]

_PROGRESS_FILES = 5
"""More files than this on a terminal: a progress bar on stderr."""
_FAILING_SHOWN = 20
"""Failing runs named on stderr at most; the count says how many more."""


def parse_fail_on(value: str) -> frozenset[ClaimKind]:
    """The claim kinds ``--fail-on unsupported[:KINDS]`` names (every kind when none).

    Raises:
        click.BadParameter: Not ``unsupported``, or an unknown kind (the valid ones listed).
    """
    from tracegrade.claims import ClaimKind

    valid: tuple[ClaimKind, ...] = get_args(ClaimKind)
    rule, _, kinds = value.partition(":")
    if rule != "unsupported":
        raise click.BadParameter(
            f"{value!r}: the rule is 'unsupported' or 'unsupported:KIND,KIND'",
            param_hint="--fail-on",
        )
    if not kinds:
        return frozenset(valid)
    named = [kind.strip() for kind in kinds.split(",")]
    unknown = [kind for kind in named if kind not in valid]
    if unknown:
        raise click.BadParameter(
            f"unknown claim kind(s) {', '.join(map(repr, unknown))}; valid: {', '.join(valid)}",
            param_hint="--fail-on",
        )
    return frozenset(kind for kind in valid if kind in named)


def grade_runs_command(
    targets: Sequence[str],
    *,
    output_format: RunsFormat,
    format_name: str | None,
    strict: bool | None,
    run_id: str | None,
    fail_on: str | None,
    workers: int,
    executor: Literal["local", "ray"],
) -> None:
    """Find, grade and write every run; exit 1 on ``--fail-on``, 2 when nothing was read.

    Raises:
        InputError: No trace file found, no run could be read, or ``--run`` matched none.
    """
    from tracegrade.errors import InputError
    from tracegrade.report import RunTally
    from tracegrade.suites import TRACE_SUFFIXES, GradedRun, find_trace_files, grade_runs

    kinds = parse_fail_on(fail_on) if fail_on is not None else None
    found = find_trace_files(targets)
    if not found.files:
        raise InputError(
            f"no trace files found in {', '.join(targets)}",
            fix=f"name trace files, folders holding {', '.join(TRACE_SUFFIXES)} files, or a"
            " glob pattern",
        )
    suffixes = ", ".join(TRACE_SUFFIXES)
    empty = [
        GradedRun(target, target, error=f"{target}: no trace files ({suffixes}) found here")
        for target in found.empty
    ]
    tally = RunTally(len(found.files))
    writer = _Writer(output_format, tally, heading=f"tracegrade grade {' '.join(targets)}")
    failing: list[str] = []
    runs = grade_runs(
        found.files,
        format_name=format_name,
        strict=strict,
        run=run_id,
        workers=workers,
        ray=executor == "ray",
    )
    with _progress(len(found.files)) as advance:
        for run in _chained(empty, runs):
            fails = kinds is not None and bool(run.unsupported(kinds))
            tally.add(run, failing=fails)
            if fails:
                failing.append(run.run)
            writer.write(run, failing=fails)
            advance(run)
    if tally.graded == 0:
        if tally.errors == 0:
            raise InputError(
                f"no run {run_id!r} in {len(found.files)} file(s)",
                fix="--run takes a run's id (the part after # in its name) or its 1-based"
                " position in its file",
            )
        raise InputError(
            f"no trace could be read: {tally.errors} file(s) or run(s) failed (each named above)",
            fix="fix or remove the files named above, or pass --from FORMAT",
        )
    writer.finish()
    if failing:
        shown = ", ".join(failing[:_FAILING_SHOWN])
        more = f" and {len(failing) - _FAILING_SHOWN} more" if len(failing) > _FAILING_SHOWN else ""
        click.echo(f"{len(failing)} run(s) with unsupported claims ({fail_on}): {shown}{more}",
                   err=True)  # fmt: skip
        sys.exit(1)


def _chained(first: list[GradedRun], rest: Iterator[GradedRun]) -> Iterator[GradedRun]:
    yield from first
    yield from rest


class _Writer:
    """Writes each run as it comes; holds error entries until the first graded run."""

    def __init__(self, output_format: RunsFormat, tally: RunTally, *, heading: str) -> None:
        self.format = output_format
        self.tally = tally  # its summary closes the report
        self.started = False
        self.entries = 0
        self.held: list[GradedRun] = []
        self.heading = heading
        self.began = time.perf_counter()
        self.cases: list[CiCase] = []  # junit and github: written when every run is graded

    def write(self, run: GradedRun, *, failing: bool) -> None:
        if self.format == "junit" or self.format == "github":  # noqa: PLR1714 - one check
            from tracegrade.report import ci_case_of_run

            if run.error is not None:
                click.echo(f"tracegrade: error: {run.error}", err=True)
            self.cases.append(ci_case_of_run(run, failing=failing))
            return
        if run.error is not None:
            click.echo(f"tracegrade: error: {run.error}", err=True)
            if self.format not in {"json", "jsonl"}:
                return
            if self.started:
                self._entry(run)
            else:
                self.held.append(run)
            return
        if not self.started:
            self._start()
        self._entry(run)

    def _start(self) -> None:
        from tracegrade.report import RUN_TSV_COLUMNS, RUNS_SCHEMA_VERSION

        self.started = True
        if self.format == "tsv":
            click.echo("\t".join(RUN_TSV_COLUMNS))
        elif self.format == "json":
            click.echo(f'{{\n  "schema_version": {RUNS_SCHEMA_VERSION},\n  "runs": [')
        for run in self.held:
            self._entry(run)
        self.held.clear()

    def _entry(self, run: GradedRun) -> None:
        from tracegrade import report

        first = self.entries == 0
        self.entries += 1
        if self.format == "text":
            click.echo(("" if first else "\n") + report.run_text_block(run))
        elif self.format == "tsv":
            click.echo(report.run_tsv_row(run))
        elif self.format == "jsonl":
            click.echo(_json(report.run_json(run)))
        else:
            click.echo(("    " if first else ",\n    ") + _json(report.run_json(run)), nl=False)

    def finish(self) -> None:
        if self.format == "junit" or self.format == "github":  # noqa: PLR1714 - narrows the type
            from tracegrade.cli._ci import write_ci_report

            elapsed = time.perf_counter() - self.began
            write_ci_report(self.format, self.heading, self.cases, time=elapsed)
            click.echo(f"{self.tally.summary_text()}", err=True)
        elif self.format == "json":
            click.echo(f'\n  ],\n  "summary": {_json(self.tally.summary_json())}\n}}')
        elif self.format == "text":
            click.echo(f"\n{self.tally.summary_text()}", err=True)


def _json(value: dict[str, Any]) -> str:
    import orjson

    return orjson.dumps(value).decode()


def _progress(files: int) -> Any:  # noqa: ANN401 - a context manager yielding a callback
    """A progress bar over the files on stderr when it is a terminal; else nothing shown."""
    if files <= _PROGRESS_FILES or not sys.stderr.isatty():
        return nullcontext(lambda _run: None)
    return _ProgressBar(files)


class _ProgressBar:
    """Files done and runs graded, on stderr; gone when the grading ends."""

    def __init__(self, files: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.progress = Progress(
            "grading",
            BarColumn(),
            MofNCompleteColumn(),
            "files",
            "{task.fields[runs]} runs",
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.total = files
        self.task = self.progress.add_task("grading", total=files, runs=0)
        self.last: str | None = None
        self.runs = 0

    def __enter__(self) -> Any:  # noqa: ANN401 - the advance callback
        self.progress.__enter__()
        return self.advance

    def __exit__(self, *exc: object) -> None:
        self.progress.update(self.task, completed=self.total)  # the last file ended too
        self.progress.__exit__(None, None, None)

    def advance(self, run: GradedRun) -> None:
        self.runs += run.grade is not None
        step = 1 if self.last is not None and run.path != self.last else 0
        self.last = run.path
        self.progress.update(self.task, advance=step, runs=self.runs)
