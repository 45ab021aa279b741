"""``tracegrade show`` and ``tracegrade convert``: look at a normalised trace, or save it.

``show --claims`` grades each trace with no question (``grade(trace)``) and lists the
claims extracted from its final answer after the frames.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from tracegrade._text import escape_controls

if TYPE_CHECKING:
    from tracegrade.traces import Frame, Trace
    from tracegrade.verdicts import Grade, GradedAnswerClaim

__all__ = ["convert_command", "show_command"]

_SUMMARY = 100  # characters of a frame's text shown on its line
_NO_REPLY = {
    "answered": "(none)",
    "empty": "(none: the last turn's replies are blank)",
    "interrupted": "(none: the last turn got no reply)",
}


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _SUMMARY else flat[: _SUMMARY - 3] + "..."


def _frame_line(index: int, frame: Frame) -> str:
    import orjson

    from tracegrade.figures import result_text
    from tracegrade.traces import ApprovalFrame, CompactionFrame, ToolCallFrame, ToolResultFrame

    if isinstance(frame, ToolCallFrame):
        what = f"{frame.name} {_short(orjson.dumps(frame.args).decode())}"
    elif isinstance(frame, ToolResultFrame):
        status = "ok" if frame.ok else "FAILED"
        what = f"[{frame.id}] {status} {_short(result_text(frame.result))}"
    elif isinstance(frame, ApprovalFrame):
        what = f"{frame.tool} {frame.decision}"
    elif isinstance(frame, CompactionFrame):
        what = f"{frame.before} -> {frame.after} tokens: {_short(frame.summary)}"
    else:
        what = _short(frame.content)
    origin = f"  ({frame.origin})" if frame.origin else ""
    return f"  {index:>4}  {frame.type:<12}{what}{origin}"


def _claim_line(claim: GradedAnswerClaim) -> str:
    where = f"{claim.start}-{claim.end}"
    flags = [flag for flag, on in (("given", claim.given), ("hedged", claim.hedged)) if on]
    evidence = " ".join(claim.evidence) or "-"
    line = f"  {where:>9}  {claim.kind:<11}{claim.support:<12}{evidence:<10} {_short(claim.raw)}"
    return line + (f"  ({', '.join(flags)})" if flags else "")


def _claims_lines(grade: Grade) -> list[str]:
    """The claims block: one summary line, then one line per claim in answer order."""
    claims = grade.extracted
    if not claims:
        return ["", "  claims       (none found in the final answer)"]
    counts = ", ".join(
        f"{sum(claim.support == support for claim in claims)} {support}"
        for support in ("read", "named-only", "unsupported")
    )
    share = grade.grounded_share
    shared = "" if share is None else f"; grounded share {share:.0%}"
    return [
        "",
        f"  claims       {len(claims)}: {counts}{shared}",
        f"  {'at':>9}  {'kind':<11}{'support':<12}{'evidence':<10} claim",
        *(_claim_line(claim) for claim in claims),
    ]


def _text(path: Path, trace: Trace, grade: Grade | None = None) -> str:
    counts = Counter(frame.type for frame in trace.frames)
    lines = [
        f"{path} ({trace.id}, {trace.source_format})",
        f"  frames       {len(trace.frames)}: "
        + ", ".join(f"{kind} {count}" for kind, count in counts.items()),
        f"  tools        {' > '.join(trace.tool_path) or '(none called)'}",
        f"  final answer {_short(trace.final_answer) or _NO_REPLY[trace.reply_status]}",
        f"  turns        {len(trace.turns)}",
        "",
        *(_frame_line(index, frame) for index, frame in enumerate(trace.frames)),
        *(_claims_lines(grade) if grade is not None else ()),
    ]
    return escape_controls("\n".join(lines))


def _graded(path: Path, trace: Trace, strict: bool | None) -> Grade:
    """The trace graded with no question; an error names the file and the trace."""
    from tracegrade.errors import TracegradeError
    from tracegrade.verdicts import grade

    try:
        return grade(trace, strict=strict)
    except TracegradeError as exc:
        raise exc.in_file(f"{path} (trace {trace.id})") from None


@click.command("show")
@click.argument("trace_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--from",
    "format_name",
    metavar="FORMAT",
    help="Read with this trace reader (`tracegrade formats` lists them).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@click.option(
    "--claims",
    is_flag=True,
    help="Grade each trace with no question and list the claims found in its final answer:"
    " kind, support (read, named-only, unsupported), evidence and place.",
)
@click.option(
    "--strict/--lenient", default=None,
    help="With --claims: strict makes a tool result no decoder recognises an error; lenient"
    " reads it as plain text. Default: strict for native traces, lenient for other formats.",
)  # fmt: skip
def show_command(
    trace_file: Path,
    format_name: str | None,
    output_format: Literal["text", "json"],
    *,
    claims: bool,
    strict: bool | None,
) -> None:
    """Print the normalised trace(s) of TRACE_FILE: frames, counts, tool path, final answer.

    \b
    Example:
      tracegrade show run.json
      tracegrade show run.json --claims
      tracegrade show results.json --from tau-bench --format json
    """
    from tracegrade.traces import read_traces

    if strict is not None and not claims:
        raise click.UsageError("--strict/--lenient apply only with --claims (nothing is graded)")
    traces = list(read_traces(trace_file, format_name=format_name))
    # Every trace is graded before anything is printed: a bad one leaves no partial output.
    grades = [_graded(trace_file, trace, strict) if claims else None for trace in traces]
    if output_format == "json":
        import orjson

        data: list[object] = [
            trace.model_dump(mode="json")
            if graded is None
            else {
                "trace": trace.model_dump(mode="json"),
                "extracted": [claim.model_dump(mode="json") for claim in graded.extracted],
                "grounded_share": graded.grounded_share,
            }
            for trace, graded in zip(traces, grades, strict=True)
        ]
        click.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
    else:
        blocks = (
            _text(trace_file, trace, graded) for trace, graded in zip(traces, grades, strict=True)
        )
        click.echo("\n\n".join(blocks))


@click.command("convert")
@click.argument("trace_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--to", "target", type=click.Choice(["native"]), default="native", show_default=True)
@click.option(
    "--from",
    "format_name",
    metavar="FORMAT",
    help="Read with this trace reader (`tracegrade formats` lists them).",
)
@click.option(
    "-o", "--output", type=click.Path(path_type=Path),
    help="Write here (a file for one trace, a folder for several); default: stdout.",
)  # fmt: skip
def convert_command(
    trace_file: Path, target: str, format_name: str | None, output: Path | None
) -> None:
    """Write TRACE_FILE's trace(s) as native JSON (schema_version 2), readable by every command.

    A file holding several runs needs --output DIR: one TRACE_ID.json each. Files are
    written whole or not at all.
    """
    import orjson

    from tracegrade.traces import read_traces

    del target  # one target so far
    traces = list(read_traces(trace_file, format_name=format_name))
    documents = [
        (trace.id, orjson.dumps(trace.model_dump(mode="json"), option=orjson.OPT_INDENT_2))
        for trace in traces
    ]
    if output is None:
        if len(documents) != 1:
            raise click.UsageError(
                f"{trace_file} holds {len(documents)} runs: pass --output DIR for one file each"
            )
        click.echo(documents[0][1].decode())
        return
    if len(documents) == 1 and not output.is_dir():
        if output.suffix.lower() != ".json":
            # Native traces are detected by their .json name: any other name would be
            # written but never read back.
            raise click.UsageError(
                f"--output {output}: a native trace is a .json file; name it"
                f" {output.with_name(output.name + '.json')} (or give an existing folder)"
            )
        _write_whole(output, documents[0][1])
        return
    output.mkdir(parents=True, exist_ok=True)
    for trace_id, data in documents:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in trace_id)
        _write_whole(output / f"{safe}.json", data)


def _write_whole(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data + b"\n")
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
