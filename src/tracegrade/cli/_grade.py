"""``tracegrade grade``: a suite (or one trace with a question), or every run found.

With no question file the command is cli/_grade_runs.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.report import CiCase
    from tracegrade.suites import CaseResult

__all__ = ["grade_command"]

Format = Literal["text", "tsv", "json", "jsonl", "junit", "github"]


@click.command("grade")
@click.argument("targets", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "tsv", "json", "jsonl", "junit", "github"]),
    default="text",
    show_default=True,
    help="text: a block per case or run; tsv: one row each; json: one object with a cases (or"
    " runs) list and a summary; jsonl: one object per case or run, written as each is graded;"
    " junit: JUnit XML, a testcase each; github: GitHub Actions annotations, and a job summary"
    " appended to $GITHUB_STEP_SUMMARY when set (docs/ci.md).",
)
@click.option(
    "--question-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With one trace file: the TOML file that defines the question.",
)
@click.option("--question", "question_id", help="With --question-file: the question id to grade.")
@click.option(
    "--from",
    "format_name",
    metavar="FORMAT",
    help="Read the trace files with this trace reader (native, openai-chat, tau-bench, tau2,"
    " ...) instead of detecting each file's format.",
)
@click.option(
    "--strict/--lenient",
    default=None,
    help="Strict: a tool result no decoder recognises is an error. Lenient: it is read as"
    " plain text, and the report says so. Default: strict for native traces, lenient for"
    " other formats (or the suite's [suite] strict).",
)
@click.option(
    "--run",
    "run_id",
    metavar="ID",
    help="Grade only the run with this id (the part after # in its name, or its 1-based"
    " position) in each multi-run file; with --question-file too.",
)
@click.option(
    "--fail-on",
    metavar="unsupported[:KINDS]",
    help="With no question file: exit 1 when a run has an unsupported claim the user did not"
    " give (of these comma-separated claim kinds only, e.g. unsupported:figure,path).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="With no question file: grade in this many processes (or Ray tasks at once).",
)
@click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="With no question file. local: this process, or a pool of --workers processes; ray:"
    " Ray tasks (the ray extra; RAY_ADDRESS names a cluster, else a local instance starts).",
)
def grade_command(
    *,
    targets: tuple[str, ...],
    output_format: Format,
    question_file: Path | None,
    question_id: str | None,
    format_name: str | None,
    strict: bool | None,
    run_id: str | None,
    fail_on: str | None,
    workers: int,
    executor: Literal["local", "ray"],
) -> None:
    """Grade PATH...: trace files, folders or glob patterns; or a suite file (.toml).

    With no question file, every run found is graded by the claims of its answer (figures,
    paths, URLs, ids, quotes, dates, names, quantities): each read, named-only or
    unsupported, and the share read. A suite, or one trace with --question-file, is graded
    against its questions and predictions.

    \b
    Examples:
      tracegrade grade examples/traces/
      tracegrade grade 'runs/**/*.jsonl' --format jsonl --fail-on unsupported:figure
      tracegrade grade runs/ --workers 4
      tracegrade grade tau-bench-results.json --run task-7-trial-0
      tracegrade grade examples/suite.toml --format json
      tracegrade grade examples/suite.toml --format junit > report.xml
      tracegrade grade run.json --question-file questions.toml --question model-name
    """
    bulk = fail_on is not None or workers != 1 or executor != "local"
    if len(targets) > 1 and any(target.endswith(".toml") for target in targets):
        raise click.UsageError("a suite file (.toml) is graded on its own, not with other paths")
    if question_file is None and not (len(targets) == 1 and targets[0].endswith(".toml")):
        if question_id is not None:
            raise click.UsageError("--question goes with --question-file")
        from tracegrade.cli._grade_runs import grade_runs_command

        grade_runs_command(
            targets,
            output_format=output_format,
            format_name=format_name,
            strict=strict,
            run_id=run_id,
            fail_on=fail_on,
            workers=workers,
            executor=executor,
        )
        return
    if bulk:
        raise click.UsageError(
            "--fail-on, --workers and --executor go with grading without a question file"
        )
    if len(targets) != 1:
        raise click.UsageError("a suite file, or --question-file, grades one PATH")
    target = Path(targets[0])
    started = time.perf_counter()
    if target.suffix == ".toml":
        _suite_takes_none_of(question_file, question_id, format_name, run_id)
        results, heading, cases = _grade_suite(target, strict)
    else:
        results = _grade_one(
            target,
            question_file=question_file,
            question_id=question_id,
            format_name=format_name,
            strict=strict,
            run_id=run_id,
        )
        heading = f"tracegrade grade {target} --question-file {question_file}"
        cases = [_trace_case(result, question_file, target) for result in results]
    if output_format == "junit" or output_format == "github":  # noqa: PLR1714 - narrows the type
        from tracegrade.cli._ci import write_ci_report

        elapsed = time.perf_counter() - started
        write_ci_report(output_format, heading, cases, time=elapsed)
    else:
        _write(results, output_format)
    failed = [result for result in results if not result.matched]
    from tracegrade.report import mismatch_summary, success_summary

    if failed:
        click.echo(f"\n{mismatch_summary(results)}", err=True)
        sys.exit(1)
    if output_format in {"text", "junit", "github"}:  # a closing line in the job log too
        click.echo(f"\n{success_summary(results)}", err=True)


def _suite_takes_none_of(
    question_file: Path | None, question_id: str | None, format_name: str | None, run_id: str | None
) -> None:
    if question_file is not None or question_id is not None or format_name is not None:
        raise click.UsageError(
            "--question-file, --question and --from go with a trace file, not a suite"
        )
    if run_id is not None:
        raise click.UsageError(
            '--run goes with a trace file; a suite case names its run (run = "ID")'
        )


def _grade_suite(path: Path, strict: bool | None) -> tuple[list[CaseResult], str, list[CiCase]]:
    """The suite's results, its name, and a CI case each (at its case's line, timed)."""
    from tracegrade.report import ci_case_of_result
    from tracegrade.suites import load_suite, run_suite

    loaded = load_suite(path)
    graded = _timed(run_suite(loaded, strict=strict))
    total = len(loaded.suite.cases)
    if total < 20 or not sys.stderr.isatty():
        timed = list(graded)
    else:
        with click.progressbar(graded, length=total, label="grading", file=sys.stderr) as bar:
            timed = list(bar)
    lines = loaded.case_lines()
    cases = [
        ci_case_of_result(
            result,
            suite=str(path),
            line=lines[result.case - 1] if lines and result.case else None,
            time=seconds,
        )
        for result, seconds in timed
    ]
    return [result for result, _ in timed], loaded.suite.suite.name or str(path), cases


def _timed(results: Iterator[CaseResult]) -> Iterator[tuple[CaseResult, float]]:
    """Each result with the seconds it took: suite cases are graded one after another."""
    while True:
        started = time.perf_counter()
        result = next(results, None)
        if result is None:
            return
        yield result, time.perf_counter() - started


def _trace_case(result: CaseResult, question_file: Path | None, trace: Path) -> CiCase:
    """A trace graded with --question-file: grouped under that file, pointed at the trace."""
    from dataclasses import replace

    from tracegrade.report import ci_case_of_result

    return replace(ci_case_of_result(result, suite=str(question_file)), file=str(trace))


def _grade_one(
    path: Path,
    *,
    question_file: Path | None,
    question_id: str | None,
    format_name: str | None,
    strict: bool | None,
    run_id: str | None,
) -> list[CaseResult]:
    from tracegrade.suites import grade_trace_runs, load_decoders, load_questions

    if question_file is None:  # the caller sends a trace without one to _grade_runs
        raise click.UsageError("grading a trace against a question needs --question-file")
    questions = load_questions(question_file)
    if question_id is None:
        if len(questions) != 1:
            ids = ", ".join(q.id for q in questions) or "none"
            raise click.UsageError(f"pass --question; {question_file} defines: {ids}")
        question = questions[0]
    else:
        found = next((q for q in questions if q.id == question_id), None)
        if found is None:
            from tracegrade.errors import UnknownQuestionError

            ids = ", ".join(q.id for q in questions) or "none"
            raise UnknownQuestionError(
                f"no question {question_id!r}",
                fix=f"defined questions: {ids}",
                path=str(question_file),
            )
        question = found
    decoders = load_decoders(question_file)
    return grade_trace_runs(path, question, run_id, format_name, strict=strict, decoders=decoders)


def _write(
    results: list[CaseResult], output_format: Literal["text", "tsv", "json", "jsonl"]
) -> None:
    from tracegrade import report

    if output_format in {"json", "jsonl"}:
        import orjson

        if output_format == "jsonl":
            click.echo("\n".join(orjson.dumps(report.case_json(r)).decode() for r in results))
            return
        data = orjson.dumps(report.report_json(results), option=orjson.OPT_INDENT_2)
        click.echo(data.decode())
    elif output_format == "tsv":
        click.echo("\n".join(["\t".join(report.TSV_COLUMNS), *map(report.tsv_row, results)]))
    else:
        click.echo("\n\n".join(report.text_block(result) for result in results))
