"""The native path's parse and validation (rust/src/native) against the reference.

``_core.native_trace_values`` parses and validates a native trace's bytes in the core and
returns what grading reads of it, or ``None`` where it leaves the bytes to the reference
(``parse_native_trace``). Whenever it returns values, the reference must accept the same
bytes and read the same values (tool arguments and results through ``result_text``, so
orjson's serialisation is held to as well); whenever the reference refuses, the core must
return ``None``. On the real traces and the benchmark corpus it must not fall back at all.
"""

from __future__ import annotations

import math
import random
import struct
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import _generate as realistic
from tests.conftest import REPO
from tests.engines._generate import generated_inputs
from tests.fuzz._mutate import mutate
from tests.helpers.engines import engine
from tracegrade import _core
from tracegrade.errors import TraceFormatError
from tracegrade.figures import result_text
from tracegrade.traces import (
    ApprovalFrame,
    AssistantFrame,
    CompactionFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    parse_native_trace,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.traces import Frame

Values = tuple[Any, ...]


def _frame_values(frame: Frame) -> tuple[str | bool, ...]:
    if isinstance(frame, (UserFrame, AssistantFrame)):
        return (frame.type, frame.content)
    if isinstance(frame, ToolCallFrame):
        return (frame.type, frame.id, frame.name, result_text(frame.args))
    if isinstance(frame, ToolResultFrame):
        return (frame.type, frame.id, frame.ok, result_text(frame.result))
    if isinstance(frame, CompactionFrame):
        return (frame.type, frame.summary)  # redaction reads the summary
    if isinstance(frame, ApprovalFrame):
        return (frame.type,)
    msg = f"a native trace has no {frame.type} frame"
    raise AssertionError(msg)


def _reference(data: bytes) -> Values | None:
    """What the reference reads of ``data``, or ``None`` when it refuses it."""
    with engine("python"):
        try:
            trace = parse_native_trace(data)
        except TraceFormatError:
            return None
    return (trace.id, trace.task, trace.outcome, tuple(map(_frame_values, trace.frames)))


def _same(data: bytes) -> Values | None:
    """The core's values of ``data``, checked against the reference's."""
    got = _core.native_trace_values(data)
    assert _core.native_trace_frames(data) == (None if got is None else len(got[3]))
    if got is not None:
        want = _reference(data)
        assert want is not None, f"the core read bytes the reference refuses: {data[:300]!r}"
        assert got == want
        ok_types = [type(frame[2]) for frame in got[3] if frame[0] == "tool_result"]
        assert all(kind is bool for kind in ok_types)
    return got


def _native(frames: list[Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "run",
        "commit": None,
        "model": "m",
        "task": "Do it",
        "outcome": "success",
        "tokens": [],
        "frames": frames,
    } | fields


_GOOD = _native(
    [
        {"type": "user", "content": "Which port?"},
        {"type": "tool_call", "id": "c1", "name": "read", "args": {"path": "a", "n": 1.5e-7}},
        {"type": "tool_result", "id": "c1", "ok": True, "result": {"v": [1e16, -2, None]}},
        {"type": "compaction", "before": 9, "after": 1, "summary": "s"},
        {"type": "approval", "tool": "read", "decision": "allow"},
        {"type": "assistant", "content": "4321"},
    ]
)


def test_a_valid_trace_is_read_as_the_reference_reads_it():
    data = orjson.dumps(_GOOD)
    got = _same(data)
    assert got is not None
    assert got[3][2] == ("tool_result", "c1", True, '{"v":[1e+16,-2,null]}')


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("byte order mark", b"\xef\xbb\xbf" + orjson.dumps(_GOOD)),
        ("lone surrogate", orjson.dumps(_GOOD).replace(b"Which port?", b"\\ud800")),
        ("invalid UTF-8", orjson.dumps(_GOOD).replace(b"Which port?", b"\xff")),
        ("repeated key", orjson.dumps(_GOOD).replace(b'"id":"run"', b'"id":"run","id":"b"')),
        ("integer beyond 64 bits", orjson.dumps(_GOOD).replace(b"-2", b"18446744073709551616")),
        ("negative zero", orjson.dumps(_GOOD).replace(b"-2", b"-0")),
        ("negative zero float", orjson.dumps(_GOOD).replace(b"-2", b"-0.0")),
        ("infinite float", orjson.dumps(_GOOD).replace(b"-2", b"1e400")),
        ("201 levels", orjson.dumps(_GOOD).replace(b"-2", b"[" * 196 + b"]" * 196)),
        ("schema_version 2", orjson.dumps(_GOOD | {"schema_version": 2})),
        ("schema_version 1.0", orjson.dumps(_GOOD | {"schema_version": 1.0})),
        ("schema_version true", orjson.dumps(_GOOD | {"schema_version": True})),
        ("tokens with true", orjson.dumps(_GOOD | {"tokens": [True] * 6})),
        ("trailing garbage", orjson.dumps(_GOOD) + b"x"),
    ],
)
def test_the_core_falls_back_where_the_reference_refuses_or_reads_otherwise(name: str, data: bytes):
    assert _same(data) is None, name


def test_two_hundred_levels_are_read():
    # The trace, frames, the frame, its result and the list around -2 are five levels.
    data = orjson.dumps(_GOOD).replace(b"-2", b"[" * 195 + b"]" * 195)
    assert _same(data) is not None


def test_every_real_trace_is_read_without_falling_back(nine_commits: Path):
    paths = sorted(nine_commits.rglob("*.json"))
    assert len(paths) == 18
    for path in paths:
        assert _same(path.read_bytes()) is not None, path.name


def test_the_benchmark_corpus_is_read_without_falling_back():
    pools = realistic._pools(realistic.SEED)
    for index in range(40):
        _, data = realistic.generate_trace(index, pools)
        assert _same(data) is not None, index


def test_every_json_fixture_agrees():
    paths = sorted((REPO / "tests").rglob("*.json"))
    assert len(paths) > 20
    read = [path for path in paths if _same(path.read_bytes()) is not None]
    assert read  # the valid native fixtures


def test_the_generated_engine_inputs_agree():
    read = sum(_same(item.data) is not None for item in generated_inputs(600))
    assert read >= 200  # most generated traces are valid; the rest are refused


def test_mutated_traces_agree():
    rng = random.Random(15)  # noqa: S311 - reproducible inputs
    data = orjson.dumps(_GOOD)
    refused = sum(_same(mutate(data, ".json", rng)) is None for _ in range(500))
    assert refused > 0


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
_STRINGS = st.text(max_size=6)


def _rarely(bad: st.SearchStrategy[Any], good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good``, one time in forty ``bad``: a trace has some twenty fields, so about half of
    the traces drawn are valid and the rest have one or two wrong parts."""
    # Hypothesis favours the ends of a range, so the rare roll is in the middle.
    return st.integers(0, 39).flatmap(lambda roll: bad if roll == 20 else good)


def _field(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a value the model takes, rarely any JSON value (often of a wrong type)."""
    return _rarely(_VALUES, good)


_FRAMES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "user": {"content": _STRINGS},
    "assistant": {"content": _STRINGS},
    "tool_call": {"id": _STRINGS, "name": _STRINGS, "args": _VALUES},
    "tool_result": {"id": _STRINGS, "ok": st.booleans(), "result": _VALUES},
    "compaction": {
        "before": st.integers(min_value=0, max_value=2**64 - 1),
        "after": st.integers(min_value=0, max_value=9),
        "summary": _STRINGS,
    },
    "approval": {"tool": _STRINGS, "decision": st.sampled_from(["allow", "deny"])},
}
_OPTIONAL = {"args", "result"}  # the model reads a missing one as None


@st.composite
def _frame(draw: st.DrawFn) -> Any:
    kind = draw(_rarely(st.sampled_from(["system", "Other", ""]), st.sampled_from([*_FRAMES])))
    frame: dict[str, Any] = {"type": kind}
    for key, good in _FRAMES.get(kind, {}).items():
        missing = st.just(True) if key in _OPTIONAL else st.booleans()
        if not draw(_rarely(missing, st.just(False))):
            frame[key] = draw(_field(good))
    if draw(st.booleans()):
        frame[draw(st.sampled_from(["origin", "artifact", "extra"]))] = draw(_VALUES)
    return draw(_rarely(_VALUES, st.just(frame)))


@st.composite
def _trace(draw: st.DrawFn) -> Any:
    frames = draw(_rarely(st.just([]), st.lists(_frame(), min_size=1, max_size=5)))
    present = st.text(min_size=1, max_size=3)
    good = {
        "id": _rarely(st.just(""), present),
        "commit": st.none() | present,
        "model": st.none() | present,
        "task": _rarely(st.just(""), present),
        "outcome": st.sampled_from(["success", "failure", "partial", None]),
        "tokens": st.just([])
        | st.lists(st.integers(0, 2**64 - 1), min_size=len(frames), max_size=len(frames)),
        "frames": st.just(frames),
    }
    trace = {
        key: draw(_field(value))
        for key, value in good.items()
        if draw(_rarely(st.just(False), st.just(True)))
    }
    version = st.sampled_from([1, 2, 1.0, True, None, "1", 0])
    if draw(st.booleans()):
        trace["schema_version"] = draw(_rarely(version, st.just(1)))
    return draw(_rarely(_VALUES, st.just(trace)))


_DAMAGE = (
    b"",
    b"\xef\xbb\xbf",
    b"-0",
    b"-0.0",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"1e400",
    b'"\\ud800"',
    b'"\\udc00\\ud800"',
    b'"\xff"',
    b"[" * 201 + b"]" * 201,
    b"[" * 199 + b"]" * 199,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trace=_trace(), damage=st.sampled_from(_DAMAGE), at=st.integers(0, 10**6))
def test_generated_traces_agree(trace: Any, damage: bytes, at: int):
    data = orjson.dumps(trace)
    if damage.startswith(b"\xef"):
        data = damage + data
    elif damage:
        # In place of one value: a number's digits, or after a colon (an object's value).
        colons = [index for index, byte in enumerate(data) if byte == ord(":")]
        if colons:
            place = colons[at % len(colons)] + 1
            end = place
            while end < len(data) and data[end : end + 1] not in b",}":
                end += 1
            data = data[:place] + damage + data[end:]
    _same(data)


def _doubled(value: Any, target: int) -> tuple[bytes, bool]:
    """``value`` as JSON with the first key of its ``target``-th object written twice, first
    with the value ``"dup"`` (a Python dict keeps the last value at the first key's place);
    and whether there was such a key."""
    objects = 0
    doubled = False

    def write(item: Any) -> bytes:
        nonlocal objects, doubled
        if isinstance(item, dict):
            index, objects = objects, objects + 1
            pairs = [orjson.dumps(key) + b":" + write(inner) for key, inner in item.items()]
            if index == target and item:
                pairs.insert(0, orjson.dumps(next(iter(item))) + b':"dup"')
                doubled = True
            return b"{" + b",".join(pairs) + b"}"
        if isinstance(item, list):
            return b"[" + b",".join(map(write, item)) + b"]"
        return orjson.dumps(item)

    return write(value), doubled


@settings(max_examples=200, deadline=None)
@given(trace=_trace(), target=st.integers(0, 12))
def test_repeated_keys_fall_back(trace: Any, target: int):
    data, doubled = _doubled(trace, target)
    if doubled:
        assert _same(data) is None


def test_floats_are_written_as_orjson_writes_them():
    # Random bit patterns cover every exponent; the powers of ten sit on the layout's edges.
    rng = random.Random(15)  # noqa: S311 - reproducible inputs
    floats = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(20_000)]
    floats += [sign * 10.0**power for power in range(-30, 30) for sign in (1, -1)]
    floats += [sign * 1.5 * 10.0**power for power in range(-30, 30) for sign in (1, -1)]
    finite = [value for value in floats if math.isfinite(value)]
    result = {"type": "tool_result", "id": "c", "ok": True, "result": finite}
    got = _same(orjson.dumps(_native([result])))
    assert got is not None
    assert got[3][0][3] == orjson.dumps(finite).decode()


def test_long_strings_are_escaped_as_orjson_escapes_them():
    # The core checks a string 32 bytes at a time: escapes on every side of a chunk's edge,
    # beside characters of two to four bytes.
    rng = random.Random(15)  # noqa: S311 - reproducible inputs
    alphabet = ["a", "\n", '"', "\\", "\x00", "\x1f", "\x7f", "é", "\u2028", "日", "😀", "\t"]
    texts = ["".join(rng.choices(alphabet, k=size)) for size in range(130) for _ in range(3)]
    texts += ["x" * size + "\n" + "y" * 40 for size in range(70)]
    result = {"type": "tool_result", "id": "c", "ok": True, "result": {"texts": texts}}
    got = _same(orjson.dumps(_native([result])))
    assert got is not None
    assert got[3][0][3] == orjson.dumps({"texts": texts}).decode()


def test_every_ascii_character_is_escaped_as_orjson_escapes_it():
    # Short strings are checked eight bytes at a time, long ones by memchr or in chunks:
    # each ASCII character (and some longer ones) at each place of strings of either kind,
    # as a value and as a key, with a control other than LF elsewhere or not.
    specials = [chr(code) for code in range(128)] + ["\x80", "é", "\u2028", "日", "😀"]
    texts = []
    for size in [*range(72), 127, 128, 200]:
        for at, special in enumerate(specials):
            for filler in ("a", "\n", "\x01"):
                chars = [filler if i % 7 == 3 else "x" for i in range(size)]
                chars.insert(at % (size + 1), special)
                texts.append("".join(chars))
    written = {"texts": texts, "keys": dict.fromkeys(texts, 0)}
    result = {"type": "tool_result", "id": "c", "ok": True, "result": written}
    got = _same(orjson.dumps(_native([result])))
    assert got is not None
    assert got[3][0][3] == orjson.dumps(written).decode()


def test_numbers_of_many_digits_are_read_as_orjson_reads_them():
    # Up to 70 significant digits and exponents past both ends of the doubles: the float
    # each reads as, written back, must be orjson's (a negative zero falls back instead).
    rng = random.Random(15)  # noqa: S311 - reproducible inputs
    tokens: list[str] = []
    while len(tokens) < 5_000:
        whole = "".join(rng.choices("0123456789", k=rng.randint(1, 40))).lstrip("0") or "0"
        fraction = "".join(rng.choices("0123456789", k=rng.randint(1, 30)))
        exponent = rng.choice(["", f"e{rng.randint(-340, 280)}", f"E+{rng.randint(0, 260)}"])
        token = f"{rng.choice(['', '-'])}{whole}.{fraction}{exponent}"
        if math.isfinite(float(token)) and not (token.startswith("-") and float(token) == 0):
            tokens.append(token)
    numbers = ("[" + ",".join(tokens) + "]").encode()
    result = b'{"type":"tool_result","id":"c","ok":true,"result":' + numbers + b"}"
    data = orjson.dumps(_native([])).replace(b'"frames":[]', b'"frames":[' + result + b"]")
    got = _same(data)
    assert got is not None
    assert got[3][0][3] == orjson.dumps(orjson.loads(numbers)).decode()
