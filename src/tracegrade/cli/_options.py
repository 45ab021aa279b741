"""Options several commands share, and opening what they name: the project and its store."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tracegrade.evals import Executor, Project
    from tracegrade.store import Store

__all__ = [
    "DEFAULT_STORE_FILE",
    "STORE_URL_VARIABLE",
    "executor_for",
    "executor_options",
    "format_option",
    "open_project_store",
    "open_store_for",
    "opened",
    "project_file",
    "project_option",
    "project_store_options",
    "store_option",
]

DEFAULT_STORE_FILE = ".tracegrade/tracegrade.db"
"""The store of a folder with no project file, as in the default store URL."""
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


def open_project_store(
    project: Project | None, url: str | None, *, existing: bool = False
) -> Store:
    """The store ``url`` names, else the project's, else the default; opened and migrated.

    Args:
        project: The project, whose ``[store] url`` is used when ``url`` is ``None``.
        url: The store URL given (``--store``), or ``None``.
        existing: The command only reads: a SQLite file that does not exist is an error (a
            mistyped path would otherwise show an empty store, and leave a file behind).

    Raises:
        InputError: ``existing`` and the SQLite file does not exist.
    """
    from tracegrade.store import DEFAULT_URL, open_store

    if url is None and project is not None:
        url = project.store_url
    if existing:
        _check_exists(url or DEFAULT_URL, given=url is not None)
    return open_store(url)


def _check_exists(url: str, *, given: bool) -> None:
    import sqlalchemy as sa
    from sqlalchemy.exc import ArgumentError

    from tracegrade.errors import InputError

    try:
        parsed = sa.make_url(url)
    except ArgumentError:
        return  # open_store words the parse error
    if parsed.drivername != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    if not Path(parsed.database).is_file():
        where = (
            " (the default store: no --store, and no tracegrade.toml there)"
            if not given or parsed.database.endswith(DEFAULT_STORE_FILE)
            else ""
        )
        raise InputError(
            f"there is no store at {parsed.database}{where}",
            fix="check the path (a typo?), pass --project DIR or --store URL, or run"
            " `tracegrade run` first to create it",
        )


def open_store_for(project_path: Path, store_url: str | None, *, existing: bool = True) -> Store:
    """The store ``--store`` names, else the project's, else ``.tracegrade/tracegrade.db``.

    Args:
        project_path: ``--project``: a folder holding tracegrade.toml, or the file.
        store_url: ``--store``, or ``None``.
        existing: See :func:`open_project_store`.

    Raises:
        InputError: ``existing`` and the store file does not exist.
    """
    from tracegrade.evals import load_project

    path = project_file(project_path)
    project = load_project(path) if store_url is None and path.is_file() else None
    return open_project_store(project, store_url or _folder_store(path), existing=existing)


def _folder_store(path: Path) -> str | None:
    """The store when the project file ``path`` is missing: the folder's default store.

    ``None`` when the file exists (its ``[store] url`` decides).

    Raises:
        InputError: ``--project`` names neither a folder nor an existing file.
    """
    from tracegrade.errors import InputError
    from tracegrade.evals import PROJECT_FILE

    if path.is_file():
        return None
    if path.name != PROJECT_FILE or not path.parent.is_dir():
        raise InputError(f"{path} does not exist", fix="pass --project DIR or --store URL")
    return f"sqlite:///{(path.parent / DEFAULT_STORE_FILE).as_posix()}"


@contextmanager
def opened(
    project_path: Path, store_url: str | None, *, need_project: bool, existing: bool = True
) -> Iterator[tuple[Project | None, Store]]:
    """The project (when its file exists, or is needed) and the store, closed afterwards.

    Without ``--store`` the store is the project's, else the default
    ``.tracegrade/tracegrade.db`` of the working folder.

    Raises:
        InputError: The project is needed and its file is missing, or (``existing``) the
            store file does not exist.
    """
    from tracegrade.evals import load_project

    path = project_file(project_path)
    project = load_project(path) if need_project or path.is_file() else None
    store = open_project_store(project, store_url or _folder_store(path), existing=existing)
    try:
        yield project, store
    finally:
        store.close()


def check_touchpoint(project_path: Path, touchpoint: str | None) -> None:
    """An unknown ``--touchpoint`` is an error naming the known ids (when there is a project).

    Without a project file nothing names the touchpoints; the command then says when it
    found nothing.

    Raises:
        ProjectError: The project has no touchpoint with that id.
    """
    from tracegrade.evals import load_project

    path = project_file(project_path)
    if touchpoint is not None and path.is_file():
        load_project(path).entry(touchpoint)


def check_run(store: Store, run_id: str | None) -> None:
    """An unknown ``--run`` is an error naming the latest runs in the store.

    Raises:
        InputError: The store has no run with that id.
    """
    from tracegrade.errors import InputError

    if run_id is None or store.get_run(run_id) is not None:
        return
    latest = [run.run_id for run in store.list_runs(limit=5)]
    raise InputError(
        f"the store has no run {run_id!r}",
        fix=f"latest runs: {', '.join(latest)}" if latest else "the store holds no run yet",
    )


def executor_options(function: Callable[..., None]) -> Callable[..., None]:
    """``--executor local|thread|ray`` and ``--workers N``."""
    function = click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)(
        function
    )
    return click.option(
        "--executor",
        type=click.Choice(["local", "thread", "ray"]),
        default="local",
        show_default=True,
        help="local: this process, or a pool of --workers processes; thread: --workers threads"
        " (suites that wait on the network); ray: Ray tasks (the ray extra; RAY_ADDRESS names a"
        " cluster).",
    )(function)


def executor_for(name: str, workers: int) -> Executor:
    """The executor ``--executor NAME --workers N`` names."""
    from tracegrade.evals import LocalExecutor, ProcessExecutor, RayExecutor

    if name == "ray":
        return RayExecutor(workers=workers)
    if name == "local" and workers > 1:
        return ProcessExecutor(workers)  # grade, guard and contract suites are CPU-bound
    return LocalExecutor(workers)
