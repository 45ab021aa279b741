"""Compare the engines on any range of generated inputs: ``python -m tests.engines``.

    python -m tests.engines --count 100000             # a longer run than the slow test's
    python -m tests.engines --start 880 --count 1 --save /tmp/differ

Prints how many inputs of each family were compared, how many differ and crashed, the first
differences (a diff of the outcomes' JSON, reference first) and the time taken. ``--save``
writes each differing or crashing input there, as the file it was read from, with its
question beside it (``NAME.question.json``). Exits 1 when any input differs or crashed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tests.engines._generate import generated_input, generated_inputs
from tests.engines._harness import compare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.engines")
    parser.add_argument("--start", type=int, default=0, help="first input number")
    parser.add_argument("--count", type=int, default=10_000, help="how many inputs")
    parser.add_argument("--save", type=Path, help="write differing inputs to this folder")
    args = parser.parse_args(argv)
    began, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="tracegrade-engines-") as folder:
        comparison = compare(generated_inputs(args.count, args.start), Path(folder))
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    families = ", ".join(f"{name} {n}" for name, n in sorted(comparison.families.items()))
    print(f"inputs {comparison.inputs} in {seconds:.0f} s, CPU {cpu:.0f} s ({families})")
    print(f"differ {len(comparison.differences)}, crashed {len(comparison.crashes)}")
    if comparison.differences or comparison.crashes:
        print(comparison.report())
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
        numbers = {d.number for d in comparison.differences}
        numbers |= {int(crash.split()[1]) for crash in comparison.crashes}
        for number in sorted(numbers):
            item = generated_input(number)
            (args.save / f"{number:05d}-{item.name}").write_bytes(item.data)
            question = item.question.model_dump_json(indent=2)
            (args.save / f"{number:05d}-{item.name}.question.json").write_text(question)
    return 1 if comparison.differences or comparison.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
