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

        def record(unit: int, result: int) -> None:
            out.write(f"{result}\n")

        ProcessExecutor(2).execute(list(range(UNITS)), slow, record, lambda unit: None)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
