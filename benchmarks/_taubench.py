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
- *only in the agent's own call arguments*: an earlier call of the agent wrote it (a date it
  chose), which is never a source;
- *held only under a non-money key*: a tool result holds the number, but only as an id, a
  count, a date or under keys that never say money (docs/figures.md, "Structured values");
- *invented*: none of these.

The same causes explain the money amounts of the agent's replies that no source showed: each
reply is graded as a final answer would be, against the frames before it.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import orjson

from benchmarks._common import REPO, Check, Section, table
from tracegrade.figures import FigureSources, amount_values, extract_figures
from tracegrade.guard import load_policy, replay
from tracegrade.traces import (
    AssistantFrame,
    Frame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    read_traces,
)
from tracegrade.verdicts import grade

POLICY_FILE = REPO / "examples" / "guard" / "airline.toml"
FILES = ("taubench_gpt-4o_airline.sample.json", "tau2_whissle-agent_airline.sample.json")
WRITE_TOOLS = re.compile(
    r"book_reservation|update_reservation_\w+|send_certificate|cancel_reservation"
    r"|transfer_to_human_agents"
)
# Money the run states in prose: $ amounts (structured amounts come from amount_values).
_MONEY = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")
_IN_IDENTIFIER = r"[A-Za-z_]\w*?{}|{}\w*?[A-Za-z_]"


def _folder() -> Path:
    root = Path(os.environ.get("TRACEGRADE_CORPUS", REPO.parent / "shared" / "corpus"))
    return root / "tau_bench"


def _number_keys(value: object, target: Decimal, key: str = "") -> list[str]:
    """The keys under which a JSON value holds the number ``target`` (``""``: no key)."""
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in _number_keys(v, target, str(k))]
    if isinstance(value, list):
        return [found for item in value for found in _number_keys(item, target, key)]
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        try:
            number = Decimal(str(value).replace(",", ""))
        except ArithmeticError:
            return []
        return [key] if abs(number) == target else []
    return []


def _parsed(result: object) -> object:
    if isinstance(result, str) and result.lstrip()[:1] in ("{", "["):
        try:
            return orjson.loads(result)
        except orjson.JSONDecodeError:
            return None
    return result


def _cause(frames: list[Frame], value: str, said: str = "") -> str:
    """Why an unsourced money figure had no source, from the frames before it.

    ``said``: the rest of the reply that wrote it, whose amounts it may be computed from.
    """
    if re.search(rf"(?<![\w.]){re.escape(value)}(?![\w])", " ".join(
        f.content for f in frames if isinstance(f, SystemFrame)
    )):  # fmt: skip
        return "policy text"
    texts = [
        str(getattr(frame, "result", getattr(frame, "content", "")))
        for frame in frames
        if not isinstance(frame, SystemFrame | ToolCallFrame)
    ]
    texts.append(said)
    money = {Decimal(a.replace(",", "")) for text in texts for a in _MONEY.findall(text)}
    for frame in frames:
        if isinstance(frame, ToolResultFrame):
            money.update(Decimal(amount) for amount in amount_values(frame.result))
    target = Decimal(value)
    computed = _computed(sorted(money), target)
    if computed is not None:
        return computed
    pattern = _IN_IDENTIFIER.format(re.escape(value), re.escape(value))
    if any(re.search(pattern, text) for text in texts):
        return "id mistaken for a figure"
    written = re.compile(rf"(?<![\w.]){re.escape(value)}(?![\w])")
    if any(
        written.search(orjson.dumps(f.args).decode())
        for f in frames
        if isinstance(f, ToolCallFrame)
    ):
        return "only in the agent's own call arguments"
    keys = sorted(
        {
            key or "(no key)"
            for frame in frames
            if isinstance(frame, ToolResultFrame)
            for key in _number_keys(_parsed(frame.result), target)
        }
    )
    if keys:
        return f"held only under a non-money key ({', '.join(keys)})"
    return "invented"


def _computed(money: list[Decimal], target: Decimal) -> str | None:
    """A sum or difference of up to three amounts, or a small multiple of one, that gives it."""
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
    return None


def _replies(traces: list[tuple[str, list[Frame]]]) -> tuple[int, int, Counter[str], list[str]]:
    """Money in the agent's replies: how many amounts, how many unsourced, by cause."""
    amounts = 0
    causes: Counter[str] = Counter()
    structured: list[str] = []
    for run, frames in traces:
        sources = FigureSources()
        for index, frame in enumerate(frames):
            if isinstance(frame, AssistantFrame):
                for figure in extract_figures(frame.content):
                    if figure.kind != "money":
                        continue
                    amounts += 1
                    if sources.index.evidence_for(figure) is not None:
                        continue
                    rest = frame.content[: figure.start] + frame.content[figure.end :]
                    cause = _cause(frames[:index], figure.value, rest)
                    causes[cause.split(" (")[0]] += 1
                    keys = sorted(
                        {
                            key or "(no key)"
                            for earlier in frames[:index]
                            if isinstance(earlier, ToolResultFrame)
                            for key in _number_keys(_parsed(earlier.result), Decimal(figure.value))
                        }
                    )
                    if keys or cause == "invented":  # a JSON value holds it, under these keys
                        where = f"held under {', '.join(keys)}" if keys else "in no JSON value"
                        structured.append(f"{run} frame {index}: {figure.raw}, {cause}, {where}")
            sources.add(frame)
    return amounts, sum(causes.values()), causes, structured


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
    runs_frames: list[tuple[str, list[Frame]]] = []
    answers = unsourced_answers = 0
    for name in FILES:
        for trace in read_traces(folder / name):
            runs += 1
            run_name = f"`{name.split('_')[0]}` {trace.id}"
            runs_frames.append((run_name, list(trace.frames)))
            money = [f for f in grade(trace, strict=False).figures if f.kind == "money"]
            answers += len(money)
            unsourced_answers += sum(f.support == "unsupported" for f in money)
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
                        (run_name, call.frame, call.decision.tool,
                         f"{item.figure.raw} at `{item.location}`", cause)
                    )  # fmt: skip
    blocked = len({(row[0], row[1]) for row in rows})
    body = [
        (__doc__ or "").strip().split("\n\n", 1)[1],
        "",
        (
            f"Policy: `{POLICY_FILE.relative_to(REPO)}`. {runs} runs; write calls by tool:"
            f" {', '.join(f'{tool} {count}' for tool, count in sorted(writes.items()))}."
            f" The policy scans `book_reservation` payments, `send_certificate` amounts and"
            f" `transfer_to_human_agents` summaries, so {guarded} calls were checked;"
            f" **{blocked} would have been blocked**."
        ),
        "",
        *table(("run", "frame", "tool", "unsourced figure", "cause"), rows),
        "",
        "Causes: " + ", ".join(f"{cause} {count}" for cause, count in sorted(causes.items())) + ".",
        "",
        *_reply_lines(runs_frames, answers, unsourced_answers),
    ]
    return Section(
        title,
        tuple(body),
        (
            Check("guard replay: airline write calls blocked", f"{blocked} of {guarded}"),
            Check("tau: unsourced money in final answers", f"{unsourced_answers} of {answers}"),
        ),
    )


def _reply_lines(
    runs_frames: list[tuple[str, list[Frame]]], answers: int, unsourced_answers: int
) -> list[str]:
    amounts, unsourced, causes, structured = _replies(runs_frames)
    lines = [
        (
            f"Money in the agent's replies, each graded against the frames before it: {amounts}"
            f" amounts, **{unsourced} unsourced**; in the final answers (`grade`): {answers}"
            f" amounts, **{unsourced_answers} unsourced**. Causes of the unsourced replies: "
            + ", ".join(f"{cause} {count}" for cause, count in sorted(causes.items()))
            + "."
        ),
    ]
    lines += [
        "",
        (
            "Unsourced reply amounts that some earlier tool result holds as a JSON value (under"
            f" any key), or that no cause explains: {len(structured)}."
        ),
    ]
    if structured:
        lines += ["", *(f"- {item}" for item in structured)]
    return lines
