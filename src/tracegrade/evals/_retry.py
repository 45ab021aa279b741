"""Infrastructure failures: telling them from quality failures, and retrying them.

Timeouts, dropped connections, rate limits (429) and server errors (5xx) say nothing
about the touchpoint's quality: they are retried with exponential backoff, and a case that
still fails is an ``infra`` outcome, never a quality failure.
"""

from __future__ import annotations

import subprocess
import time
from typing import TYPE_CHECKING, TypeVar

from tracegrade.errors import InfrastructureError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["infra_status", "is_infra", "retry_infra"]

_T = TypeVar("_T")
_STATUS_ATTRIBUTES = ("status_code", "status", "http_status")


def infra_status(exc: BaseException) -> int | None:
    """The HTTP status an exception carries, if any.

    Read from ``status_code``, ``status`` or ``http_status`` on the exception or on its
    ``response`` (as httpx, requests, openai and anthropic errors carry it).
    """
    for holder in (exc, getattr(exc, "response", None)):
        if holder is None:
            continue
        for name in _STATUS_ATTRIBUTES:
            value = getattr(holder, name, None)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return None


def is_infra(exc: BaseException) -> bool:
    """Whether an exception is an infrastructure failure rather than a quality one.

    Infrastructure: :class:`TimeoutError`, :class:`ConnectionError` (refused, reset,
    aborted), a command that timed out, tracegrade's
    :class:`~tracegrade.errors.InfrastructureError`, and any error carrying HTTP status
    429 or 5xx. Everything else (a wrong answer, a 400, a bug) is not.
    """
    if isinstance(
        exc, TimeoutError | ConnectionError | subprocess.TimeoutExpired | InfrastructureError
    ):
        return True
    status = infra_status(exc)
    return status is not None and (status == 429 or 500 <= status <= 599)


def retry_infra(
    call: Callable[[], _T],
    *,
    attempts: int = 3,
    backoff: float = 1.0,
    factor: float = 2.0,
    sleep: Callable[[float], object] = time.sleep,
    what: str = "the call",
) -> _T:
    """Call ``call``; on an infrastructure failure wait and try again, up to ``attempts`` times.

    The waits are ``backoff``, ``backoff * factor``, ``backoff * factor**2``, ... seconds
    (none after the last attempt). Other exceptions propagate at once, unretried.

    Args:
        call: What to run.
        attempts: How many tries in all (at least 1).
        backoff: The first wait, in seconds.
        factor: How much each wait grows.
        sleep: Waits the given seconds; inject a fake in tests.
        what: Names the call in the error.

    Returns:
        What ``call`` returned.

    Raises:
        InfrastructureError: Every attempt failed with an infrastructure failure; chained
            from the last one. The runner records the case as ``infra``.
        ValueError: ``attempts`` is below 1 or a wait is negative.
    """
    if attempts < 1 or backoff < 0 or factor < 0:
        msg = f"retry_infra needs attempts >= 1 and non-negative waits, got {attempts=}"
        raise ValueError(msg)
    delay = backoff
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except Exception as exc:
            if not is_infra(exc):
                raise
            if attempt == attempts:
                raise InfrastructureError(
                    f"{what} failed {attempts} times with infrastructure errors, last:"
                    f" {type(exc).__name__}: {exc}",
                    fix="check the provider or server, then run again; this is not counted"
                    " as a quality failure",
                ) from exc
        sleep(delay)
        delay *= factor
    msg = "unreachable"  # pragma: no cover - the loop returns or raises
    raise AssertionError(msg)  # pragma: no cover
