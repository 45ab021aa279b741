"""A local Ray instance for a test module (2 CPUs), without Ray's token file."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator


def local_ray() -> Iterator[None]:
    """Start Ray with 2 CPUs for the fixture's scope; skip, with the reason, when it cannot."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (the ray extra)")

    before = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"  # else Ray 2.60 writes ~/.ray/auth_token
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # noqa: BLE001 - any failure to start means "skip", with why
        pytest.skip(f"a local Ray instance cannot start: {type(exc).__name__}: {exc}")
    try:
        yield
    finally:
        ray.shutdown()
        if before is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = before
