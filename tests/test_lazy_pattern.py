"""LazyPattern: compiled on first use, then the same answers as the ``re.Pattern`` it stands for."""

from __future__ import annotations

import re

import pytest

from tracegrade._lazy_pattern import LazyPattern

TEXT = "Refund within 45 days; 30 DAYS for gift cards, 7 days otherwise."


def test_nothing_is_compiled_until_first_use():
    lazy = LazyPattern("(unclosed")  # re.compile would raise here

    with pytest.raises(re.error):
        lazy.search(TEXT)


def test_each_method_answers_as_the_compiled_pattern():
    lazy = LazyPattern(r"(\d+) days", re.IGNORECASE)
    eager = re.compile(r"(\d+) days", re.IGNORECASE)

    assert lazy.search(TEXT, 20).span() == eager.search(TEXT, 20).span()  # type: ignore[union-attr]
    assert lazy.match(TEXT, 14).group(1) == "45"  # type: ignore[union-attr]
    assert lazy.match(TEXT) is None
    assert lazy.fullmatch("45 days") is not None
    assert lazy.fullmatch(TEXT) is None
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in eager.finditer(TEXT)]
    assert lazy.sub(lambda m: f"{m[1]}d", TEXT) == eager.sub(lambda m: f"{m[1]}d", TEXT)
    assert lazy.sub("N", TEXT, count=1) == eager.sub("N", TEXT, count=1)
    assert lazy.compiled is lazy.compiled  # compiled once
    assert lazy.compiled.flags == eager.flags
    assert lazy.pattern == eager.pattern
