"""Shared pieces: paths, the benchmark question, timing helpers and number formatting."""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade.claims import Question

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "benchmarks" / ".data"
MB = 1_000_000


def corpus_traces() -> Path:
    """The real nine-commits traces: ``$TRACEGRADE_CORPUS/nine-commits/traces``."""
    root = Path(os.environ.get("TRACEGRADE_CORPUS", REPO.parent / "shared" / "corpus"))
    return root / "nine-commits" / "traces"


# The model-name question: its facts and tell occur in every trace family, real or generated.
QUESTION = Question.model_validate(
    {
        "id": "model-name",
        "facts": [
            {"id": "file", "text": "agent/src/config.ts"},
            {"id": "value", "text": "gpt-5-mini"},
        ],
        "truth_file": "agent/src/config.ts",
        "tell": "gpt-5-mini",
    }
)


@dataclass(frozen=True, slots=True)
class Spread:
    """Repeated measurements of one quantity (seconds or a ratio)."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def best(self) -> float:
        return min(self.values)

    @property
    def worst(self) -> float:
        return max(self.values)


def clock(function: Callable[[], object], timer: Callable[[], float] = time.perf_counter) -> float:
    """Seconds one call takes (wall time, or what ``timer`` counts: ``time.process_time``)."""
    start = timer()
    function()
    return timer() - start


def paired(
    first: Callable[[], object],
    second: Callable[[], object],
    repeats: int,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[Spread, Spread, Spread]:
    """Time two workloads alternately; return both spreads and the spread of second/first.

    Alternating inside each repeat keeps the pair under the same machine load, so the
    ratio is steadier than either time on a shared machine.
    """
    firsts: list[float] = []
    seconds: list[float] = []
    for _ in range(repeats):
        a = clock(first, timer)
        b = clock(second, timer)
        firsts.append(a)
        seconds.append(b)
    ratios = tuple(b / a for a, b in zip(firsts, seconds, strict=True))
    return Spread(tuple(firsts)), Spread(tuple(seconds)), Spread(ratios)


def rate(size: int, seconds: float) -> str:
    """Throughput in MB/s (decimal megabytes)."""
    return f"{size / seconds / MB:,.1f}"


def size_text(size: float) -> str:
    """A byte count in KB/MB, one decimal."""
    if size >= MB:
        return f"{size / MB:,.1f} MB"
    return f"{size / 1000:,.1f} KB"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """A Markdown table; the first column is left-aligned, the others right-aligned."""
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join([":---", *["---:"] * (len(header) - 1)]) + "|",
    ]
    lines.extend("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)
    return lines


@dataclass(frozen=True, slots=True)
class Check:
    """One headline number of the report, with its target when it has one."""

    metric: str
    value: str
    target: str = ""
    met: bool | None = None

    @property
    def status(self) -> str:
        if self.met is None:
            return ""
        return "met" if self.met else "**missed**"


@dataclass(frozen=True, slots=True)
class Section:
    """One part of the report: a Markdown body and its headline numbers."""

    title: str
    body: tuple[str, ...]
    checks: tuple[Check, ...] = ()


def print_section(section: Section) -> None:
    """Print one section as its module run alone prints it: the body, then its checks."""
    print(f"## {section.title}\n")
    print("\n".join(section.body))
    for check in section.checks:
        print(f"\n- {check.metric}: {check.value} (target {check.target}, {check.status})", end="")
    print()


def repeat(function: Callable[[], object], times: int) -> Callable[[], None]:
    """A function that calls ``function`` ``times`` times."""

    def run() -> None:
        for _ in range(times):
            function()

    return run
