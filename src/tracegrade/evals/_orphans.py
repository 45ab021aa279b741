"""Worker processes end with the run that started them, even when it is killed with ``kill -9``.

A pool worker blocks reading its task pipe, which it holds open itself (both ends travel
with the queue), so a killed driver never gives it an end of file: it would wait forever.
:func:`exit_with` starts a daemon thread that waits for the driver to exit, on a pidfd
where Linux has one (no polling), else by checking the pid every second, and then ends the
worker at once.
"""

from __future__ import annotations

import os
import select
import threading
import time

__all__ = ["exit_with"]

_POLL_SECONDS = 1.0


def exit_with(driver: int) -> None:
    """End this process (exit code 1) as soon as process ``driver`` has exited."""
    if driver == os.getpid():
        return
    threading.Thread(target=_watch, args=(driver,), name="tracegrade-orphan", daemon=True).start()


def _watch(driver: int) -> None:
    try:
        descriptor = os.pidfd_open(driver)
    except (AttributeError, OSError):  # no pidfd (not Linux, or before 5.3), or already gone
        while _alive(driver):
            time.sleep(_POLL_SECONDS)
    else:
        poller = select.poll()
        poller.register(descriptor, select.POLLIN)  # readable once the process has exited
        poller.poll()
    os._exit(1)  # no cleanup to wait for: the driver that would store results is gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by another user
    return True
