"""tracegrade.cost curates a sorted __all__ naming exactly its public members.

(The same checks as tests/test_exported_members.py, whose list the lead engineer keeps.)
"""

from __future__ import annotations

import importlib

import pytest

from tests.test_exported_members import isort_order, public_members


@pytest.mark.parametrize("name", ["tracegrade.cost"])
def test_all_is_sorted_complete_and_exists(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert exported == sorted(exported, key=isort_order)
    assert sorted(public_members(module)) == sorted(exported)
