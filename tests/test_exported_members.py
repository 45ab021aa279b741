"""Every public subpackage curates a sorted __all__ that names exactly its public members."""

from __future__ import annotations
import __future__

import importlib
import types
import typing

import pytest

PUBLIC_MODULES = [
    "tracegrade.traces",
    "tracegrade.observations",
    "tracegrade.claims",
    "tracegrade.support",
    "tracegrade.verdicts",
    "tracegrade.suites",
    "tracegrade.report",
    "tracegrade.errors",
    "tracegrade.figures",
    "tracegrade.guard",
    "tracegrade.contract",
    "tracegrade.evals",
    "tracegrade.metrics",
    "tracegrade.store",
    "tracegrade.judges",
    "tracegrade.proposals",
    "tracegrade.cost",
    "tracegrade.web",
    "tracegrade.redact",
    "tracegrade.export",
]


def public_members(module: types.ModuleType) -> list[str]:
    """Names a user would import: not private, not modules, not typing or __future__ helpers."""
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if isinstance(value, __future__._Feature) or value is getattr(typing, name, None):
            continue
        names.append(name)
    return names


def isort_order(name: str) -> tuple[int, str]:
    """ruff's RUF022 order: CONSTANTS, then Classes, then functions, each alphabetical."""
    if name.isupper():
        return (0, name)
    return (1 if name[0].isupper() else 2, name)


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_is_sorted_and_exists(name) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert exported == sorted(exported, key=isort_order)
    assert len(set(exported)) == len(exported)
    assert [member for member in exported if not hasattr(module, member)] == []


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_no_public_member_is_missing_from_all(name) -> None:
    module = importlib.import_module(name)
    for member in module.__all__:  # a name a package imports on first use is then in vars()
        getattr(module, member)
    assert sorted(public_members(module)) == sorted(module.__all__)


def test_top_level_package_exports_only_the_version() -> None:
    tracegrade = importlib.import_module("tracegrade")
    assert tracegrade.__all__ == ["__version__"]
