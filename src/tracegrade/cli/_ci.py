"""``--format junit|github`` of ``grade`` and ``run``: write the CI cases, append the summary.

JUnit XML goes to stdout (redirect it to the file the CI server collects). GitHub
annotations go to stdout, where the runner reads workflow commands; the Markdown summary is
appended to the file ``$GITHUB_STEP_SUMMARY`` names, when it is set. The exit code is the
command's own, whatever the format.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

import click

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.report import CiCase

__all__ = ["CI_FORMATS", "SUMMARY_VARIABLE", "CiFormat", "write_ci_report"]

CiFormat = Literal["junit", "github"]
CI_FORMATS: tuple[CiFormat, ...] = ("junit", "github")
SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"


def write_ci_report(
    output_format: CiFormat, heading: str, cases: Sequence[CiCase], *, time: float | None
) -> None:
    """Write ``cases`` as JUnit XML, or as annotations plus the job summary."""
    from tracegrade.report import github_annotations, github_summary, junit_xml

    if output_format == "junit":
        click.echo(junit_xml(heading, cases, time=time), nl=False)
        return
    for line in github_annotations(cases):
        click.echo(line)
    summary = os.environ.get(SUMMARY_VARIABLE)
    if not summary:
        return
    try:
        with open(summary, "a", encoding="utf-8") as file:  # appended, as GitHub asks
            file.write(github_summary(heading, cases))
    except OSError as exc:
        # The annotations are out already; a summary that cannot be written does not
        # change the verdict or the exit code.
        click.echo(
            f"tracegrade: warning: cannot append the job summary to ${SUMMARY_VARIABLE}"
            f" ({summary}: {exc.strerror or exc})",
            err=True,
        )
