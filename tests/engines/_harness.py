"""The whole public pipeline under each engine, and what differs between the two.

An input's outcome is everything the public API gives for it: a ``.json`` input's bytes
graded as a native trace (``grade_native``, the compiled core's one call when it covers the
trace, with no question and against the input's question), each trace as read (frames
after redaction, the redactions listed in its metadata), its grade with no question
(claims extracted from the answer, with support and evidence ids), its grade against the
input's question (expected facts, provenance, and the extracted claims too) graded
leniently, the guard's replayed decision on every call (figures in the arguments, sourced
or not), or the error each step raised as ``(class, message)``. The two engines must give
byte-identical JSON. An exception outside the TracegradeError tree (a PanicException from
the core included) is recorded as a crash: the comparison fails on one even when both
engines crash alike.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from tests.helpers.engines import both_engines
from tracegrade.errors import TracegradeError
from tracegrade.guard import parse_policy, replay
from tracegrade.traces import ToolCallFrame, read_traces
from tracegrade.verdicts import grade, grade_native

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from tests.engines._generate import GeneratedInput
    from tracegrade.claims import Question
    from tracegrade.traces import Trace

__all__ = ["Comparison", "Difference", "compare", "outcome"]

_SCANNED = ("query", "content", "command", "payload", "rows[*][*]")
_SMALL = ("native", "deep", "damaged")  # families of small generated traces
MAX_TRACES = 10  # per file: a fixture of many runs needs no more to show its readers' rules
_NOT_CAUGHT = (KeyboardInterrupt, SystemExit, GeneratorExit)


def _failure(error: BaseException) -> tuple[str, str, str]:
    kind = "error" if isinstance(error, TracegradeError) else "crash"
    return (kind, type(error).__name__, str(error))


def outcome(path: Path, question: Question, *, guard: bool = True) -> list[Any]:
    """What the public pipeline gives for the file at ``path``, as JSON-ready values.

    ``guard``: also replay every trace's calls through the guard.
    """
    results: list[Any] = _graded_bytes(path, question) if path.suffix == ".json" else []
    try:
        traces = list(read_traces(path))
    except BaseException as error:
        if isinstance(error, _NOT_CAUGHT):
            raise
        return [*results, _failure(error)]
    results.append(len(traces))
    for trace in traces[:MAX_TRACES]:
        results.append(trace.model_dump(mode="json"))
        results.append(_graded(trace, None))
        results.append(_graded(trace, question))
        if guard:
            results.append(_replayed(trace))
    return results


def _replayed(trace: Trace) -> Any:
    """The guard's decision on every call, each tool's usual arguments scanned for figures."""
    tools = sorted({frame.name for frame in trace.frames if isinstance(frame, ToolCallFrame)})
    policy = parse_policy({"tools": {tool: {"scan": list(_SCANNED)} for tool in tools[:20]}})
    try:
        return [dataclasses.asdict(call) for call in replay(trace, policy)]
    except BaseException as error:
        if isinstance(error, _NOT_CAUGHT):
            raise
        return _failure(error)


def _graded_bytes(path: Path, question: Question) -> list[Any]:
    """The file's bytes graded as a native trace, with no question and against ``question``.

    The compiled core grades what it covers in one call (rust/src/native); the reference
    grades the rest, or refuses the bytes: both engines must answer alike either way.
    """
    data = path.read_bytes()
    results: list[Any] = []
    for asked in (None, question):
        try:
            results.append(grade_native(data, asked, name=path.name).model_dump(mode="json"))
        except BaseException as error:
            if isinstance(error, _NOT_CAUGHT):
                raise
            results.append(_failure(error))
    return results


def _graded(trace: Trace, question: Question | None) -> Any:
    """The trace graded with no question (strict), or against ``question`` (lenient)."""
    try:
        if question is None:
            return grade(trace).model_dump(mode="json")
        return grade(trace, question, auto=True, strict=False).model_dump(mode="json")
    except BaseException as error:
        if isinstance(error, _NOT_CAUGHT):
            raise
        return _failure(error)


@dataclass(frozen=True, slots=True)
class Difference:
    """One input whose outcome differs between the engines."""

    number: int
    family: str
    name: str
    diff: str  # unified diff of the two outcomes, pretty-printed, reference first

    def __str__(self) -> str:
        return f"input {self.number} ({self.family}, {self.name}):\n{self.diff}"


@dataclass(slots=True)
class Comparison:
    """What comparing a set of inputs found."""

    inputs: int = 0
    differences: list[Difference] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    families: Counter[str] = field(default_factory=Counter)
    seen: Counter[str] = field(default_factory=Counter)  # what the outcomes covered

    def report(self, limit: int = 3) -> str:
        """The first differences and crashes, for an assertion message."""
        lines = [f"{len(self.differences)} of {self.inputs} inputs differ"]
        lines += [str(d)[:4000] for d in self.differences[:limit]]
        lines += [f"crash: {crash}" for crash in self.crashes[:limit]]
        return "\n".join(lines)


def _diff(reference: Any, compiled: Any) -> str:
    option = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    left = orjson.dumps(reference, option=option).decode().splitlines()
    right = orjson.dumps(compiled, option=option).decode().splitlines()
    changed = difflib.unified_diff(left, right, "python", "compiled", n=2, lineterm="")
    return "\n".join(list(changed)[:80])


def _count(comparison: Comparison, result: list[Any]) -> None:
    """Tally what an outcome exercised, so tests can check the inputs stay varied."""
    for item in result:
        if isinstance(item, tuple):
            comparison.seen[f"{item[0]}:{item[1]}"] += 1
        elif isinstance(item, list):
            comparison.seen["replay"] += 1
            for call in item:
                comparison.seen[f"guard:{call['decision']['action']}"] += 1
        elif isinstance(item, dict) and "frames" in item:
            comparison.seen["trace"] += 1
            for redaction in (item.get("metadata") or {}).get("redactions") or []:
                comparison.seen[f"redacted:{redaction.get('kind')}"] += 1
        elif isinstance(item, dict):
            comparison.seen["grade"] += 1
            comparison.seen[f"provenance:{item.get('provenance')}"] += 1
            for claim in item.get("extracted") or []:
                comparison.seen[f"claim:{claim['kind']}:{claim['support']}"] += 1
            for claim in item.get("claims") or []:
                comparison.seen[f"fact:{claim['support']}"] += 1


def compare(
    inputs: Iterable[GeneratedInput], folder: Path, *, stop_at: int | None = None
) -> Comparison:
    """Run every input under both engines and collect where they differ.

    Each input is written to ``folder`` under its own name (readers detect formats by file
    name and first bytes). ``stop_at``: stop after that many differences.
    """
    comparison = Comparison()
    for item in inputs:
        path = folder / f"{item.number:05d}" / item.name
        path.parent.mkdir()
        path.write_bytes(item.data)
        # The guard's replay costs as much as the rest on large files: one in four of those.
        guard = item.family in _SMALL or item.number % 4 == 0
        run = functools.partial(outcome, path, item.question, guard=guard)
        reference, compiled = both_engines(run)
        comparison.inputs += 1
        comparison.families[item.family] += 1
        _count(comparison, compiled)
        comparison.crashes += [
            f"input {item.number} ({item.family}): {entry[1]}: {entry[2][:300]}"
            for entry in (*reference, *compiled)
            if isinstance(entry, tuple) and entry[0] == "crash"
        ]
        if orjson.dumps(reference) != orjson.dumps(compiled):
            comparison.differences.append(
                Difference(item.number, item.family, item.name, _diff(reference, compiled))
            )
            if stop_at is not None and len(comparison.differences) >= stop_at:
                break
    return comparison
