"""Options several commands share, and opening what they name: the project and its store."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.evals import Project
    from tracegrade.store import Store

__all__ = [
    "STORE_URL_VARIABLE",
    "format_option",
    "open_project_store",
    "open_store_for",
    "opened",
    "project_file",
    "project_option",
    "project_store_options",
    "store_option",
]

STORE_URL_VARIABLE = "TRACEGRADE_STORE_URL"
"""The store every command uses when ``--store`` is not given (before the project's)."""


def format_option(function: Callable[..., None]) -> Callable[..., None]:
    """``--format text|json`` (into ``output_format``)."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
    )(function)


def store_option(function: Callable[..., None]) -> Callable[..., None]:
    """``--store URL`` (into ``store_url``), read from ``$TRACEGRADE_STORE_URL`` when not given."""
    return click.option(
        "--store",
        "store_url",
        metavar="URL",
        envvar=STORE_URL_VARIABLE,
        show_envvar=True,
        help="The store: sqlite:///PATH or postgresql+psycopg://... (default: the project's"
        " [store] url, else .tracegrade/tracegrade.db).",
    )(function)


def project_option(function: Callable[..., None]) -> Callable[..., None]:
    """``--project PATH`` (into ``project_path``): a folder holding tracegrade.toml, or the file."""
    return click.option(
        "--project",
        "project_path",
        type=click.Path(path_type=Path),
        default=".",
        show_default=True,
        help="The project: a folder holding tracegrade.toml, or the file.",
    )(function)


def prices_option(help_text: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--prices FILE`` (into ``prices_path``): a price file over the packaged prices."""
    return click.option(
        "--prices", "prices_path", type=click.Path(path_type=Path), metavar="FILE", help=help_text
    )


def project_store_options(function: Callable[..., None]) -> Callable[..., None]:
    """``--project``, ``--store`` and ``--format``: what every command over the store takes."""
    return project_option(store_option(format_option(function)))


def project_file(target: Path) -> Path:
    """The project file: ``target`` itself, or ``tracegrade.toml`` in the folder it names."""
    from tracegrade.evals import PROJECT_FILE

    return target / PROJECT_FILE if target.is_dir() else target


def open_project_store(project: Project | None, url: str | None) -> Store:
    """The store ``url`` names, else the project's, else the default; opened and migrated."""
    from tracegrade.store import open_store

    if url is None and project is not None:
        url = project.store_url
    return open_store(url)


def open_store_for(project_path: Path, store_url: str | None) -> Store:
    """The store ``--store`` names, else the one of the project ``--project`` names.

    Raises:
        InputError: No store URL is given and the project file is missing.
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import load_project

    if store_url is not None:
        return open_project_store(None, store_url)
    path = project_file(project_path)
    if not path.is_file():
        raise InputError(f"{path} does not exist", fix="pass --project DIR or --store URL")
    return open_project_store(load_project(path), None)


@contextmanager
def opened(
    project_path: Path, store_url: str | None, *, need_project: bool
) -> Iterator[tuple[Project | None, Store]]:
    """The project (when its file exists, or is needed) and the store, closed afterwards.

    Raises:
        InputError: The project is needed (or no store URL is given) and its file is missing.
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import load_project

    path = project_file(project_path)
    project = load_project(path) if need_project or path.is_file() else None
    if project is None and store_url is None:
        raise InputError(f"{path} does not exist", fix="pass --project DIR or --store URL")
    store = open_project_store(project, store_url)
    try:
        yield project, store
    finally:
        store.close()
