"""``tracegrade export otel|phoenix|langfuse``: verdicts sent back to where the traces live."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.export import Evaluation

__all__ = ["export_group"]


def _trace_options(function: Callable[..., None]) -> Callable[..., None]:
    """TRACES..., ``--question-file`` and ``--question``: what every exporter grades."""
    function = click.option(
        "--question",
        "question_id",
        metavar="ID",
        help="Which question of --question-file (needed when it defines several).",
    )(function)
    function = click.option(
        "--question-file",
        type=click.Path(path_type=Path, exists=True, dir_okay=False),
        help="Grade against a question too (facts, true source): adds the provenance verdict.",
    )(function)
    return click.argument(
        "traces", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True)
    )(function)


def _files(targets: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for target in targets:
        if target.is_dir():
            files.extend(sorted(p for p in target.rglob("*") if p.is_file()))
        else:
            files.append(target)
    return files


def _evaluations(
    targets: Sequence[Path], question_file: Path | None, question_id: str | None
) -> tuple[list[Evaluation], int]:
    """Every run of the trace files graded, as evaluations; and how many runs there were."""
    from tracegrade.errors import InputError, TracegradeError
    from tracegrade.export import evaluations
    from tracegrade.testing import load_question
    from tracegrade.traces import read_traces
    from tracegrade.verdicts import grade

    question = None if question_file is None else load_question(question_file, question_id)
    if question is None and question_id is not None:
        raise click.UsageError("--question needs --question-file")
    found: list[Evaluation] = []
    runs = 0
    for path in _files(targets):
        try:
            for trace in read_traces(path):
                runs += 1
                found.extend(evaluations(trace, grade(trace, question, auto=True)))
        except TracegradeError as exc:
            raise exc.in_file(str(path)) from None
    if not runs:
        raise InputError("no run found in the trace files", fix="pass trace files of runs")
    return found, runs


@click.group("export")
def export_group() -> None:
    """Send each run's verdicts to the tools where its traces live.

    Every exporter sends the same evaluations: the run (tracegrade.grounding), its
    provenance when --question-file is given, and one per claim of its answer
    (tracegrade.claim), attached to the span that wrote the answer when the run was read
    from spans (docs/export.md).
    """


def _headers(pairs: Sequence[str]) -> dict[str, str]:
    headers = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--header")
        headers[name.strip()] = value.strip()
    return headers


def _logs_endpoint(endpoint: str | None) -> str:
    if endpoint:
        return endpoint
    base = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if base:
        return base.rstrip("/") + "/v1/logs"
    raise click.UsageError(
        "no collector: pass --endpoint http://HOST:4318/v1/logs (or set"
        " OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)"
    )


@export_group.command("otel")
@_trace_options
@click.option(
    "--endpoint",
    metavar="URL",
    envvar="OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
    show_envvar=True,
    help="The collector's OTLP/HTTP logs endpoint (default: $OTEL_EXPORTER_OTLP_ENDPOINT/v1/logs).",
)
@click.option("--header", "headers", multiple=True, metavar="NAME=VALUE", help="A request header.")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds to wait.")
def otel_command(
    *,
    traces: tuple[Path, ...],
    question_file: Path | None,
    question_id: str | None,
    endpoint: str | None,
    headers: tuple[str, ...],
    timeout: float,
) -> None:
    """Send gen_ai.evaluation.result events to an OpenTelemetry collector (OTLP/HTTP).

    \b
    Examples:
      tracegrade export otel runs/ --endpoint http://127.0.0.1:4318/v1/logs
      tracegrade export otel spans.json --question-file q.toml --question refund-window
    """
    from tracegrade.export import send_otel

    url = _logs_endpoint(endpoint)
    found, runs = _evaluations(traces, question_file, question_id)
    sent = send_otel(found, url, headers=_headers(headers), timeout=timeout)
    parented = sum(evaluation.span is not None for evaluation in found)
    click.echo(
        f"sent {sent} gen_ai.evaluation.result event(s) for {runs} run(s) to {url}"
        f" ({parented} parented to the span that wrote the answer,"
        f" {len(found) - parented} with gen_ai.response.id)"
    )


@export_group.command("phoenix")
@_trace_options
@click.option("--url", required=True, metavar="URL", help="The Phoenix server (http://HOST:6006).")
@click.option(
    "--api-key",
    envvar="PHOENIX_API_KEY",
    show_envvar=True,
    help="Phoenix's API key, when its authentication is on.",
)
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds to wait.")
def phoenix_command(
    *,
    traces: tuple[Path, ...],
    question_file: Path | None,
    question_id: str | None,
    url: str,
    api_key: str | None,
    timeout: float,
) -> None:
    """Annotate the spans of runs read from Phoenix / OpenInference spans, in Phoenix.

    \b
    Example:
      tracegrade export phoenix phoenix-spans.json --url http://127.0.0.1:6006
    """
    from tracegrade.export import phoenix_annotations, send_phoenix

    found, runs = _evaluations(traces, question_file, question_id)
    annotations = phoenix_annotations(found)
    inserted = send_phoenix(annotations, url, api_key=api_key, timeout=timeout)
    spans = len({annotation["span_id"] for annotation in annotations})
    click.echo(
        f"annotated {spans} span(s) of {runs} run(s) in Phoenix at {url}:"
        f" {inserted} annotation(s) stored"
    )


@export_group.command("langfuse")
@_trace_options
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the scores here (default: standard output).",
)
def langfuse_command(
    *,
    traces: tuple[Path, ...],
    question_file: Path | None,
    question_id: str | None,
    output: Path | None,
) -> None:
    """Write Langfuse scores (bodies of POST /api/public/scores), one JSON object a line.

    \b
    Example:
      tracegrade export langfuse runs/ -o scores.jsonl
    """
    from tracegrade.export import langfuse_lines

    found, runs = _evaluations(traces, question_file, question_id)
    lines = langfuse_lines(found)
    if output is None:
        click.echo(lines, nl=False)
        return
    output.write_text(lines, encoding="utf-8")
    click.echo(f"wrote {len(found)} Langfuse score(s) for {runs} run(s) to {output}", err=True)
