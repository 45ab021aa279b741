"""The guard replayed over real airline runs (tau-bench, tau2): what would it have blocked, and why?

Every write call the policy in ``examples/guard/airline.toml`` guards is checked against the
frames before it, as ``tracegrade guard replay`` does. Each blocked figure gets a cause,
found mechanically from the run:

- *policy text*: the system prompt (the airline policy) states it, and the policy does not
  count the system prompt as a source;
- *computed*: it equals a sum or difference of up to three amounts the run showed (prices,
  balances, $ amounts, including the agent's own prose), or a small multiple of one, and
  no calculator returned it;
- *id mistaken for a figure*: its digits only occur inside an identifier;
- *invented*: none of these.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

from benchmarks._common import REPO, Check, Section, table
from tracegrade.guard import load_policy, replay
from tracegrade.traces import SystemFrame, ToolCallFrame, read_traces

POLICY_FILE = REPO / "examples" / "guard" / "airline.toml"
FILES = ("taubench_gpt-4o_airline.sample.json", "tau2_whissle-agent_airline.sample.json")
WRITE_TOOLS = re.compile(
    r"book_reservation|update_reservation_\w+|send_certificate|cancel_reservation"
)
# Money the sources state: JSON price/amount/balance fields and $ amounts in text.
_MONEY = re.compile(
    r'"(?:price|amount|balance|total|cost|fee)\w*"\s*:\s*(\d+(?:\.\d+)?)|\$\s?(\d[\d,]*(?:\.\d+)?)'
)
_IN_IDENTIFIER = r"[A-Za-z_]\w*?{}|{}\w*?[A-Za-z_]"


def _folder() -> Path:
    root = Path(os.environ.get("TRACEGRADE_CORPUS", REPO.parent / "shared" / "corpus"))
    return root / "tau_bench"


def _cause(frames: list[object], value: str) -> str:
    """Why a blocked figure had no source, from the frames before the call."""
    if re.search(rf"(?<![\w.]){re.escape(value)}(?![\w])", " ".join(
        f.content for f in frames if isinstance(f, SystemFrame)
    )):  # fmt: skip
        return "policy text"
    texts = [
        str(getattr(frame, "result", getattr(frame, "content", "")))
        for frame in frames
        if not isinstance(frame, SystemFrame | ToolCallFrame)
    ]
    money = sorted(
        {Decimal((a or b).replace(",", "")) for text in texts for a, b in _MONEY.findall(text)}
    )
    target = Decimal(value)
    for a, b in itertools.combinations_with_replacement(money, 2):
        if target in (a + b, abs(a - b)):
            return f"computed ({a} + {b})" if a + b == target else f"computed ({b} - {a})"
    for a, b, c in itertools.combinations(money, 3):
        for total, text in (
            (a + b - c, f"{a} + {b} - {c}"),
            (a + c - b, f"{a} + {c} - {b}"),
            (b + c - a, f"{b} + {c} - {a}"),
            (a + b + c, f"{a} + {b} + {c}"),
        ):
            if target == total:
                return f"computed ({text})"
    for a in money:
        for k in range(2, 10):
            if target == a * k:
                return f"computed ({a} x {k})"
    pattern = _IN_IDENTIFIER.format(re.escape(value), re.escape(value))
    if any(re.search(pattern, text) for text in texts):
        return "id mistaken for a figure"
    return "invented"


def run_taubench() -> Section:
    """Replay the airline policy over both tau files and explain every block."""
    folder = _folder()
    title = "7. Guard replay on real airline runs (tau-bench, tau2)"
    if not folder.is_dir():
        return Section(title, (f"Skipped: no tau_bench corpus at `{folder}`.",))
    policy = load_policy(POLICY_FILE)
    writes: Counter[str] = Counter()
    guarded = 0
    runs = 0
    rows = []
    causes: Counter[str] = Counter()
    for name in FILES:
        for trace in read_traces(folder / name):
            runs += 1
            writes.update(
                frame.name
                for frame in trace.frames
                if isinstance(frame, ToolCallFrame) and WRITE_TOOLS.fullmatch(frame.name)
            )
            for call in replay(trace, policy):
                guarded += 1
                for item in call.decision.unsourced:
                    cause = _cause(list(trace.frames[: call.frame]), item.figure.value)
                    causes[cause.split(" (")[0]] += 1
                    rows.append(
                        (f"`{name.split('_')[0]}` {trace.id}", call.frame, call.decision.tool,
                         f"{item.figure.raw} at `{item.location}`", cause)
                    )  # fmt: skip
    blocked = len({(row[0], row[1]) for row in rows})
    body = [
        (__doc__ or "").strip().split("\n\n", 1)[1],
        "",
        (
            f"Policy: `{POLICY_FILE.relative_to(REPO)}`. {runs} runs; write calls by tool:"
            f" {', '.join(f'{tool} {count}' for tool, count in sorted(writes.items()))}."
            f" The policy scans money only (`book_reservation` payments, `send_certificate`"
            f" amounts), so {guarded} calls were checked; **{blocked} would have been blocked**."
        ),
        "",
        *table(("run", "frame", "tool", "unsourced figure", "cause"), rows),
        "",
        "Causes: " + ", ".join(f"{cause} {count}" for cause, count in sorted(causes.items())) + ".",
    ]
    return Section(
        title,
        tuple(body),
        (Check("guard replay: airline write calls blocked", f"{blocked} of {guarded}"),),
    )
