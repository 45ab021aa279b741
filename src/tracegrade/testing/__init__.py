"""Assertions and a pytest plugin that grade agent runs inside a test suite (docs/pytest.md).

``assert_grounded``, ``assert_no_unsourced_figures`` and ``assert_provenance`` grade a run
(a :class:`~tracegrade.traces.Trace` or a trace file of any format) and fail with a message
that names each failing claim, its span in the answer and what the tools showed. The pytest
plugin (:mod:`tracegrade.testing.plugin`, loaded through the ``pytest11`` entry point) adds
the ``tracegrade_trace`` fixture, the ``tracegrade(touchpoint=...)`` marker and
``--tracegrade-report``.

The assertions are imported on first use: the plugin imports this package when pytest
starts, and a session that never grades must not pay for the grader's imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade import _lazy

if TYPE_CHECKING:
    from tracegrade.testing._assertions import (
        assert_grounded,
        assert_no_unsourced_figures,
        assert_provenance,
        load_question,
    )
    from tracegrade.testing._fixtures import TraceFactory

__all__ = [
    "TraceFactory",
    "assert_grounded",
    "assert_no_unsourced_figures",
    "assert_provenance",
    "load_question",
]

_HOMES = {
    "TraceFactory": "tracegrade.testing._fixtures",
    "assert_grounded": "tracegrade.testing._assertions",
    "assert_no_unsourced_figures": "tracegrade.testing._assertions",
    "assert_provenance": "tracegrade.testing._assertions",
    "load_question": "tracegrade.testing._assertions",
}


__getattr__, __dir__ = _lazy.lazy_names(__name__, _HOMES, globals())
