"""The figure rules the core's cargo tests build their extractor from are the reference's."""

from __future__ import annotations

import json
from pathlib import Path

from tracegrade.figures._extract import compiled_rules

_DUMP = Path(__file__).parents[2] / "rust" / "testdata" / "figure_rules.json"


def test_the_cargo_tests_rules_are_current() -> None:
    # Regenerate with: python -c "import json; from tracegrade.figures._extract import
    # compiled_rules; print(json.dumps(compiled_rules(), indent=1, ensure_ascii=False))"
    # > rust/testdata/figure_rules.json
    current = json.loads(json.dumps(compiled_rules()))
    assert json.loads(_DUMP.read_text(encoding="utf-8")) == current
