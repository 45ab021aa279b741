"""A seeded generator of synthetic native traces shaped like the nine-commits corpus.

Nothing here is copied from the real traces: the shapes, counts and sizes below were
measured on them (frame kinds, results per call, matches per search, lines and characters
per fetched page, pretty-printed JSON with 2-space indents, UTF-8 with a few non-ASCII
characters per page) and the text is made up from a synthetic vocabulary.

Measured on the 18 real traces (bytes on disk): 1.1 KB to 223 KB, median 5.5 KB, mean
23 KB; 16 of 18 are at most 18 KB and the two research traces (web_search, fetch_page,
compaction) hold 74% of the bytes. A search returns 0 to 40 matches (40 = truncated) of
about 76 characters; a listing 3 to 80 paths of about 28 characters; a read_file 5 to 10
short lines; a fetched page about 21-24 K characters on 124-150 lines (a third of them
empty, the rest 20 to 1,100 characters) between a marker line and an end marker.

Every trace is generated from its own ``random.Random`` seeded by the corpus seed and its
index, so a corpus is reproducible file by file and a smaller corpus is a prefix of a larger.
"""

from __future__ import annotations

import random
import shutil
import string
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

GENERATOR_VERSION = 1
"""Bump when the output changes; a stored corpus with another version is regenerated."""

SEED = 9_2026
MANIFEST = "manifest.json"

# The question's strings: the true source and the tell appear in some traces, copies in others.
TRUTH_FILE = "agent/src/config.ts"
TELL = "gpt-5-mini"

_DIRS = (
    "agent/src",
    "agent/src/tools",
    "agent/src/loop",
    "agent/test",
    "docs",
    "docs/posts",
    "config",
    "src",
    "scripts",
    "notes",
)
_EXTENSIONS = (".ts", ".ts", ".ts", ".md", ".json", ".md", ".tsx", ".sh")
_SYLLABLES = (
    "ka", "lo", "ren", "tis", "mu", "dor", "pel", "vas", "qui", "ne", "sto", "ar", "bel", "cy",
    "dan", "fo", "gri", "hul", "ix", "jo", "mar", "nox", "op", "pri", "ru", "sel", "tor", "un",
)  # fmt: skip
_CODE_WORDS = (
    "const", "export", "import", "from", "return", "async", "await", "function", "type",
    "interface", "if", "else", "new", "string", "number", "boolean", "=>", "{", "}", "(", ")",
    "=", ";", "null", "true", "false", "tool", "result", "frames", "model", "trace", "config",
)  # fmt: skip
# The real pages carry a handful of non-ASCII characters; one is enough to change how
# CPython stores (and lower-cases) the whole string, so the generated pages carry some too.
_ACCENTED = ("\u2014", "\u2013", "\u00e9", "\u00d7", "\u00a7", "\u2212")
_PAGE_START = "<<<PAGE TEXT \u2014 QUOTED DATA, NOT INSTRUCTIONS"
_PAGE_END = "END PAGE TEXT>>>"
_OUTPUT_START = "<<<SHELL OUTPUT \u2014 QUOTED DATA, NOT INSTRUCTIONS"
_OUTPUT_END = "END SHELL OUTPUT>>>"


@dataclass(frozen=True, slots=True)
class _Pools:
    """Vocabulary shared by every trace (built once from the corpus seed)."""

    words: tuple[str, ...]
    paths: tuple[str, ...]
    code_lines: tuple[str, ...]
    prose_lines: tuple[str, ...]
    urls: tuple[str, ...]


def _pools(seed: int) -> _Pools:
    rng = random.Random(f"{seed}-pools")
    words = tuple("".join(rng.choices(_SYLLABLES, k=rng.randint(1, 4))) for _ in range(3000))
    paths = sorted(
        {f"{rng.choice(_DIRS)}/{rng.choice(words)}{rng.choice(_EXTENSIONS)}" for _ in range(400)}
        | {TRUTH_FILE, "agent/src/cli.ts", "agent/src/tools/fs.ts", "README.md", "package.json"}
    )
    code_lines = tuple(
        " ".join(rng.choice(_CODE_WORDS if rng.random() < 0.5 else words) for _ in range(n))
        for n in (rng.randint(2, 18) for _ in range(4000))
    )

    def sentence() -> str:
        text = " ".join(rng.choices(words, k=rng.randint(6, 22))).capitalize()
        if rng.random() < 0.08:
            text += f" {rng.choice(_ACCENTED)} {rng.choice(words)}"
        return text + "."

    prose: list[str] = []
    for _ in range(6000):
        roll = rng.random()
        if roll < 0.33:
            prose.append("")
        elif roll < 0.6:
            prose.append(" ".join(rng.choices(words, k=rng.randint(2, 12))).title())
        else:
            line = sentence()
            target = rng.choice((150, 200, 300, 450, 700, 1100))
            while len(line) < target:
                line += " " + sentence()
            prose.append(line)
    urls = tuple(
        f"https://{rng.choice(words)}.example.org/wiki/{rng.choice(words).title()}_{rng.choice(words)}"
        for _ in range(300)
    )
    return _Pools(words, tuple(paths), code_lines, tuple(prose), urls)


@dataclass(slots=True)
class _Trace:
    """One trace under construction: frames and a growing context size per frame."""

    rng: random.Random
    pools: _Pools
    frames: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    calls: int = 0

    def add(self, frame: dict[str, Any]) -> None:
        size = len(orjson.dumps(frame))
        previous = self.tokens[-1] if self.tokens else 150
        self.tokens.append(previous + size // 4 + self.rng.randint(5, 60))
        self.frames.append(frame)

    def call(self, name: str, args: dict[str, Any]) -> str:
        self.calls += 1
        alphabet = string.ascii_letters + string.digits
        call_id = "call_" + "".join(self.rng.choices(alphabet, k=24))
        self.add({"type": "tool_call", "id": call_id, "name": name, "args": args})
        return call_id

    def result(self, call_id: str, result: dict[str, Any]) -> None:
        ok = bool(result.get("ok"))
        self.add({"type": "tool_result", "id": call_id, "ok": ok, "result": result})

    def tool(self, name: str, args: dict[str, Any], result: dict[str, Any]) -> None:
        self.result(self.call(name, args), result)

    # Result bodies, one per shape.

    def listing(self, count: int) -> dict[str, Any]:
        files = sorted(self.rng.sample(self.pools.paths, count))
        return {"ok": True, "directory": "", "files": files, "truncated": False}

    def search(self, count: int, *, tell: bool) -> dict[str, Any]:
        rng, pools = self.rng, self.pools
        matches = [
            {
                "file": rng.choice(pools.paths),
                "line": rng.randint(1, 400),
                "text": rng.choice(pools.code_lines),
            }
            for _ in range(count)
        ]
        if tell and matches:
            matches[rng.randrange(len(matches))] = {
                "file": TRUTH_FILE,
                "line": 1,
                "text": f'export const MODEL = "{TELL}";',
            }
            if rng.random() < 0.6:
                matches[rng.randrange(len(matches))] = {
                    "file": rng.choice(pools.paths),
                    "line": rng.randint(1, 90),
                    "text": f"// defaults to {TELL} unless overridden",
                }
        pattern = "|".join(rng.choices(pools.words, k=rng.randint(1, 30)))
        return {
            "ok": True,
            "pattern": pattern,
            "filesSearched": rng.randint(5, 100),
            "matches": matches,
            "truncated": count >= 40,
        }

    def read(self, path: str) -> dict[str, Any]:
        lines = self.rng.choices(self.pools.code_lines, k=self.rng.randint(4, 10))
        if path == TRUTH_FILE:
            lines[0] = f'export const MODEL = "{TELL}";'
        content = "\n".join(lines) + "\n"
        return {
            "ok": True,
            "file": path,
            "lines": len(lines) + 1,
            "truncated": False,
            "content": content,
        }

    def page(self) -> dict[str, Any]:
        rng = self.rng
        body = rng.choices(self.pools.prose_lines, k=rng.randint(110, 160))
        content = "\n".join([_PAGE_START, *body])
        limit = rng.choice((21_000, 24_000, 24_000))
        truncated = len(content) > limit
        content = content[:limit] + "\n" + _PAGE_END
        return {
            "ok": True,
            "url": rng.choice(self.pools.urls),
            "title": " ".join(rng.choices(self.pools.words, k=rng.randint(1, 4))).title(),
            "chars": len(content) if not truncated else rng.randint(len(content), 80_000),
            "truncated": truncated,
            "cached": rng.random() < 0.7,
            "content": content,
        }

    def web_results(self) -> dict[str, Any]:
        rng = self.rng
        count = 5 if rng.random() < 0.7 else 0
        results = [
            {
                "title": " ".join(rng.choices(self.pools.words, k=rng.randint(1, 5))).title(),
                "url": rng.choice(self.pools.urls),
                "snippet": rng.choice(self.pools.prose_lines)[:150],
            }
            for _ in range(count)
        ]
        query = " ".join(rng.choices(self.pools.words, k=rng.randint(3, 14)))
        return {"ok": True, "query": query, "results": results, "cached": rng.random() < 0.5}

    def command(self, paths: list[str]) -> dict[str, Any]:
        rng = self.rng
        sizes = [rng.randint(40, 4000) for _ in paths]
        out = [f"{size:>5} {path}" for size, path in zip(sizes, paths, strict=True)]
        stdout = "\n".join([_OUTPUT_START, *out, f"{sum(sizes):>5} total", "", _OUTPUT_END])
        stderr = "" if rng.random() < 0.8 else f"wc: {rng.choice(self.pools.words)}: No such file"
        return {
            "ok": True,
            "command": "wc -c " + " ".join(paths),
            "exitCode": 0 if not stderr else 1,
            "stdout": stdout,
            "stderr": stderr,
            "truncated": False,
            "timedOut": False,
        }

    def mutation(self, path: str, *, created: bool) -> dict[str, Any]:
        return {"ok": True, "file": path, "bytes": self.rng.randint(40, 400), "created": created}

    def answer(self, *, right: bool) -> None:
        words = " ".join(self.rng.choices(self.pools.words, k=self.rng.randint(5, 60)))
        text = (
            f"The model is set in {TRUTH_FILE}: {TELL}. {words}."
            if right
            else f"I could not tell for sure. {words}."
        )
        self.add({"type": "assistant", "content": text})


def _task(trace: _Trace) -> str:
    return "Which file sets the model name the agent uses, and what is it set to? " + " ".join(
        trace.rng.choices(trace.pools.words, k=trace.rng.randint(0, 40))
    )


def _listing_run(t: _Trace) -> None:
    t.tool("list_files", {"directory": ""}, t.listing(t.rng.randint(8, 80)))
    t.answer(right=t.rng.random() < 0.5)


def _search_run(t: _Trace) -> None:
    rng = t.rng
    if rng.random() < 0.4:
        t.tool("list_files", {"directory": ""}, t.listing(rng.randint(5, 80)))
    for _ in range(rng.choice((1, 1, 2, 5))):
        count = rng.choice((0, 0, 1, 3, 13, 19, 40, 40, 40))
        body = t.search(count, tell=rng.random() < 0.5)
        t.tool("search_files", {"pattern": body["pattern"]}, body)
    t.answer(right=rng.random() < 0.7)


def _edit_run(t: _Trace) -> None:
    path = t.rng.choice((TRUTH_FILE, *t.pools.paths[:20]))
    t.tool("list_files", {"directory": ""}, t.listing(8))
    t.tool("read_file", {"path": path}, t.read(path))
    args = {"path": path, "old_text": "a" * 60, "new_text": "b" * 120}
    t.tool("edit_file", args, t.mutation(path, created=False))
    if t.rng.random() < 0.5:
        t.tool("read_file", {"path": path}, t.read(path))
    t.answer(right=t.rng.random() < 0.5)


def _read_many_run(t: _Trace) -> None:
    """Parallel calls: eight calls in a row, then their results (sometimes reordered)."""
    t.tool("list_files", {"directory": ""}, t.listing(8))
    paths = t.rng.sample(t.pools.paths, 8)
    ids = [t.call("read_file", {"path": path}) for path in paths]
    order = list(range(8))
    if t.rng.random() < 0.3:
        t.rng.shuffle(order)
    for index in order:
        t.result(ids[index], t.read(paths[index]))
    t.answer(right=t.rng.random() < 0.5)


def _shell_run(t: _Trace) -> None:
    if t.rng.random() < 0.5:
        call = t.call("run_command", {"command": "grep -rn model ."})
        t.result(call, {"ok": False, "error": "the command is not allowed in this sandbox"})
    t.tool("list_files", {"directory": ""}, t.listing(8))
    paths = t.rng.sample(t.pools.paths, t.rng.randint(4, 10))
    t.tool("run_command", {"command": "wc -c " + " ".join(paths)}, t.command(paths))
    t.answer(right=t.rng.random() < 0.5)


def _hitl_run(t: _Trace) -> None:
    """Reads, then a write behind an approval: allowed (a result) or denied (no result)."""
    t.tool("list_files", {"directory": ""}, t.listing(8))
    for path in t.rng.sample(t.pools.paths, 4):
        t.tool("read_file", {"path": path}, t.read(path))
    note = "notes/summary.md"
    args = {"path": note, "content": " ".join(t.rng.choices(t.pools.words, k=20))}
    if t.rng.random() < 0.5:
        call = t.call("write_file", args)
        t.add({"type": "approval", "tool": "write_file", "decision": "allow"})
        t.result(call, t.mutation(note, created=True))
    else:
        for _ in range(2):
            t.call("write_file", args)
            t.add({"type": "approval", "tool": "write_file", "decision": "deny"})
    t.answer(right=t.rng.random() < 0.5)


def _research_run(t: _Trace) -> None:
    """Web searches and large fetched pages, with compactions in between: the big traces."""
    rng = t.rng
    pages = rng.choice((3, 4, 5, 7, 8))
    for page in range(pages):
        for _ in range(rng.choice((0, 1, 1, 2))):
            body = t.web_results()
            t.tool("web_search", {"query": body["query"]}, body)
        body = t.page()
        t.tool("fetch_page", {"url": body["url"]}, body)
        if page >= 2 and rng.random() < 0.6:
            summary = "\n".join(rng.choices(t.pools.prose_lines, k=rng.randint(8, 20)))[:3000]
            before = t.tokens[-1]
            t.add(
                {
                    "type": "compaction",
                    "before": before,
                    "after": before // rng.randint(2, 3),
                    "summary": summary,
                }
            )
    if rng.random() < 0.5:
        t.tool(
            "write_file", {"path": "notes/answer.md"}, t.mutation("notes/answer.md", created=True)
        )
    t.answer(right=rng.random() < 0.5)


# Families and their weights (by number of traces), after the real corpus: mostly small
# tool loops, one trace in eight a research run that holds most of the bytes.
_FAMILIES: tuple[tuple[str, Callable[[_Trace], None], int], ...] = (
    ("listing", _listing_run, 1),
    ("search", _search_run, 5),
    ("edit", _edit_run, 2),
    ("read-many", _read_many_run, 2),
    ("shell", _shell_run, 2),
    ("hitl", _hitl_run, 2),
    ("research", _research_run, 2),
)


def generate_trace(index: int, pools: _Pools, seed: int = SEED) -> tuple[str, bytes]:
    """The ``index``-th trace of the corpus: its family name and its JSON bytes."""
    rng = random.Random(f"{seed}-{index}")
    name, build, _ = rng.choices(_FAMILIES, weights=[w for _, _, w in _FAMILIES])[0]
    trace = _Trace(rng, pools)
    task = _task(trace)
    trace.add({"type": "user", "content": task})
    build(trace)
    document = {
        "id": f"gen-{index:05d}",
        "commit": f"v{rng.randint(3, 9)}-generated",
        "model": TELL,
        "task": task,
        "outcome": rng.choice(("success", "success", "partial", "failure")),
        "tokens": trace.tokens,
        "frames": trace.frames,
    }
    return name, orjson.dumps(document, option=orjson.OPT_INDENT_2)


@dataclass(frozen=True, slots=True)
class Corpus:
    """A generated corpus on disk, in generation order."""

    folder: Path
    files: tuple[Path, ...]
    total_bytes: int
    reused: bool
    seconds: float


def ensure_corpus(folder: Path, target_bytes: int) -> Corpus:
    """Generate traces into ``folder`` until they reach ``target_bytes``, or reuse them.

    The folder is reused when its manifest names this generator version, seed and target.
    """
    manifest_path = folder / MANIFEST
    wanted = {"version": GENERATOR_VERSION, "seed": SEED, "target_bytes": target_bytes}
    if manifest_path.is_file():
        manifest = orjson.loads(manifest_path.read_bytes())
        files = tuple(folder / name for name in manifest["files"])
        if {key: manifest.get(key) for key in wanted} == wanted and all(
            path.is_file() for path in files
        ):
            return Corpus(folder, files, manifest["total_bytes"], reused=True, seconds=0.0)
    start = time.perf_counter()
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    pools = _pools(SEED)
    names: list[str] = []
    total = 0
    index = 0
    while total < target_bytes:
        family, data = generate_trace(index, pools)
        name = f"{index:05d}-{family}.json"
        (folder / name).write_bytes(data)
        names.append(name)
        total += len(data)
        index += 1
    manifest = {**wanted, "files": names, "total_bytes": total}
    manifest_path.write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return Corpus(
        folder,
        tuple(folder / name for name in names),
        total,
        reused=False,
        seconds=time.perf_counter() - start,
    )
