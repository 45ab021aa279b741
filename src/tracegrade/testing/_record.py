"""Marked tests' outcomes stored as case results of their touchpoints (the plugin's edge)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from tracegrade.errors import InputError
from tracegrade.evals import PROJECT_FILE, CaseOutcome, Outcome, load_project, record_outcomes
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from tracegrade.evals import Project, RunReport

__all__ = ["STORE_URL_VARIABLE", "check_touchpoints", "project_at", "store_outcomes"]

STORE_URL_VARIABLE = "TRACEGRADE_STORE_URL"
"""The store used instead of the project's, as for every tracegrade command."""


def project_at(target: Path) -> Project:
    """The project of ``tracegrade.toml`` in the folder ``target`` (or the file itself).

    Raises:
        InputError: There is no such file, or it is not a valid project.
    """
    path = target / PROJECT_FILE if target.is_dir() else target
    if not path.is_file():
        raise InputError(
            f"{path} does not exist, and tests are marked @pytest.mark.tracegrade",
            fix="declare their touchpoints in a tracegrade.toml there, or pass"
            " --tracegrade-project PATH",
        )
    return load_project(path)


def check_touchpoints(project: Project, marked: Mapping[str, str]) -> None:
    """Every marked test names a touchpoint of the registry.

    Raises:
        ProjectError: A test names an unknown touchpoint; the message names the test.
    """
    for test, touchpoint in marked.items():
        try:
            project.entry(touchpoint)
        except InputError as exc:
            exc.case = test
            raise


def store_outcomes(
    project: Project, outcomes: Mapping[str, Sequence[tuple[str, Outcome, str]]]
) -> RunReport:
    """Store each touchpoint's (test, outcome, detail) triples as one run, judged.

    Raises:
        InputError: Bad store URL or unknown touchpoint.
        InfrastructureError: The store is down.
    """
    cases = {
        touchpoint: [
            CaseOutcome(case=test, outcome=outcome, detail=detail)
            for test, outcome, detail in results
        ]
        for touchpoint, results in outcomes.items()
    }
    store = open_store(os.environ.get(STORE_URL_VARIABLE) or project.store_url)
    try:
        return record_outcomes(project, store, cases, source="pytest")
    finally:
        store.close()
