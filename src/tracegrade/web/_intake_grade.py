"""The deterministic grade of a received run, which comes with no question (pure).

A live run was asked nothing we know of, so it is graded the way ``grade(trace)`` grades a
trace with no question file: every checkable claim of its final answer is extracted
(``Grade.extracted``: figures, paths, URLs, identifiers, quoted strings, dates, names, ...;
docs/claims.md) and graded ``read``, ``named-only`` or ``unsupported`` with its evidence
ids, ``given`` when the user's own message said it. Every received run is graded so, with
or without a touchpoint; a touchpoint's grade suite only adds its declared decoders. The
answer grade is ``ungraded``: there are no expected facts to compare the answer with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade.observations import observe
from tracegrade.verdicts import NO_QUESTION, grade_observed

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations import Decoder
    from tracegrade.traces import Trace

__all__ = ["grade_received"]


def grade_received(trace: Trace, decoders: Sequence[Decoder] = ()) -> dict[str, Any]:
    """The run's grade as JSON: a :class:`~tracegrade.verdicts.Grade` with its claims extracted.

    Tool results are decoded leniently (a shape no decoder knows is read as text and
    listed in ``as_text``), as for every format other than native.

    Args:
        trace: The received run.
        decoders: Extra decoders for its tools: its touchpoint's suite's ``[decoders.TOOL]``.

    Raises:
        UnreadableResultError: A tool result could not be decoded even as text.
    """
    observations = observe(trace, strict=False, decoders=decoders)
    return grade_observed(trace, NO_QUESTION, observations, auto=True).model_dump(mode="json")
