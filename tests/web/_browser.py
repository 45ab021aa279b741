"""What the browser tests share: Debian's Chromium, and the app served by a real uvicorn.

The ``chromium`` and ``tab`` fixtures (``conftest.py``) launch the browser; the app is
served by ``tests.helpers.server.Server`` for the browser to open; ``Watched``
tells what a page showing hostile markup made happen.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, Page

CHROMIUM = Path(os.environ.get("TRACEGRADE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]


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
