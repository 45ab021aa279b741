"""An app served by a real uvicorn on a free loopback port, in a thread (web and export tests).

uvicorn's default ``log_config`` runs ``logging.config.dictConfig``, which closes every
handler already installed; absl (imported by rouge-score in tests/metrics) installs one on
pytest's captured stderr, and closing it closed that stream. ``log_config=None`` leaves
logging alone.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import TYPE_CHECKING

import uvicorn

if TYPE_CHECKING:
    from fastapi import FastAPI


def free_port() -> int:
    """A port nothing listens on now (closed again at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """uvicorn serving an app in a thread until the ``with`` block ends."""

    def __init__(self, app: FastAPI) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_config=None, access_log=False
        )
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
