"""A run on the process pool whose units each take 50 ms: test_orphans kills it with ``kill -9``.

``python -m tests.evals.slow_pool FILE`` appends each stored unit to FILE as the driver
stores it, as the eval store would.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.evals import ProcessExecutor

if TYPE_CHECKING:
    from collections.abc import Callable

UNITS = 2000
SECONDS_PER_UNIT = 0.05


def slow(unit: int, emit: Callable[[int], None]) -> None:
    time.sleep(SECONDS_PER_UNIT)
    emit(unit)


def main(stored: Path) -> None:
    with stored.open("a", buffering=1) as out:
        ProcessExecutor(2).execute(
            list(range(UNITS)),
            slow,
            lambda unit, result: out.write(f"{unit}\n"),
            lambda unit: None,
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
