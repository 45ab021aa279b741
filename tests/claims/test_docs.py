"""docs/claims.md shows what the code does: its examples run as doctests."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "claims.md"


def test_the_examples_of_docs_claims_md_hold() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 6  # the examples were found, not skipped
    assert result.failed == 0
