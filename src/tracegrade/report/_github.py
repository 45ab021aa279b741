"""Write CI cases for GitHub Actions: workflow-command annotations and a job summary.

An annotation is one line ``::error file=F,line=L,title=T::MESSAGE`` (``warning`` and
``notice`` alike). The runner parses these lines, so the message escapes ``%``, CR and LF
(``%25``, ``%0D``, ``%0A``) and a property value escapes ``:`` and ``,`` too (``%3A``,
``%2C``), as the Actions toolkit's ``escapeData`` and ``escapeProperty`` do. The summary is
Markdown for the file ``$GITHUB_STEP_SUMMARY`` names (the CLI appends it there).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.report._ci import CiCase

__all__ = ["SUMMARY_ROWS", "github_annotations", "github_summary"]

SUMMARY_ROWS = 100
"""Cases listed in the summary at most (those that did not pass, or warn); the rest counted."""

_LEVEL = {"failed": "error", "error": "error", "skipped": "warning"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _level(case: CiCase) -> str | None:
    return _LEVEL.get(case.outcome, case.warns)


def github_annotations(cases: Sequence[CiCase]) -> list[str]:
    """One workflow command per case that did not pass or warns, in case order."""
    lines = []
    for case in cases:
        level = _level(case)
        if level is None:
            continue
        properties = []
        if case.file is not None:
            properties.append(f"file={_property(case.file)}")
        if case.line is not None:
            properties.append(f"line={case.line}")
        properties.append(f"title={_property(case.title)}")
        lines.append(f"::{level} {','.join(properties)}::{_data(case.message or case.title)}")
    return lines


_MARKDOWN = re.compile(r"([\\`*_\[\]|<>])")


def _cell(text: str) -> str:
    escaped = _MARKDOWN.sub(lambda match: f"&#{ord(match.group())};", text.strip())
    return escaped.replace("\r\n", "\n").replace("\n", "<br>")


def _where(case: CiCase) -> str:
    if case.file is None:
        return ""
    return case.file if case.line is None else f"{case.file}:{case.line}"


def github_summary(heading: str, cases: Sequence[CiCase]) -> str:
    """The Markdown job summary: counts, then a row per case that did not pass or warns."""
    outcomes = [case.outcome for case in cases]
    warned = sum(case.outcome == "passed" and case.warns is not None for case in cases)
    counts = (
        f"{outcomes.count('passed')} passed, {outcomes.count('failed')} failed,"
        f" {outcomes.count('error')} errors, {outcomes.count('skipped')} skipped;"
        f" {warned} with a warning or notice"
    )
    lines = [f"### {_cell(heading)}", "", f"{len(cases)} case(s): {counts}.", ""]
    listed = [case for case in cases if _level(case) is not None]
    if listed:
        lines += ["| result | case | where | why |", "| --- | --- | --- | --- |"]
        for case in listed[:SUMMARY_ROWS]:
            result = case.outcome if case.outcome != "passed" else f"passed ({case.warns})"
            why = _cell(case.message or case.title)
            lines.append(f"| {result} | {_cell(case.name)} | {_cell(_where(case))} | {why} |")
        if len(listed) > SUMMARY_ROWS:
            lines += ["", f"... and {len(listed) - SUMMARY_ROWS} more (see the job's log)."]
    return "\n".join(lines).rstrip("\n") + "\n"
