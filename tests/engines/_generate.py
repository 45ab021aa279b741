"""Generated inputs for the engine comparison: input ``n`` is a pure function of ``n``.

Five families, by weight:

- ``native`` (64%): a native trace of one to seven tool calls drawn from every built-in
  result shape (search, listing, read, web search, fetched page, command, write), failed
  calls, text results (read as text or as a file view when graded leniently), artifacts,
  approvals, compactions; tool results and answers made of figures, paths, URLs,
  identifiers, dates, names, quotes, counted quantities, Unicode whose lower case is
  special, lone surrogates and secrets (tests/engines/_vocabulary.py); about one in eight
  has one wrong part (a wrong type, an unknown frame or result shape, an orphan result,
  a token count that does not match);
- ``deep`` (6%): a native trace with one value nested 150 to 1,000 levels deep, around
  MAX_DEPTH (200) on both sides, in a result, the arguments or an artifact;
- ``damaged`` (12%): a native trace cut short or mutated by tests/fuzz/_mutate.py;
- ``fixture`` (12%): a reader fixture of another format, as it is or mutated;
- ``realistic`` (6%): a trace of benchmarks/_generate.py, shaped like the nine-commits corpus.

Each input carries a question (facts, truth file and tell drawn from what the trace holds),
so it is graded with no question and against one.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from benchmarks import _generate as realistic
from tests.engines import _vocabulary as vocabulary
from tests.fuzz._mutate import expand_markers, mutate, seeds
from tests.helpers import builders
from tracegrade.claims import Fact, Question

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["FAMILIES", "GeneratedInput", "generated_input", "generated_inputs"]

SEED = 15  # issue #15: the compiled grading core
FAMILIES = ("native", "deep", "damaged", "fixture", "realistic")
_WEIGHTS = (64, 6, 12, 12, 6)
# The built-in result shapes, a failed call, a text result, a shell call that views a file.
_SHAPES = ("search", "listing", "read", "web", "page", "command", "write", "failed", "text", "view")
_DEPTHS = (150, 196, 197, 198, 199, 200, 201, 202, 203, 255, 1000)
# A lone surrogate cannot be written by orjson; its JSON escape replaces this marker.
_SURROGATE = "~lone-surrogate~"
JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GeneratedInput:
    """One input: the file it is read as, and the question it is also graded against."""

    number: int
    family: str
    name: str
    data: bytes
    question: Question


def generated_input(number: int) -> GeneratedInput:
    """The ``number``-th input (the same bytes on every run)."""
    rng = random.Random(f"{SEED}-{number}")  # noqa: S311 - reproducible inputs, not secrets
    family = rng.choices(FAMILIES, weights=_WEIGHTS)[0]
    if family == "fixture":
        seed = rng.choice(_fixtures())
        data = seed.read_bytes()
        data = data if rng.random() < 0.2 else mutate(data, seed.suffix, rng)
        return GeneratedInput(number, family, seed.name, data, _question(rng, []))
    if family == "realistic":
        _, data = realistic.generate_trace(number, _realistic_pools(), seed=SEED)
        facts = (Fact(id="file", text=realistic.TRUTH_FILE), Fact(id="value", text=realistic.TELL))
        question = Question(
            id="model", facts=facts, truth_file=realistic.TRUTH_FILE, tell=realistic.TELL
        )
        return GeneratedInput(number, family, f"realistic-{number}.json", data, question)
    run = _Run(rng)
    document = run.document(deep=family == "deep", broken=rng.random() < 0.12)
    option = orjson.OPT_INDENT_2 if rng.random() < 0.3 else 0
    data = expand_markers(orjson.dumps(document, option=option))
    data = data.replace(_SURROGATE.encode(), b"\\udce9")
    if family == "damaged":
        data = (
            data[: rng.randrange(len(data))] if rng.random() < 0.3 else mutate(data, ".json", rng)
        )
    return GeneratedInput(number, family, f"{family}-{number}.json", data, run.question())


def generated_inputs(count: int, start: int = 0) -> Iterator[GeneratedInput]:
    """Inputs ``start`` to ``start + count - 1``."""
    for number in range(start, start + count):
        yield generated_input(number)


@functools.cache
def _fixtures() -> list[Any]:
    return [path for path in seeds() if path.parent.name != "traces"]


@functools.cache
def _realistic_pools() -> Any:
    return realistic._pools(SEED)


def _question(
    rng: random.Random, shown: list[str], lines: list[tuple[str, str]] | None = None
) -> Question:
    pool = [text for text in shown if text.strip()] or list(vocabulary.FILES)
    truth_file = rng.choice(vocabulary.FILES) if rng.random() < 0.6 else None
    tell = rng.choice(pool) if rng.random() < 0.6 else None
    if lines and rng.random() < 0.5:  # a line a tool showed: grounded, or seen in a copy
        truth_file, text = rng.choice(lines)
        tell = rng.choice(text.split() or [tell or "4321"])
    facts = tuple(
        Fact(id=f"fact{index}", text=rng.choice(pool) if rng.random() < 0.7 else _claim(rng))
        for index in range(rng.randint(0, 3))
    )
    return Question(
        id="generated",
        prompt="What does the run show?",
        facts=tuple({fact.text: fact for fact in facts}.values()),  # distinct texts
        truth_file=truth_file,
        tell=tell,
    )


def _claim(rng: random.Random) -> str:
    return rng.choice(rng.choice(vocabulary.CLAIMS))


class _Run:
    """One native trace under construction, remembering what its tools showed and named."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.frames: list[JSON] = []
        self.shown: list[str] = []  # pieces a tool returned as content
        self.named: list[str] = []  # pieces a tool returned as a name only
        self.given: list[str] = []  # pieces the user said
        self.sourced: list[tuple[str, str]] = []  # (file, text) of each line a tool showed
        self.calls = 0

    def piece(self) -> str:
        """A word, a claim, a special character or a secret, often case-flipped."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            text = rng.choice(vocabulary.WORDS)
        elif roll < 0.75:
            text = _claim(rng)
        elif roll < 0.9:
            text = rng.choice(
                (*vocabulary.UNICODE, _SURROGATE) if rng.random() < 0.1 else vocabulary.UNICODE
            )
        else:
            text = rng.choice(vocabulary.SECRETS)
        flip = rng.random()
        return text.upper() if flip < 0.08 else text.swapcase() if flip < 0.12 else text

    def text(self, most: int = 6, *, shown: bool = True) -> str:
        pieces = [self.piece() for _ in range(self.rng.randint(0, most))]
        if shown:
            self.shown.extend(pieces)
        return " ".join(pieces)

    def lines(self, most: int = 6) -> str:
        rng = self.rng
        rows = [
            rng.choice(vocabulary.CODE) if rng.random() < 0.3 else self.text()
            for _ in range(rng.randint(0, most))
        ]
        self.shown.extend(rows)
        return rng.choice(("\n", "\r\n", "\n\n")).join(rows) + ("\n" if rng.random() < 0.5 else "")

    def file(self) -> str:
        return self.rng.choice(vocabulary.FILES)

    def call(self, tool: str, args: Any, ok: bool, body: Any, **extra: Any) -> None:
        self.calls += 1
        call_id = f"call_{self.calls}" if self.rng.random() < 0.9 else f"c\u00e9-{self.calls}"
        self.frames.append(builders.call(call_id, tool, args))
        if self.rng.random() < 0.1:
            self.frames.append(builders.approval(tool, self.rng.choice(("allow", "deny"))))
        self.frames.append({**builders.result(call_id, ok, body), **extra})

    def tool(self) -> None:
        rng = self.rng
        shape = rng.choice(_SHAPES)
        args: Any = {"query": self.text(3, shown=False)}
        if rng.random() < 0.15:
            args[rng.choice(vocabulary.SECRET_KEYS)] = rng.choice(vocabulary.SECRETS)
        extra: JSON = {}
        if rng.random() < 0.1:
            extra["artifact"] = {"ids": [self.piece() for _ in range(3)], "served": [0, 40]}
        if shape == "search":
            matches = [
                {
                    "file": self.file(),
                    "line": rng.choice((1, 7, 42, 1.0, 10**6)),
                    "text": self.text(),
                }
                for _ in range(rng.randint(0, 6))
            ]
            self.named.extend(str(m["file"]) for m in matches)
            self.sourced.extend((str(m["file"]), str(m["text"])) for m in matches)
            self.call("search_files", args, True, builders.search_body(matches), **extra)
        elif shape == "listing":
            files = [self.file() for _ in range(rng.randint(0, 8))]
            self.named.extend(files)
            self.call("list_files", args, True, builders.listing_body(files), **extra)
        elif shape == "read":
            path = self.file()
            content = self.lines()
            self.sourced.extend((path, row) for row in content.splitlines())
            self.call("read_file", {"path": path}, True, builders.read_body(path, content), **extra)
        elif shape == "web":
            results = [
                {"title": self.text(3), "url": rng.choice(vocabulary.URLS), "snippet": self.text()}
                for _ in range(rng.randint(0, 5))
            ]
            self.named.extend(str(r["url"]) for r in results)
            self.call("web_search", args, True, {"ok": True, "results": results}, **extra)
        elif shape == "page":
            content = self.lines(12)
            body = {
                "ok": True,
                "url": rng.choice(vocabulary.URLS),
                "title": self.text(3),
                "chars": len(content),
                "content": content,
            }
            self.call("fetch_page", args, True, body, **extra)
        elif shape == "command":
            command = "grep -rn " + self.text(2, shown=False)
            stderr = self.text(2) if rng.random() < 0.3 else ""
            self.call(
                "run_command",
                {"command": command},
                True,
                builders.command_body(command, self.lines(), stderr),
                **extra,
            )
        elif shape == "write":
            body = {
                "ok": True,
                "file": self.file(),
                "bytes": rng.randint(0, 999),
                "created": rng.random() < 0.5,
            }
            self.call(rng.choice(("write_file", "edit_file")), {"content": self.text()}, True, body)
        elif shape == "failed":
            self.call(
                rng.choice(("read_file", "run_command")),
                args,
                False,
                builders.failed_body(self.text(3, shown=False)),
            )
        elif shape == "text":
            # Strict native grading refuses it; lenient grading reads it as text.
            self.call("notes", args, True, self.lines())
        else:
            # A shell call that is one file view: its output becomes the file's lines.
            path = self.file()
            numbered = "\n".join(
                f"{n:6}\t{row}" for n, row in enumerate(self.lines().splitlines(), 1)
            )
            self.call("bash", {"command": f"nl -ba {path}"}, True, numbered or "1\tx")

    def answer(self) -> str:
        rng = self.rng
        sentences: list[str] = []
        for _ in range(rng.randint(0, 7)):
            pools = [pool for pool in (self.shown, self.named, self.given) if pool]
            source = rng.choice(pools) if pools and rng.random() < 0.7 else None
            said = rng.choice(source) if source else _claim(rng)
            said = said.swapcase() if rng.random() < 0.1 else said
            hedge = f"{rng.choice(vocabulary.HEDGES)} " if rng.random() < 0.15 else ""
            sentences.append(
                f"{hedge}{rng.choice(vocabulary.WORDS)} {said}{rng.choice(('.', ',', ':', ''))}"
            )
        return " ".join(sentences)

    def document(self, *, deep: bool, broken: bool) -> JSON:
        rng = self.rng
        task = self.text(4, shown=False)
        self.given = task.split()
        self.frames.append(builders.user(task))
        for _ in range(rng.randint(1, 7)):
            self.tool()
            if rng.random() < 0.15:
                self.frames.append(builders.assistant(self.answer()))
            if rng.random() < 0.08:
                self.frames.append(builders.compaction(self.text(5)))
            if rng.random() < 0.05:
                self.frames.append(builders.user(self.text(3, shown=False)))
        if rng.random() < 0.95:
            self.frames.append(builders.assistant(self.answer()))
        document: JSON = {
            "id": f"run-{rng.randrange(10**6)}" if rng.random() < 0.9 else "r\u00fcn \u0130",
            "commit": "v0-generated",
            "model": "gpt-5-mini",
            "task": task,
            "outcome": rng.choice(("success", "partial", "failure")),
            "tokens": [rng.randint(0, 5000) for _ in self.frames],
            "frames": self.frames,
        }
        if deep:
            _nest(document, rng)
        if broken:
            _break(document, rng)
        return document

    def question(self) -> Question:
        return _question(self.rng, self.shown + self.named, self.sourced)


def _nest(document: JSON, rng: random.Random) -> None:
    """Put one value nested around MAX_DEPTH levels deep (counted from the document)."""
    depth = rng.choice(_DEPTHS)
    calls = [f for f in document["frames"] if f["type"] == "tool_call"]
    results = [f for f in document["frames"] if f["type"] == "tool_result"]
    where = rng.random()
    if where < 0.4 and results:  # document > frames > frame > result > key: 4 levels above
        frame = rng.choice(results)
        if isinstance(frame["result"], dict):
            frame["result"]["extra"] = f"__deep_{depth - 4}__"
            return
    if where < 0.7 and calls:  # document > frames > frame > args: 3 levels above
        rng.choice(calls)["args"] = {"payload": f"__deep_{depth - 4}__"}
        return
    if results:
        rng.choice(results)["artifact"] = f"__deep_{depth - 3}__"


def _break(document: JSON, rng: random.Random) -> None:
    """One wrong part: a type, a frame or result shape, an id, a count."""
    frames = document["frames"]
    index = rng.randrange(len(frames))
    frame = frames[index]
    how = rng.randrange(8)
    if how == 0:
        frame["type"] = rng.choice(("thought", "", "Tool_Call", None))
    elif how == 1:
        frame[rng.choice(sorted(frame))] = rng.choice((5, None, [], {}, "true", 1.5))
    elif how == 2:
        document["tokens"] = document["tokens"][:-1]
    elif how == 3:
        document[rng.choice(("id", "task", "frames", "outcome", "tokens"))] = rng.choice(
            (7, None, "", [])
        )
    elif how == 4 and frame["type"] == "tool_result":
        frame["result"] = rng.choice(
            ({"ok": True, "shape": "unknown"}, None, [1, 2], "text", {"ok": "yes"})
        )
    elif how == 5 and frame["type"] == "tool_result":
        frame["id"] = "no-such-call"
    elif how == 6 and frame["type"] == "tool_result":
        frame["ok"] = False
        frame["result"] = rng.choice(("boom", {"ok": True}, None))
    else:
        frames.insert(index, {"type": "tool_result", "id": "orphan", "ok": True, "result": {}})
