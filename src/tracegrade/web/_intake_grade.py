"""The deterministic grade of a received run, which comes with no expected facts (pure).

A live run has no question, so the claims checked are the ones its answer makes that a
tool could have shown: each figure, path, code span, quoted string and multi-digit number
of the final answer (:func:`answer_claims`). Each is graded as an expected fact would be:
``read``, ``named-only`` or ``unsupported``, with its evidence ids; the answer's figures
are graded as :func:`~tracegrade.verdicts.grade` grades them (unsourced when no human
message or tool result showed them). The answer grade is ``ungraded``: there is nothing
to compare the answer with.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracegrade.claims import Fact, Question
from tracegrade.figures import extract_figures
from tracegrade.observations import observe
from tracegrade.verdicts import grade_observed

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations import Decoder
    from tracegrade.traces import Trace

__all__ = ["LIVE_QUESTION", "answer_claims", "grade_received"]

LIVE_QUESTION = "live"
"""The question id of every received run's grade: it was asked nothing we know of."""

_MAX_CLAIMS = 50  # an answer with more checkable strings than this keeps the first 50
_QUOTE_MAX = 200
_CODE = re.compile(r"`([^`\n]{1,200})`")
_QUOTED = re.compile(r"\"([^\"\n]{3,200})\"|“([^”\n]{3,200})”")
_PATH = re.compile(
    r"(?<![\w/.-])(?:[\w.-]+/)+[\w.-]*\w|(?<![\w/.-])[\w-]+\.(?:py|ts|tsx|js|jsx|json|md|toml|"
    r"ya?ml|txt|csv|go|rs|java|rb|php|c|h|cpp|hpp|sh|sql|html|css|ini|cfg|xml)\b"
)
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:%|°[CF]?)?(?!\w)")


def answer_claims(answer: str) -> Question:
    """The answer's checkable strings as the facts of a question (in order of place).

    Figures (as written), paths, ``code`` spans, quoted strings, and numbers of two or more
    digits (with a ``%`` or ``°`` unit) each become a fact. A string inside one already
    taken (a number inside a figure), or part of the text of one taken (ignoring case), is
    not taken again. Ids are ``figure-1``, ``path-1``, ``code-1``, ``quote-1``,
    ``number-1``, ... per kind.
    """
    found: list[tuple[int, int, str, str]] = []
    found += [(f.start, f.end, "figure", f.raw) for f in extract_figures(answer)]
    found += [(m.start(), m.end(), "path", m[0]) for m in _PATH.finditer(answer)]
    found += [(m.start(1), m.end(1), "code", m[1]) for m in _CODE.finditer(answer)]
    found += [
        (m.start(m.lastindex or 0), m.end(m.lastindex or 0), "quote", m[m.lastindex or 0])
        for m in _QUOTED.finditer(answer)
    ]
    found += [
        (m.start(), m.end(), "number", m[0])
        for m in _NUMBER.finditer(answer)
        if sum(char.isdigit() for char in m[0]) >= 2
    ]
    taken: list[tuple[int, int]] = []
    seen: set[str] = set()
    counts: dict[str, int] = {}
    facts: list[Fact] = []
    # By place; at one place the longer string first, then by kind (figure before number).
    for start, end, kind, text in sorted(found, key=lambda item: (item[0], -item[1], item[2])):
        key = text.strip().casefold()
        inside = any(s <= start and end <= e for s, e in taken)
        if not key or inside or any(key in other for other in seen):
            continue
        taken.append((start, end))
        seen.add(key)
        counts[kind] = counts.get(kind, 0) + 1
        facts.append(Fact(id=f"{kind}-{counts[kind]}", text=text.strip()[:_QUOTE_MAX]))
        if len(facts) == _MAX_CLAIMS:
            break
    return Question(id=LIVE_QUESTION, facts=tuple(facts))


def grade_received(trace: Trace, decoders: Sequence[Decoder] = ()) -> dict[str, Any]:
    """The run's grade as JSON: a :class:`~tracegrade.verdicts.Grade` with answer ``ungraded``.

    Tool results are decoded leniently (a shape no decoder knows is read as text and
    listed in ``as_text``), as for every format other than native.

    Args:
        trace: The received run.
        decoders: Extra decoders for its tools: its touchpoint's suite's ``[decoders.TOOL]``.

    Raises:
        UnreadableResultError: A tool result could not be decoded even as text.
    """
    question = answer_claims(trace.final_answer)
    observations = observe(trace, strict=False, decoders=decoders)
    graded = grade_observed(trace, question, observations)
    return graded.model_copy(update={"answer": "ungraded"}).model_dump(mode="json")
