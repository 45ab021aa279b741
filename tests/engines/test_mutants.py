"""A changed rule in either engine fails the comparison: each mutant here must be caught.

Each mutant changes one rule of one engine (the Python reference, or the compiled core as
Python calls it) the way a bug in a port would, and the comparison over the default
generated inputs must report a difference. If one stops being caught, the generated inputs
no longer reach that rule. A mutant of the Rust source itself was checked by hand
(docs/fuzzing.md, "The engine comparison").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.engines._generate import generated_inputs
from tests.engines._harness import compare
from tests.engines.test_generated import DEFAULT_INPUTS
from tracegrade import _core
from tracegrade._engine import compiled_core
from tracegrade.observations import _index
from tracegrade.redact import _scan, _trace

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


class _CoreIndexMissingLaterHits:
    """The compiled index finding only the first entry that holds a needle."""

    def __init__(self, pieces: Any, counts: Any) -> None:
        self._inner = _REAL_TEXT_INDEX(pieces, counts)

    @property
    def total(self) -> int:
        return self._inner.total

    def search(self, needle: str) -> list[tuple[int, int]] | None:
        hits = self._inner.search(needle)
        return hits if hits is None else hits[:1]


_REAL_TEXT_INDEX = _core.TextIndex
_REAL_HITS = _index._hits
_REAL_SCAN = _scan.scan_values
_REAL_CORE_SCAN = _core.redaction_scan


def _reference_drops_the_last_hit(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_index, "_hits", lambda *args: _REAL_HITS(*args)[:-1])


def _reference_folds_case(patch: pytest.MonkeyPatch) -> None:
    # str.casefold instead of str.lower: "ß" becomes "ss", "\u03c2" becomes "\u03c3".
    patch.setattr(_index.TextIndex, "_lower_full", lambda self: self._raw.casefold())


def _reference_misses_a_trigger(patch: pytest.MonkeyPatch) -> None:
    # redact_trace narrows its rules by what scan_values finds in the trace.
    def mutant(values: Any, triggers: tuple[str, ...]) -> tuple[set[str], set[str]]:
        found, keys = _REAL_SCAN(values, triggers)
        return (found - {"bearer"} if compiled_core() is None else found), keys

    patch.setattr(_trace, "scan_values", mutant)


def _core_misses_later_hits(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_core, "TextIndex", _CoreIndexMissingLaterHits)


def _core_misses_the_last_needle(patch: pytest.MonkeyPatch) -> None:
    def mutant(values: Any, needles: list[str]) -> tuple[list[int], list[str]]:
        present, keys = _REAL_CORE_SCAN(values, needles)
        return present[:-1], keys

    patch.setattr(_core, "redaction_scan", mutant)


_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def _core_lowers_ascii_only(patch: pytest.MonkeyPatch) -> None:
    # As rust/src/json_scan.rs with `make_ascii_lowercase` for `lower_into` on non-ASCII
    # values: tried on the Rust source too, and caught the same way.
    def mutant(values: Any, needles: list[str]) -> tuple[list[int], list[str]]:
        strings: list[str] = []
        keys: set[str] = set()
        _scan._collect(values, strings, keys)
        lowered = "\x00".join(strings).translate(_ASCII_LOWER)
        return [index for index, needle in enumerate(needles) if needle in lowered], list(keys)

    patch.setattr(_core, "redaction_scan", mutant)


MUTANTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "reference index drops the last hit": _reference_drops_the_last_hit,
    "reference index folds case (casefold, not lower)": _reference_folds_case,
    "reference redaction misses the 'bearer' trigger": _reference_misses_a_trigger,
    "core index finds only the first hit": _core_misses_later_hits,
    "core redaction misses the last trigger found": _core_misses_the_last_needle,
    "core redaction lower-cases ASCII only": _core_lowers_ascii_only,
}


@pytest.mark.parametrize("name", MUTANTS)
def test_the_comparison_catches_the_mutant(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    MUTANTS[name](monkeypatch)
    comparison = compare(generated_inputs(DEFAULT_INPUTS), tmp_path, stop_at=1)
    assert comparison.differences, f"mutant {name!r} survived {comparison.inputs} inputs"


def test_without_a_mutant_nothing_differs(tmp_path: Path):
    # The control: the same inputs the mutants run on agree (a small prefix, for speed).
    assert not compare(generated_inputs(60), tmp_path).differences
