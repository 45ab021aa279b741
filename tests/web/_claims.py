"""A received run whose grade holds an extracted claim of many kinds, to test how they show.

The figure scanner is the only one the grader runs so far, so the claims of the other kinds
are written here by hand into the run's real grade, each at its real place in the answer:
read (with an observation of the tool result as evidence), named only, unsupported, hedged,
given by the user, and one whose text is markup that must stay text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.web._otlp_bodies import TRACE, json_export, openinference_spans
from tracegrade.verdicts import Grade, GradedAnswerClaim
from tracegrade.web._intake_grade import grade_received
from tracegrade.web._otlp_convert import read_received, split_export

if TYPE_CHECKING:
    from typing import Any

    from tracegrade.traces import Trace

MARKUP = '<b onmouseover="window.__pwned = 1">bold</b>'
ANSWER = (
    "Per https://example.com/refunds the window is 45 days (billing/config.py). "
    f'Maybe Ada Lovelace set it on May 1; the header says "{MARKUP}".'
)
RESULT = "See https://example.com/refunds: the window is 45 days.\nbilling/config.py\n"
QUESTION_DATE = "May 1"  # marked given, as if the user had said it


def _claim(
    kind: str, raw: str, support: str, evidence: tuple[str, ...] = (), **flags: bool
) -> GradedAnswerClaim:
    start = ANSWER.index(raw)
    values: dict[str, Any] = {
        "kind": kind, "raw": raw, "text": raw.lower(), "start": start, "end": start + len(raw),
        "support": support, "evidence": evidence, **flags,
    }  # fmt: skip
    return GradedAnswerClaim.model_validate(values)


CLAIMS = (
    _claim("url", "https://example.com/refunds", "read", ("f2.1",)),
    _claim("figure", "45 days", "read", ("f2",)),
    _claim("path", "billing/config.py", "named-only", ("f2.2",)),
    _claim("name", "Ada Lovelace", "unsupported", hedged=True),
    _claim("date", QUESTION_DATE, "unsupported", given=True),
    _claim("quote", MARKUP, "unsupported"),
)
"""In answer order: read, read, named only, hedged, given, markup."""


def spans() -> list[dict[str, Any]]:
    """The run's OTLP spans: the question, read_file returning RESULT, the answer."""
    return openinference_spans(answer=ANSWER, result=RESULT)


def graded_run() -> tuple[Trace, Grade]:
    """The run read from its spans, and its real grade with CLAIMS as its extracted claims."""
    trace = read_received(split_export(json_export(spans())).traces[TRACE])
    grade = Grade.model_validate(grade_received(trace))
    return trace, grade.model_copy(update={"extracted": CLAIMS})
