"""tracegrade.testing: a sorted __all__ whose names resolve, imported only when first used."""

from __future__ import annotations

import subprocess
import sys

from tracegrade import testing


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert testing.__all__ == sorted(testing.__all__)
    for name in testing.__all__:
        assert getattr(testing, name).__name__ == name
    assert dir(testing) == testing.__all__


def test_loading_the_plugin_imports_no_part_of_the_grader() -> None:
    # What keeps a session that never grades fast: the plugin pulls in pytest and nothing
    # of tracegrade's pipeline (pydantic, the readers, the grader) until a test asks.
    code = (
        "import sys, tracegrade.testing.plugin;"
        "heavy = sorted(m for m in sys.modules if m.startswith(('pydantic', 'tracegrade.traces',"
        " 'tracegrade.verdicts', 'tracegrade.evals', 'sqlalchemy', 'orjson')));"
        "print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
