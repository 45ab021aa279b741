"""``tracegrade serve``: the results UI and JSON API over a store, on 127.0.0.1 by default."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from tracegrade.cli._options import open_project_store, project_file, store_option

__all__ = ["serve_command"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to bind.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=7600, show_default=True)
@click.option(
    "--project",
    "project_path",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="The project (folder or tracegrade.toml) whose registry the pages list; default"
    " ./tracegrade.toml when it exists.",
)
@store_option
def serve_command(host: str, port: int, project_path: Path | None, store_url: str | None) -> None:
    """Serve the results UI and JSON API over the store until interrupted.

    Changes (approving or rejecting a proposal) need the admin token in
    TRACEGRADE_ADMIN_TOKEN; without it the UI is read-only.

    \b
    Example:
      tracegrade serve --project examples/project
      TRACEGRADE_ADMIN_TOKEN=... tracegrade serve --port 8080
    """
    import uvicorn

    from tracegrade.evals import load_project
    from tracegrade.web import create_app
    from tracegrade.web._security import resolve_token

    project = None
    if project_path is not None:
        project = load_project(project_file(project_path))
    elif project_file(Path()).is_file():
        project = load_project(project_file(Path()))
    store = open_project_store(project, store_url)
    app = create_app(store, project=project)
    shown = f"[{host}]" if ":" in host else host
    where = getattr(store, "url", store_url)
    click.echo(f"tracegrade: serving {where} at http://{shown}:{port}/")
    if not _loopback(host):
        click.echo(
            f"tracegrade: warning: {host} is reachable from other machines; the pages show"
            " trace contents to anyone who can connect",
            err=True,
        )
    if resolve_token(None) is None:
        click.echo("tracegrade: read-only (set TRACEGRADE_ADMIN_TOKEN to approve proposals)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        store.close()
