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

from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:  # noqa: ANN401 - whichever public name is asked for
    home = _HOMES.get(name)
    if home is None:
        msg = f"module 'tracegrade.testing' has no attribute {name!r}"
        raise AttributeError(msg)
    import importlib  # noqa: PLC0415 - see the module docstring

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
