"""``tracegrade serve``: the results UI and JSON API over a store, on 127.0.0.1 by default."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tracegrade.cli._options import open_project_store, project_file, store_option

if TYPE_CHECKING:
    from tracegrade.evals import Project

__all__ = ["read_admin_token", "serve_command"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def read_admin_token(path: Path | None, project: Project | None) -> str | None:
    """The admin token from ``path``, else the project's ``[web] admin_token_file``; or ``None``.

    ``None`` leaves ``$TRACEGRADE_ADMIN_TOKEN`` to decide. An empty or unreadable file is an
    error: a server started read-only by mistake would look like a broken approve button.

    Raises:
        InputError: The file cannot be read or holds no token.
    """
    from tracegrade.errors import InputError

    if path is None and project is not None and project.config.web.admin_token_file:
        path = project.root / project.config.web.admin_token_file
    if path is None:
        return None
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise InputError(
            f"cannot read the admin token file: {exc.strerror or exc}",
            fix="create the file with the token on its first line, or remove the setting",
            path=str(path),
        ) from exc
    if not token:
        raise InputError(
            "the admin token file is empty",
            fix="write the token on its first line",
            path=str(path),
        )
    return token


def _free_port(host: str) -> int:
    """A port the system gives as free on ``host`` (``--port 0``), to print and then bind.

    Raises:
        InputError: ``host`` is not an address of this machine.
    """
    import socket

    from tracegrade.errors import InputError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((host, 0))
            port: int = probe.getsockname()[1]
    except OSError as exc:
        raise InputError(
            f"cannot listen on {host} ({exc.strerror or exc})",
            fix="pass --host with an address of this machine (default 127.0.0.1)",
        ) from exc
    return port


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to bind.")
@click.option(
    "--port", type=click.IntRange(min=0, max=65535), default=7600, show_default=True,
    help="The port; 0 picks a free one (and prints it).",
)  # fmt: skip
@click.option(
    "--project",
    "project_path",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="The project (folder or tracegrade.toml) whose registry the pages list; default"
    " ./tracegrade.toml when it exists.",
)
@store_option
@click.option(
    "--admin-token-file",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="A file holding the admin token (default: the project's [web] admin_token_file,"
    " else $TRACEGRADE_ADMIN_TOKEN).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests whose Host is NAME (repeatable); by default only 127.0.0.1,"
    " localhost and [::1] are, so a DNS-rebinding page is refused.",
)
def serve_command(
    *,
    host: str,
    port: int,
    project_path: Path | None,
    store_url: str | None,
    admin_token_file: Path | None,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the results UI and JSON API over the store until interrupted.

    Changes (approving or rejecting a proposal) need the admin token: from
    --admin-token-file, the project's [web] admin_token_file, or TRACEGRADE_ADMIN_TOKEN;
    without one the UI is read-only.

    \b
    Example:
      tracegrade serve --project examples/project
      TRACEGRADE_ADMIN_TOKEN=... tracegrade serve --port 8080
    """
    import uvicorn

    from tracegrade.errors import InputError
    from tracegrade.evals import load_project
    from tracegrade.web import create_app
    from tracegrade.web._security import host_name, resolve_token

    for name in allow_hosts:
        try:
            host_name(name)
        except ValueError as exc:
            raise InputError(
                f"--allow-host: {exc}", fix="give a host name, e.g. --allow-host box.lan"
            ) from exc

    project = None
    if project_path is not None:
        project = load_project(project_file(project_path))
    elif project_file(Path()).is_file():
        project = load_project(project_file(Path()))
    token = read_admin_token(admin_token_file, project)
    if port == 0:
        port = _free_port(host)  # so the address printed is the one served
    store = open_project_store(project, store_url)
    app = create_app(store, project=project, admin_token=token, allowed_hosts=allow_hosts)
    shown = f"[{host}]" if ":" in host else host
    where = getattr(store, "url", store_url)
    click.echo(f"tracegrade: serving {where} at http://{shown}:{port}/")
    if not _loopback(host):
        click.echo(
            f"tracegrade: warning: {host} is reachable from other machines; the pages show"
            " trace contents to anyone who can connect",
            err=True,
        )
    if resolve_token(token) is None:
        click.echo("tracegrade: read-only (set TRACEGRADE_ADMIN_TOKEN to approve proposals)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        store.close()
