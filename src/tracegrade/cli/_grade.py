"""``tracegrade grade``: grade a suite (or one trace) and check its predictions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

if TYPE_CHECKING:
    from tracegrade.suites import CaseResult

__all__ = ["grade_command"]

Format = Literal["text", "tsv", "json"]


@click.command("grade")
@click.argument("target", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "tsv", "json"]),
    default="text",
    show_default=True,
    help="text: a block per case; tsv: one row per case; json: one object with a cases list.",
)
@click.option(
    "--question-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With a trace file: the TOML file that defines the question.",
)
@click.option("--question", "question_id", help="With a trace file: the question id to grade.")
@click.option(
    "--from",
    "format_name",
    metavar="FORMAT",
    help="With a trace file: read it with this trace reader (native, openai-chat, tau-bench,"
    " tau2, ...) instead of detecting the format.",
)
@click.option(
    "--strict/--lenient",
    default=None,
    help="Strict: a tool result no decoder recognises is an error. Lenient: it is read as"
    " plain text, and the report says so. Default: strict for native traces, lenient for"
    " other formats (or the suite's [suite] strict).",
)
def grade_command(
    *,
    target: Path,
    output_format: Format,
    question_file: Path | None,
    question_id: str | None,
    format_name: str | None,
    strict: bool | None,
) -> None:
    """Grade TARGET: a suite file (.toml) or one trace file (with --question-file).

    \b
    Examples:
      tracegrade grade examples/suite.toml
      tracegrade grade examples/suite.toml --format json
      tracegrade grade run.json --question-file questions.toml --question model-name
      tracegrade grade chat.json --from openai-chat --question-file questions.toml
    """
    if target.suffix == ".toml":
        if question_file is not None or question_id is not None or format_name is not None:
            raise click.UsageError(
                "--question-file, --question and --from go with a trace file, not a suite"
            )
        results = _grade_suite(target, strict)
    else:
        results = [_grade_one(target, question_file, question_id, format_name, strict)]
    _write(results, output_format)
    failed = [result for result in results if not result.matched]
    from tracegrade.report import mismatch_summary, success_summary

    if failed:
        click.echo(f"\n{mismatch_summary(results)}", err=True)
        sys.exit(1)
    if output_format == "text":
        click.echo(f"\n{success_summary(results)}", err=True)


def _grade_suite(path: Path, strict: bool | None) -> list[CaseResult]:
    from tracegrade.suites import load_suite, run_suite

    loaded = load_suite(path)
    cases = run_suite(loaded, strict=strict)
    total = len(loaded.suite.cases)
    if total < 20 or not sys.stderr.isatty():
        return list(cases)
    with click.progressbar(cases, length=total, label="grading", file=sys.stderr) as bar:
        return list(bar)


def _grade_one(
    path: Path,
    question_file: Path | None,
    question_id: str | None,
    format_name: str | None,
    strict: bool | None,
) -> CaseResult:
    from tracegrade.suites import grade_trace_file, load_decoders, load_questions

    if question_file is None:
        raise click.UsageError(
            "grading a single trace needs --question-file (and --question when it defines"
            " several); or pass a suite file (.toml)"
        )
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
    return grade_trace_file(
        path, question, format_name=format_name, strict=strict, decoders=decoders
    )


def _write(results: list[CaseResult], output_format: Format) -> None:
    from tracegrade import report

    if output_format == "json":
        import orjson

        data = orjson.dumps(report.report_json(results), option=orjson.OPT_INDENT_2)
        click.echo(data.decode())
    elif output_format == "tsv":
        click.echo("\n".join(["\t".join(report.TSV_COLUMNS), *map(report.tsv_row, results)]))
    else:
        click.echo("\n\n".join(report.text_block(result) for result in results))
