"""The bounded fuzz run CI does: a few hundred mutants and generated documents per run.

The long run is ``python -m tests.fuzz --seconds 600`` (docs/fuzzing.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz._mutate import mutant, seeds
from tests.fuzz._target import run_input
from tracegrade.errors import TracegradeError
from tracegrade.traces import read_traces, trace_readers

if TYPE_CHECKING:
    import random
    from pathlib import Path

_SETTINGS = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,  # the same inputs each run: CI fails on a change, not on luck
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Keys and values the readers look for, so generated documents reach past detection.
_KEYS = st.sampled_from(
    [
        "frames", "type", "role", "content", "text", "id", "name", "messages", "steps",
        "tool_calls", "function", "arguments", "tool_call_id", "input", "output", "samples",
        "events", "spans", "resourceSpans", "scopeSpans", "attributes", "key", "value",
        "spanId", "parentSpanId", "traceId", "context", "span_id", "trace_id", "parent_id",
        "history", "trajectory", "info", "simulations", "traj", "observation", "action",
        "schema_version", "payload", "kwargs", "lc", "tool_use_id", "stringValue", "intValue",
    ]
)  # fmt: skip
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["user", "assistant", "tool", "text", "tool_use", "LLM", "execute_tool"]),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=40,
)


def _refused_or_read(outcome: str, detail: str) -> None:
    assert outcome != "crash", detail


@pytest.mark.parametrize("reader", [r.name for r in trace_readers()])
@_SETTINGS
@given(document=_DOCUMENTS)
def test_every_reader_reads_or_refuses_generated_documents(reader: str, document: Any) -> None:
    data = orjson.dumps(document)
    named = True
    try:
        list(read_traces(data, format_name=reader))
    except TracegradeError as exc:
        named = "<bytes>" in str(exc)  # the error names the input
    assert named


@_SETTINGS
@given(seed=st.sampled_from(seeds()), rng=st.randoms(use_true_random=False))
def test_mutants_of_the_fixtures_read_or_are_refused(
    tmp_path: Path, seed: Path, rng: random.Random
) -> None:
    path = tmp_path / seed.name
    path.write_bytes(mutant(seed, rng))
    result = run_input(path)
    _refused_or_read(result.outcome, result.detail)


def test_every_reader_has_a_fixture_to_mutate() -> None:
    folders = {path.parent.name for path in seeds()}
    assert {r.name for r in trace_readers()} - {"native"} <= folders
