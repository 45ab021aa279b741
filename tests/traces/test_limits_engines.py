"""The compiled core's nesting count over JSON text gives the Python walk's verdicts.

``parsed_depth_within`` counts the brackets of the text a value was parsed from (the core)
or walks the value (``TRACEGRADE_CORE=python``); both must agree on every value, every
spelling of it, and the errors a reader raises. Every fixture and corpus file is read by
both engines in tests/redact/test_engines.py.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.engines import both_engines
from tracegrade.errors import TraceFormatError
from tracegrade.traces import read_traces
from tracegrade.traces._limits import MAX_DEPTH, depth_within, parsed_depth_within
from tracegrade.traces._reading import parse_arguments

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

T = TypeVar("T")


def _on_both(run: Callable[[], T]) -> T:
    reference, compiled = both_engines(run)
    assert compiled == reference
    return compiled


# Strings full of what a bracket counter could mistake for structure.
_STRINGS = st.text(alphabet='[]{}"\\:,ab \n\u00e9', max_size=8)
_VALUES = st.recursive(
    st.one_of(_STRINGS, st.integers(min_value=-(2**63), max_value=2**63 - 1), st.none()),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(_STRINGS, inner, max_size=3)
    ),
    max_leaves=30,
)


@given(_VALUES, st.integers(min_value=0, max_value=8))
def test_any_value_gets_the_same_depth_verdict_on_both_engines(value: Any, limit: int) -> None:
    expected = depth_within(value, limit)
    for data in (
        orjson.dumps(value),
        orjson.dumps(value, option=orjson.OPT_INDENT_2).decode(),
    ):
        assert _on_both(partial(parsed_depth_within, data, value, limit)) is expected


@given(st.integers(min_value=0, max_value=1000))  # orjson parses 1024 levels at most
def test_a_chain_of_any_depth_is_judged_alike(depth: int) -> None:
    opening, closing = ("[", "]") if depth % 2 else ('{"k": ', "}")
    data = opening * depth + "1" + closing * depth
    value = orjson.loads(data)
    assert _on_both(lambda: parsed_depth_within(data, value)) is (depth <= MAX_DEPTH)


def test_a_deep_value_a_repeated_key_drops_is_not_counted() -> None:
    data = '{"a": ' + "[" * 300 + "]" * 300 + ', "a": 1}'
    assert _on_both(lambda: parsed_depth_within(data, orjson.loads(data))) is True


def test_a_deep_argument_string_stays_text_on_both_engines() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    shallow = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert _on_both(lambda: parse_arguments(deep)) == deep
    assert _on_both(lambda: parse_arguments(shallow)) == orjson.loads(shallow)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000])
def test_a_file_too_deep_fails_alike_on_both_engines(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    nested = "[" * depth + "1" + "]" * depth
    path.write_text(f'{{"messages": [{{"role": "user", "content": {nested}}}]}}')

    def error() -> str:
        with pytest.raises(TraceFormatError) as raised:
            list(read_traces(path))
        return str(raised.value)

    message = _on_both(error)
    assert f"nest more than {MAX_DEPTH} levels deep" in message
    assert "deep.json" in message


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2])
def test_a_line_of_bytes_is_judged_at_the_limit(depth: int) -> None:
    # Bytes are counted by deleting at most MAX_DEPTH + 1 brackets of each kind.
    data = b"[" * (depth - depth // 2) + b'{"k": ' * (depth // 2) + b"1"
    data += b"}" * (depth // 2) + b"]" * (depth - depth // 2)
    value = orjson.loads(data)
    assert _on_both(lambda: parsed_depth_within(data, value)) is (depth <= MAX_DEPTH)


def test_a_wide_line_full_of_brackets_is_shallow() -> None:
    data = b"[" + b",".join([b"[{}]"] * 800) + b"]"  # 1601 opening brackets, 3 levels
    assert len(data) < 4_096
    assert _on_both(lambda: parsed_depth_within(data, orjson.loads(data))) is True
