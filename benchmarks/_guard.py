"""The runtime guard: does a check cost more as the conversation grows?

Histories of 100, 1,000 and 10,000 messages (half of them tool results of about 10 KB,
so 1,000 messages carry 5 MB), generated with many distinct figures. One
``create_spreadsheet`` call with 20 cells (half sourced) is checked against each, with
the incrementally built :class:`GuardHistory`; and against the same frames with the
haystack rebuilt on every call (the naive way), in the same run.
"""

from __future__ import annotations

import random
import statistics
import time
from functools import partial
from typing import TYPE_CHECKING

from benchmarks._common import Check, Section, size_text, table
from tracegrade.guard import GuardHistory, check_tool_call, parse_policy
from tracegrade.traces import AssistantFrame, ToolCallFrame, ToolResultFrame, UserFrame

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.traces import Frame

POLICY = parse_policy({"tools": {"create_spreadsheet": {"scan": ["sheets[*].rows[*][*]"]}}})
SIZES = (100, 1_000, 10_000)
HEADER = (
    "messages",
    "tool results",
    "figures indexed",
    "index ms",
    "index MB/s",
    "check µs (median of 300)",
    "naive check ms",
    "naive / incremental",
    "unsourced",
)
HEADER = (
    "messages",
    "tool results",
    "figures indexed",
    "index ms",
    "index MB/s",
    "check µs (median of 300)",
    "naive check ms",
    "naive / incremental",
    "unsourced",
)
RESULT_CHARS = 10_000


def _result_text(rng: random.Random, number: int) -> str:
    parts: list[str] = []
    size = 0
    while size < RESULT_CHARS:
        line = (
            f"Invoice {number}-{rng.randrange(10**6):06d}: amount ${rng.randrange(10**7):,}."
            f"{rng.randrange(100):02d}, fee {rng.randrange(1000) / 10:.1f}%, due in"
            f" {rng.randrange(1, 120)} days under Section"
            f" {rng.randrange(1, 30)}.{rng.randrange(1, 40)};"
            " the counterparty confirmed the schedule and the remaining terms are unchanged.\n"
        )
        parts.append(line)
        size += len(line)
    return "".join(parts)


def _amount(text: str) -> str:
    """The first amount of a result text, as written (e.g. ``$1,234,567.89``)."""
    return text.split("amount ", 1)[1].split(", fee", 1)[0]


def history_frames(messages: int, seed: int = 7) -> tuple[list[Frame], list[str]]:
    """``messages`` frames (user, then call/result pairs, some assistant turns), and the
    money figures that appear in them (for sourced cells)."""
    rng = random.Random(seed)
    frames: list[Frame] = [UserFrame(content="Build the quarterly sheet from the invoices.")]
    sourced: list[str] = []
    call = 0
    while len(frames) < messages:
        if call % 10 == 9:
            frames.append(AssistantFrame(content="Still collecting invoices."))
        frames.append(ToolCallFrame(id=f"c{call}", name="search_invoices", args={"page": call}))
        text = _result_text(rng, call)
        frames.append(ToolResultFrame(id=f"c{call}", ok=True, result=text))
        sourced.append(_amount(text))
        call += 1
    return frames[:messages], sourced


def _call(sourced: list[str]) -> ToolCallFrame:
    rng = random.Random(3)
    cells: list[str] = [rng.choice(sourced) for _ in range(10)]
    cells += [f"${rng.randrange(10**7, 10**8):,}" for _ in range(10)]  # never in any source
    rows = [[f"Item {index}", cell] for index, cell in enumerate(cells)]
    return ToolCallFrame(
        id="w1",
        name="create_spreadsheet",
        args={"sheets": [{"header": ["Item", "Amount"], "rows": rows}]},
    )


def _median_seconds(function: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def run_guard() -> Section:
    """Time incremental checks at three history lengths and the naive rebuild at each."""
    rows = []
    checks: dict[int, float] = {}
    naive: dict[int, float] = {}
    for size in SIZES:
        frames, sourced = history_frames(size)
        chars = sum(len(f.result) for f in frames if isinstance(f, ToolResultFrame))
        start = time.perf_counter()
        history = GuardHistory(POLICY).extend(frames)
        built = time.perf_counter() - start
        call = _call(sourced)
        decision = check_tool_call(call, history)
        checks[size] = _median_seconds(partial(check_tool_call, call, history), 300)
        naive[size] = _median_seconds(
            partial(check_tool_call, call, frames, POLICY), 3 if size > 1000 else 10
        )
        rows.append(
            (
                f"{size:,}",
                size_text(chars),
                f"{len(history.index):,}",
                f"{built * 1000:,.0f}",
                f"{chars / built / 1e6:,.1f}",
                f"{checks[size] * 1e6:,.1f}",
                f"{naive[size] * 1000:,.1f}",
                f"{naive[size] / checks[size]:,.0f}x",
                f"{len(decision.unsourced)} of {decision.checked}",
            )
        )
    growth = checks[SIZES[-1]] / checks[SIZES[0]]
    speedup = naive[SIZES[-1]] / checks[SIZES[-1]]
    body = [
        __doc__.strip().split("\n\n", 1)[1].replace("\n", " ") if __doc__ else "",
        "",
        *table(HEADER, rows),
        "",
        (
            f"Check cost growth from {SIZES[0]:,} to {SIZES[-1]:,} messages: **{growth:.2f}x**"
            f" (target <= 2x). Incremental vs naive rebuild at {SIZES[-1]:,} messages:"
            f" **{speedup:,.0f}x** (target >= 50x)."
        ),
    ]
    return Section(
        "6. Runtime guard: check cost vs history length",
        tuple(body),
        (
            Check(
                f"guard: check growth {SIZES[0]:,} -> {SIZES[-1]:,} messages",
                f"{growth:.2f}x",
                "<= 2x",
                met=growth <= 2,
            ),
            Check(
                f"guard: incremental vs naive at {SIZES[-1]:,}",
                f"{speedup:,.0f}x",
                ">= 50x",
                met=speedup >= 50,
            ),
        ),
    )
