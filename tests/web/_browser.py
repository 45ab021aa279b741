"""What the browser tests share: Debian's Chromium, and the app served by a real uvicorn.

The ``chromium`` and ``tab`` fixtures (``conftest.py``) launch the browser; ``Server``
serves an app in a thread on a free localhost port for the browser to open; ``Watched``
tells what a page showing hostile markup made happen.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn

if TYPE_CHECKING:
    from fastapi import FastAPI
    from playwright.sync_api import Dialog, Page

CHROMIUM = Path(os.environ.get("TRACEGRADE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """uvicorn serving an app in a thread until stopped."""

    def __init__(self, app: FastAPI) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> Server:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                msg = "the test server did not start"
                raise RuntimeError(msg)
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)


NOTHING_RAN: dict[str, object] = {
    "dialogs": [],
    "requests off the site": [],
    "window.__pwned": None,
    "images in main": 0,
    "scripts in main": 0,
    "javascript: links": 0,
}
"""What ``Watched.ran`` says when a page's hostile markup stayed text."""


class Watched:
    """A tab watched from now on: the dialogs it opens (each dismissed), the URLs it asks."""

    def __init__(self, tab: Page) -> None:
        self._tab = tab
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        tab.on("dialog", self._dismiss)
        tab.on("request", lambda request: self.requests.append(request.url))

    def _dismiss(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def ran(self, site: str) -> dict[str, object]:
        """What markup injected into the page made happen (``NOTHING_RAN`` when nothing).

        Args:
            site: The served app's URL; a request to anywhere else counts.
        """
        return {
            "dialogs": self.dialogs,
            "requests off the site": [
                seen for seen in self.requests if not seen.startswith(site + "/")
            ],
            "window.__pwned": self._tab.evaluate("window.__pwned"),
            "images in main": self._tab.locator("main img").count(),
            "scripts in main": self._tab.locator("main script").count(),
            "javascript: links": self._tab.locator("a[href^='javascript:']").count(),
        }
