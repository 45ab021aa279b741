"""Mutants of trace files: structural edits of their JSON and byte-level damage.

Every mutation is a pure function of a :class:`random.Random`, so Hypothesis (which
draws the seed) can shrink a failure and the long run (``python -m tests.fuzz``) can
print the seed that reproduces one.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    import random

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# Values that have broken readers: wrong types where a string is expected, deep nesting,
# huge numbers, control characters, terminal escapes.
_ODD_SCALARS: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    1.5,
    "",
    " ",
    "\x00",
    "\x1b]0;title\x07",
    "\x1b]52;c;aGVsbG8=\x07",
    "\u202e",  # right-to-left override
    "a" * 10_000,
    "user",
    "assistant",
    "tool",
    "system",
    "text",
    "tool_use",
    "tool_result",
    "function",
    "message",
    "execute_tool",
    "chat",
    "LLM",
    "TOOL",
    "[]",
    "{}",
    "null",
)


def seeds() -> list[Path]:
    """Every reader fixture and native trace the project ships (its own files only)."""
    return sorted(
        path
        for folder in ("readers", "traces")
        for path in (FIXTURES / folder).rglob("*")
        if path.is_file() and path.suffix in {".json", ".jsonl", ".traj", ".eval"}
    )


def _odd_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.45 or depth > 3:
        return rng.choice(_ODD_SCALARS)
    if roll < 0.55:
        return [_odd_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if roll < 0.65:
        return {rng.choice(("type", "role", "id", "text", "name")): _odd_value(rng, depth + 1)}
    if roll < 0.75:
        # Written as text by _dumps: orjson writes at most 254 levels.
        return f"__deep_{rng.choice((100, 199, 200, 201, 254, 256, 600, 1100))}__"
    if roll < 0.85:
        return f"__digits_{rng.choice((19, 20, 400, 4301, 5000))}__"  # see _dumps
    return rng.choice((1e308, -0.0, 2**63 - 1, -(2**63)))


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every node of a parsed document (bounded, so mutation stays quick)."""
    found = [path]
    stack = [(value, path)]
    while stack and len(found) < 5000:
        node, where = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, child in items:
            found.append((*where, key))
            stack.append((child, (*where, key)))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _mutate_tree(tree: Any, rng: random.Random) -> Any:
    for _ in range(rng.randint(1, 4)):
        paths = _nodes(tree)
        path = rng.choice(paths)
        if not path:
            tree = _odd_value(rng)
            continue
        parent = _get(tree, path[:-1])
        key = path[-1]
        action = rng.random()
        if action < 0.5:
            parent[key] = _odd_value(rng)
        elif action < 0.6 and isinstance(parent, dict):
            del parent[key]
        elif action < 0.7 and isinstance(parent, list):
            parent.insert(key, parent[key])  # a repeated item (a span id repeated, say)
        elif action < 0.8:
            # Copy another node here: ids and parents that point at ancestors, swapped types.
            try:
                parent[key] = orjson.loads(orjson.dumps(_get(tree, rng.choice(paths))))
            except (orjson.JSONEncodeError, TypeError):
                parent[key] = _odd_value(rng)  # a node orjson cannot copy (too deep, too big)
        elif action < 0.9 and isinstance(parent[key], str):
            parent[key] = parent[key] + rng.choice(_ODD_SCALARS[7:10])
        else:
            parent[key] = [parent[key]] if rng.random() < 0.5 else {"type": parent[key]}
    return tree


_MARKER = re.compile(rb'"__(digits|deep)_(\d+)__"')


def _marked(match: re.Match[bytes]) -> bytes:
    count = int(match.group(2))
    if match.group(1) == b"digits":
        return b"9" * count
    if count % 2:
        return b"[" * count + b"1" + b"]" * count
    return b'{"type":[' * (count // 2) + b'"text"' + b"]}" * (count // 2)  # objects and arrays


def expand_markers(data: bytes) -> bytes:
    """JSON with each marker string written out: a huge number, a deeply nested value."""
    return _MARKER.sub(_marked, data)


def _dumps(tree: Any) -> bytes:
    """The document as JSON, each marker written out (see :func:`expand_markers`)."""
    return expand_markers(orjson.dumps(tree))


def _mutate_json(data: bytes, rng: random.Random, lines: bool) -> bytes:
    if lines:
        rows = data.splitlines()
        if not rows:
            return data
        index = rng.randrange(len(rows))
        rows[index] = _mutate_json(rows[index], rng, lines=False)
        return b"\n".join(rows) + b"\n"
    try:
        tree = orjson.loads(data)
    except orjson.JSONDecodeError:
        return _mutate_bytes(data, rng)
    return _dumps(_mutate_tree(tree, rng))


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not buffer:
            buffer.extend(rng.randbytes(4))
        roll = rng.random()
        at = rng.randrange(len(buffer))
        if roll < 0.4:
            buffer[at] = rng.randrange(256)
        elif roll < 0.6:
            del buffer[at : at + rng.randint(1, 64)]
        elif roll < 0.8:
            buffer[at:at] = rng.choice((b"[", b"{", b'"', b"\\u0000", b"\x1b", b"\n", b"9" * 5000))
        else:
            del buffer[at:]
    return bytes(buffer)


def _mutate_zip(data: bytes, rng: random.Random) -> bytes:
    """A damaged ``.eval``: a mutated member, a bad offset, corrupt deflate, odd compression."""
    roll = rng.random()
    if roll < 0.5:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [(info, archive.read(info)) for info in archive.infolist()]
        except (zipfile.BadZipFile, OSError, EOFError, ValueError):
            return _mutate_bytes(data, rng)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            target = rng.randrange(len(members)) if members else -1
            for index, (info, body) in enumerate(members):
                lines = info.filename.endswith(".jsonl")
                written = _mutate_json(body, rng, lines=lines) if index == target else body
                archive.writestr(info.filename, written)
        return out.getvalue()
    buffer = bytearray(data)
    if roll < 0.7:
        # Damage a local or central header field (offsets, sizes, compression method).
        marker = rng.choice((b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"))
        at = buffer.find(marker)
        if at >= 0:
            field = at + rng.randrange(4, 30)
            if field < len(buffer):
                buffer[field] = rng.randrange(256)
        return bytes(buffer)
    return _mutate_bytes(data, rng)


def mutate(data: bytes, suffix: str, rng: random.Random) -> bytes:
    """One mutant of the bytes of a file whose name ends in ``suffix`` (``.json``, ...)."""
    if suffix == ".eval":
        return _mutate_zip(data, rng)
    if rng.random() < 0.7:
        return _mutate_json(data, rng, lines=suffix == ".jsonl")
    return _mutate_bytes(data, rng)


def mutant(seed: Path, rng: random.Random) -> bytes:
    """One mutant of a seed file."""
    return mutate(seed.read_bytes(), seed.suffix, rng)
