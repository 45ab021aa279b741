"""Hot spots: cProfile of grading, and the cost of lower-casing the text it searches."""

from __future__ import annotations

import cProfile
import pstats
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from benchmarks._common import MB, QUESTION, REPO, clock, repeat, table
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from collections.abc import Callable

TOP = 12
_Key = tuple[str, int, str]  # pstats: (file, line, function)
_Row = tuple[
    int, int, float, float, object
]  # pstats: (primitive calls, calls, own, cumulative, callers)
_SOURCE = REPO / "src"


def _where(file: str, line: int, function: str) -> str:
    if file == "~":  # a built-in: pstats names it like "<method 'lower' of 'str' objects>"
        return function
    path = Path(file)
    if path.is_relative_to(_SOURCE):
        short = path.relative_to(_SOURCE).as_posix()
    elif "site-packages" in path.parts:  # a dependency: name it from its package
        short = "/".join(path.parts[path.parts.index("site-packages") + 1 :])
    else:
        short = path.name
    return f"{function} ({short}:{line})"


def run_profile(blobs: list[tuple[str, bytes]], passes: int, label: str) -> list[str]:
    """Grade ``blobs`` ``passes`` times under cProfile.

    Returns:
        Two tables: the top functions by own time, and tracegrade's functions by
        cumulative time (which stage holds the time).
    """
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(passes):
        for name, data in blobs:
            grade(parse_native_trace(data, name), QUESTION)
    profiler.disable()
    entries = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # untyped table
    total = sum(row[2] for row in entries.values())

    def rows(ranked: list[tuple[_Key, _Row]]) -> list[list[str]]:
        return [
            [
                f"`{_where(*key)}`",
                f"{calls:,}",
                f"{own * 1000:.1f}",
                f"{own / total:.0%}",
                f"{cumulative * 1000:.1f}",
                f"{cumulative / total:.0%}",
            ]
            for key, (_, calls, own, cumulative, _) in ranked
        ]

    by_own = sorted(entries.items(), key=lambda item: -item[1][2])[:TOP]
    ours = [item for item in entries.items() if item[0][0].startswith(str(_SOURCE))]
    by_cumulative = sorted(ours, key=lambda item: -item[1][3])[:TOP]
    header = ["function", "calls", "own ms", "own", "cumulative ms", "cumulative"]
    runs = "pass" if passes == 1 else "passes"
    return [
        (
            f"cProfile of grading {label} ({passes} {runs}; the profiler inflates Python-level"
            f" calls). Top {TOP} by own time:"
        ),
        "",
        *table(header, rows(by_own)),
        "",
        f"tracegrade's functions, top {TOP} by cumulative time:",
        "",
        *table(header, rows(by_cumulative)),
    ]


def lower_cost(blobs: list[tuple[str, bytes]]) -> list[str]:
    """``str.lower`` on the page texts of ``blobs``, with and without a non-ASCII character.

    One non-ASCII character makes CPython store the whole string with 2 bytes per
    character and takes ``lower`` off its ASCII fast path.
    """
    pages: list[str] = []
    for _, data in blobs:
        for frame in orjson.loads(data)["frames"]:
            result = frame.get("result") if frame.get("type") == "tool_result" else None
            if isinstance(result, dict) and isinstance(result.get("content"), str):
                pages.append(result["content"])
    if not pages:
        return []
    flat = [page.encode("ascii", "replace").decode("ascii") for page in pages]
    chars = sum(map(len, pages))
    wide = sum(not page.isascii() for page in pages)

    def best(function: Callable[[], object]) -> float:
        return min(clock(repeat(function, 20)) for _ in range(3)) / 20

    timings = [
        ("`str.lower`, texts as recorded", best(lambda: [p.lower() for p in pages])),
        ("`str.lower`, same texts made ASCII", best(lambda: [p.lower() for p in flat])),
        (
            "`str.encode().lower()` (bytes), as recorded",
            best(lambda: [p.encode().lower() for p in pages]),
        ),
    ]
    return [
        (
            f"Lower-casing the {len(pages)} read/fetched texts of those traces ({chars / MB:.2f} M"
            f" characters, {wide} of them holding a non-ASCII character):"
        ),
        "",
        *table(
            ["operation", "µs per pass", "M chars/s"],
            [
                [label, f"{seconds * 1e6:,.0f}", f"{chars / seconds / MB:,.0f}"]
                for label, seconds in timings
            ],
        ),
    ]
