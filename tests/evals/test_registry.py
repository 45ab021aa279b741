"""@touchpoint declarations, and the registry version."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.evals.builders import write_project
from tracegrade.errors import ProjectError, RegistryError
from tracegrade.evals import (
    Baseline,
    CaseOutcome,
    Touchpoint,
    load_project,
    registered_touchpoints,
    registry_version,
    touchpoint,
    unregister_touchpoint,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture
def cleanup() -> Iterator[list[str]]:
    ids: list[str] = []
    yield ids
    for touchpoint_id in ids:
        unregister_touchpoint(touchpoint_id)


def test_a_decorated_function_registers_its_contract(cleanup: list[str], tmp_path: Path):
    cleanup.append("summarise_ticket")

    @touchpoint(
        id="summarise_ticket",
        kind="prompt",
        owner="support",
        severity_on_fail="warn",
        baseline={"min": 0.9},
        repeats=2,
    )
    def suite(repeat: int) -> list[CaseOutcome]:
        return [CaseOutcome(case="short", outcome="passed", repeat=repeat)]

    entry = next(e for e in registered_touchpoints() if e.touchpoint.id == "summarise_ticket")
    assert entry.function is suite
    contract = entry.touchpoint
    assert contract.call == f"{__name__}:{suite.__qualname__}"
    assert contract.suite_kind == "callable"
    assert contract.baseline == Baseline(min=0.9)
    assert entry.origin == f"python {contract.call}"
    # Both land in the same registry.
    project = load_project(write_project(tmp_path))
    assert project.touchpoints[-1] == contract
    assert project.entry("summarise_ticket").function is suite


def test_a_second_declaration_of_an_id_names_both(cleanup: list[str]):
    cleanup.append("twice")

    @touchpoint(id="twice", kind="tool", owner="a", severity_on_fail="block")
    def first(repeat: int) -> list[CaseOutcome]:
        return []

    with pytest.raises(RegistryError) as caught:

        @touchpoint(id="twice", kind="tool", owner="a", severity_on_fail="block")
        def second(repeat: int) -> list[CaseOutcome]:
            return []

    message = str(caught.value)
    assert "touchpoint 'twice' is declared twice" in message
    assert first.__qualname__ in message
    assert "second" in message


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"repeats": 0}, "repeats"),
        ({"variance_band": 2.0}, "variance_band"),
        ({"baseline": {"min": 0.5, "max_drop": 1.5}}, "baseline.max_drop"),
        ({"lanes": ["weekly"]}, "lanes"),
        ({"grounding_shape": "json"}, "grounding_shape"),
        ({"graduation": {"window": 0}}, "graduation.window"),
    ],
)
def test_a_bad_declaration_names_the_function_touchpoint_and_field(
    fields: dict[str, object], field: str
):
    with pytest.raises(ProjectError) as caught:
        touchpoint(id="bad", kind="inline", owner="me", severity_on_fail="info", **fields)(  # type: ignore[arg-type]
            lambda repeat: []
        )
    assert caught.value.touchpoint == "'bad'"
    assert caught.value.field == field
    assert str(caught.value).startswith(f"python {__name__}:")
    assert "bad" not in {e.touchpoint.id for e in registered_touchpoints()}


def test_a_python_touchpoint_sets_its_graduation_like_the_project_file(cleanup: list[str]):
    cleanup.append("graduating")

    @touchpoint(
        id="graduating",
        kind="prompt",
        owner="me",
        severity_on_fail="warn",
        graduation={"window": 4, "threshold": 0.5},
    )
    def suite(repeat: int) -> list[CaseOutcome]:
        return []

    [entry] = [e for e in registered_touchpoints() if e.touchpoint.id == "graduating"]
    assert (entry.touchpoint.graduation.window, entry.touchpoint.graduation.threshold) == (4, 0.5)


def test_a_python_suite_must_be_callable_or_gate():
    with pytest.raises(ProjectError, match=r"field 'suite_kind': is 'command'"):
        touchpoint(
            id="cmd", kind="tool", owner="me", severity_on_fail="info", suite_kind="command"
        )(lambda repeat: [])


# -- registry version -------------------------------------------------------------------

BASE = Touchpoint(
    id="search_knowledge",
    kind="tool",
    owner="retrieval-team",
    suite_kind="grade",
    suite="suites/grounding.toml",
    grounding_shape="citations",
    severity_on_fail="block",
    variance_band=0.02,
    repeats=3,
    files=("prompts/search.md",),
    baseline=Baseline(min=0.8, max_drop=0.05),
)
OTHER = Touchpoint(
    id="old_evals",
    kind="prompt",
    owner="ml",
    suite_kind="command",
    command=("python", "run.py"),
    output_format="json",
    severity_on_fail="warn",
)

CHANGES: list[dict[str, object]] = [
    {"id": "search"},
    {"kind": "skill"},
    {"owner": "someone-else"},
    {"suite": "suites/other.toml"},
    {"grounding_shape": "n/a"},
    {"severity_on_fail": "warn"},
    {"variance_band": 0.03},
    {"repeats": 4},
    {"nightly_repeats": 5},
    {"lanes": ("nightly",)},
    {"files": ("prompts/search.md", "prompts/other.md")},
    {"baseline": Baseline(min=0.81, max_drop=0.05)},
    {"baseline": Baseline(min=0.8, max_drop=0.04)},
    {"description": "searches"},
]


@pytest.mark.parametrize("change", CHANGES)
def test_the_version_changes_when_any_contract_field_changes(change: dict[str, object]):
    changed = Touchpoint.model_validate({**BASE.model_dump(), **change})
    assert registry_version([changed, OTHER]) != registry_version([BASE, OTHER])


def test_the_version_ignores_key_and_table_order(tmp_path: Path):
    assert registry_version([BASE, OTHER]) == registry_version([OTHER, BASE])
    reordered = Touchpoint.model_validate(dict(reversed(list(BASE.model_dump().items()))))
    assert registry_version([reordered]) == registry_version([BASE])
    # The same contract written with keys in another order in the file, defaults spelled out.
    text_a = (
        '[[touchpoints]]\nid = "a"\nkind = "tool"\nowner = "t"\n'
        'suite = "suites/grounding.toml"\nseverity_on_fail = "block"\n'
        "baseline = {min = 0.5, max_drop = 0.1}\n"
    )
    text_b = (
        '[[touchpoints]]\nseverity_on_fail = "block"\nbaseline = {max_drop = 0.1, min = 0.5}\n'
        'suite = "suites/grounding.toml"\nowner = "t"\nkind = "tool"\nid = "a"\n'
        'repeats = 1\nsuite_kind = "grade"\n'
    )
    one = load_project(write_project(tmp_path, text_a), registered=()).version
    two = load_project(write_project(tmp_path, text_b), registered=()).version
    assert one == two
    assert len(one) == 64


def test_the_version_of_no_touchpoints_is_stable():
    assert registry_version([]) == registry_version(())
    assert registry_version([]) != registry_version([BASE])
