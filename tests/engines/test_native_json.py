"""The fast path's JSON parser (rust/src/native/json/read.rs) against ``orjson.loads``.

``_core.native_json_text`` parses any JSON text in the core: ``("read", text)`` with the
value written as ``result_text`` writes it, ``("not json", None)`` where the core says orjson
refuses the text (figures then read a string result as prose, so it must be so), or
``("declined", reason)`` where it leaves the text to the reference. Whatever the core reads,
orjson reads alike; whatever orjson refuses, the core does not read; only the four known
reasons decline.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracegrade import _core

_REASONS = {
    "a repeated object key",
    "a negative zero",
    "an integer beyond 64 bits",
    "nested deeper than the limit",
}


def _agree(data: bytes) -> str:
    """How the core reads ``data``, checked against orjson."""
    kind, text = _core.native_json_text(data)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        assert kind != "read", f"the core read what orjson refuses: {data[:200]!r}"
        return kind
    assert kind != "not json", f"the core says orjson refuses {data[:200]!r}"
    if kind == "read":
        want = value if isinstance(value, str) else orjson.dumps(value).decode()
        assert text == want, data[:200]
    else:
        assert text in _REASONS, (text, data[:200])
    return kind


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"0", "read"),
        (b" \r\n\t[1, -2, 3.5e-7, 1E+2, true, false, null] \n", "read"),
        (b"18446744073709551615", "read"),
        (b"-9223372036854775808", "read"),
        (b"123456789012345678901234567890.5", "read"),
        (b"1e-400", "read"),
        (
            b'"\\u00e9\\u00E9\\/\\b\\f\\n\\r\\t\\"\\\\ \\ud83d\\ude00 \\udbff\\udfff \\u0000"',
            "read",
        ),
        (b'"\x7f \xc3\xa9 \xef\xbf\xbf"', "read"),
        (b'{"axb": 1, "ayb": 2, "ab": 3, "cb": 4}', "read"),
        (b"[" * 200 + b"]" * 200, "read"),
        (b"-0", "declined"),
        (b"-0.0", "declined"),
        (b"-1e-400", "declined"),
        (b"18446744073709551616", "declined"),
        (b"-9223372036854775809", "declined"),
        (b'{"a": 1, "a": 2}', "declined"),
        (b'{"a": 1, "\\u0061": 2}', "declined"),
        (b'{"k\\n": 1, "k\\u000a": 2}', "declined"),
        (b"{" + b",".join(b'"k%d": %d' % (i, i) for i in range(40)) + b', "k7": 0}', "declined"),
        (b"[" * 201 + b"]" * 201, "declined"),
        (b"", "not json"),
        (b"   ", "not json"),
        (b"\xef\xbb\xbf{}", "not json"),
        (b"\x0c1", "not json"),
        (b"\xc2\xa0[]", "not json"),
        (b"01", "not json"),
        (b"-01", "not json"),
        (b"1.", "not json"),
        (b".5", "not json"),
        (b"+1", "not json"),
        (b"-", "not json"),
        (b"1e", "not json"),
        (b"1e+", "not json"),
        (b"1.5.3", "not json"),
        (b"1e400", "not json"),
        (b"-1e400", "not json"),
        (b"NaN", "not json"),
        (b"tru", "not json"),
        (b"truex", "not json"),
        (b"nulll", "not json"),
        (b'"\\x"', "not json"),
        (b'"\\U0041"', "not json"),
        (b'"\\u12"', "not json"),
        (b'"\\u12g4"', "not json"),
        (b'"\\u+123"', "not json"),
        (b'"\\ud800"', "not json"),
        (b'"\\udc00"', "not json"),
        (b'"\\ud800\\u0041"', "not json"),
        (b'"\\ud800\\ud800"', "not json"),
        (b'"\\ud800x"', "not json"),
        (b'"\x00"', "not json"),
        (b'"\x1f"', "not json"),
        (b'"a\tb"', "not json"),
        (b'"\n"', "not json"),
        (b'"\xff"', "not json"),
        (b'"\xc3"', "not json"),
        (b'"\xc0\x80"', "not json"),
        (b'"\xed\xa0\x80"', "not json"),
        (b'"\xf4\x90\x80\x80"', "not json"),
        (b'"abc', "not json"),
        (b'"abc\\', "not json"),
        (b"{,}", "not json"),
        (b'{"a"}', "not json"),
        (b'{"a":}', "not json"),
        (b'{"a":1,}', "not json"),
        (b'{"a" 1}', "not json"),
        (b"{1: 2}", "not json"),
        (b'{"a": 1 "b": 2}', "not json"),
        (b"[1,]", "not json"),
        (b"[,1]", "not json"),
        (b"[1 2]", "not json"),
        (b"[", "not json"),
        (b"]", "not json"),
        (b"[]x", "not json"),
        (b"[] []", "not json"),
        (b"{}\n\x00", "not json"),
        # Not JSON before the depth is reached: orjson refuses it, so it is not declined.
        (b"[1,,2" + b"[" * 300, "not json"),
    ],
)
def test_the_parser_reads_and_refuses_as_orjson_does(data: bytes, kind: str):
    assert _agree(data) == kind


def _no_negative_zero(number: float) -> bool:
    return not (number == 0 and math.copysign(1, number) < 0)


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False).filter(_no_negative_zero)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(value=_VALUES, indent=st.sampled_from([None, 2]), ascii_only=st.booleans())
def test_any_json_value_is_read_as_orjson_reads_it(
    value: Any, indent: int | None, ascii_only: bool
):
    # Python's writer escapes what orjson's does not (every non-ASCII character as \u, an
    # astral one as a surrogate pair) and pretty-prints: both ways of writing are read.
    for data in (
        orjson.dumps(value),
        json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode(),
    ):
        assert _agree(data) == "read"


# Bytes that change what a JSON text is, to put in, take out or swap for others.
_BYTES = b'"\\{}[],: \n\t\r-+.eE0123456789tfnulrsau/x\x00\x1f\x7f\xc3\xa9\xed\xa0\xff'


def _mutated(data: bytes, rng: random.Random) -> bytes:
    edited = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(edited) + 1)
        byte = _BYTES[rng.randrange(len(_BYTES))]
        match rng.randrange(4):
            case 0:
                edited.insert(at, byte)
            case 1 if at < len(edited):
                del edited[at]
            case 2 if at < len(edited):
                edited[at] = byte
            case _:
                edited[at:at] = rng.choice([b"\\u", b"\\ud83d\\ude00", b'":', b"-0", b"1e99"])
    return bytes(edited)


def test_damaged_texts_are_refused_where_orjson_refuses_them():
    rng = random.Random(15)  # noqa: S311 - reproducible inputs
    seeds = [
        b'{"a": [1, -2.5e3, "x\\n\\u00e9y", {"b": null, "c": true}], "d": "' + b"w" * 40 + b'"}',
        json.dumps({"k": ["\u00e9\U0001f600", 18446744073709551615, 0.1, {}]}, indent=2).encode(),
        b'[false, "\\ud83d\\ude00", 0, -1, 1E-2, "' + b"z\\t" * 30 + b'"]',
    ]
    kinds = {"read": 0, "not json": 0, "declined": 0}
    for _ in range(20_000):
        kinds[_agree(_mutated(rng.choice(seeds), rng))] += 1
    # Each outcome is met often enough for a wrong one to be caught.
    assert kinds["read"] > 1000, kinds
    assert kinds["not json"] > 1000, kinds
    assert kinds["declined"] > 30, kinds
