"""The long fuzz run: ``python -m tests.fuzz --seconds 600`` (see docs/fuzzing.md).

Each input runs in this process under a per-input time limit (SIGALRM) and an address
space limit, so a hang or a runaway allocation is reported as such instead of stopping
the run. Prints a summary: inputs, outcomes, crash classes with a reproducing seed, the
slowest input and the peak memory.
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from tests.fuzz._mutate import mutant, seeds
from tests.fuzz._target import Result, run_input

if TYPE_CHECKING:
    from types import FrameType


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so the readers' `except Exception` pass it on."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 - one flat loop
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--inputs", type=int, default=0, help="stop after this many (0: no cap)")
    parser.add_argument("--seed", type=int, default=0, help="first input seed")
    parser.add_argument("--timeout", type=int, default=10, help="seconds one input may take")
    parser.add_argument("--memory-mb", type=int, default=4096, help="address space limit")
    parser.add_argument("--save", type=Path, help="write each crashing input into this folder")
    args = parser.parse_args(argv)

    limit = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    corpus = seeds()
    outcomes: Counter[str] = Counter()
    crashes: dict[str, tuple[int, str]] = {}
    slowest = (0.0, -1, "")
    started = time.monotonic()
    number = args.seed
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() - started < args.seconds and (
            not args.inputs or number - args.seed < args.inputs
        ):
            rng = random.Random(number)  # noqa: S311 - reproducible, not secret
            seed = rng.choice(corpus)
            data = mutant(seed, rng)
            path = Path(folder) / seed.name
            path.write_bytes(data)
            began = time.monotonic()
            signal.alarm(args.timeout)
            try:
                result = run_input(path)
            except _Timeout:
                result = Result("crash", f"timeout: more than {args.timeout} s")
            except MemoryError:
                result = Result("crash", f"MemoryError: over {args.memory_mb} MB")
            finally:
                signal.alarm(0)
            took = time.monotonic() - began
            if took > slowest[0]:
                slowest = (took, number, seed.name)
            outcomes[result.outcome] += 1
            if result.outcome == "crash":
                kind = result.detail.split(": ")[0]
                crashes.setdefault(kind, (number, result.detail))
                if args.save is not None:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"{number}-{seed.name}").write_bytes(data)
            number += 1
    total = number - args.seed
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"inputs {total} in {time.monotonic() - started:.0f} s from {len(corpus)} seed files")
    print("outcomes " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print(f"slowest input {slowest[0]:.2f} s (seed {slowest[1]}, mutant of {slowest[2]})")
    print(f"peak memory {peak:.0f} MB (max RSS of this process)")
    print(f"crash classes {len(crashes)}")
    for _kind, (example, detail) in sorted(crashes.items()):
        print(f"  seed {example}: {detail}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
