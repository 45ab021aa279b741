"""The native fast path's observations (rust/src/native/observe.rs) against the reference.

``_core.native_observe_check`` parses, validates and observes a native trace in the core and
answers a list of searches; the reference is ``observe(parse_native_trace(data))`` and the
same ``Observations`` methods under ``TRACEGRADE_CORE=python``. Wherever the reference
answers, the core must answer the same or decline (say why, as a ``str``); wherever the
reference raises, the core must decline. On the nine-commits corpus, the native fixtures,
the engine comparison's generated inputs (tests/engines/_generate.py) and the traces drawn
here it must never decline what the reference reads.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, get_args

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REPO, corpus_root
from tests.engines._generate import generated_inputs
from tests.helpers.engines import engine
from tests.helpers.strategies import FLIPS, TEXT_PIECES, texts, word_texts
from tracegrade import _core
from tracegrade.errors import TracegradeError
from tracegrade.observations import LineObservation, PathObservation, SearchField, observe
from tracegrade.traces import parse_native_trace

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.observations import Observations

FIELDS: tuple[SearchField, ...] = get_args(SearchField)
MAX_NEEDLES = 150  # per corpus trace
# Needles the index leaves to the exact path (a line break or NUL), and the empty needle.
EDGE_NEEDLES = ["", "a\nb", "\n", "\r", "\x00", "x\r\ny"]


def _sighting(obs: LineObservation) -> tuple[object, ...]:
    # The line's type too: 3 == 3.0 in Python, but a grade writes them differently.
    return (obs.id, obs.frame, obs.file, type(obs.line).__name__, obs.line, obs.text)


def _answers(observations: Observations, needles: list[str], forms: list[str]) -> Any:
    """What native_observe_check answers, computed by the reference."""
    return (
        observations.count,
        [[observations.find_ids(needle, where) for where in FIELDS] for needle in needles],
        [observations.find_word_ids(forms, where) for where in FIELDS],
        [[_sighting(obs) for obs in observations.lines_containing(needle)] for needle in needles],
    )


def _reference(data: bytes, needles: list[str], forms: list[str]) -> Any:
    """The reference's answers, or ``None`` when it raises (the core must then decline)."""
    with engine("python"):
        try:
            observations = observe(parse_native_trace(data))
        except TracegradeError:
            return None
        return _answers(observations, needles, forms)


def _compiled(data: bytes, needles: list[str], forms: list[str]) -> Any:
    """The core's answers in the reference's layout, or the reason it declines (a ``str``)."""
    found = _core.native_observe_check(data, needles, forms)
    if isinstance(found, str):
        return found
    count, ids, words, lines = found
    sightings = [
        [(oid, frame, file, type(line).__name__, line, text) for oid, frame, file, line, text in s]
        for s in lines
    ]
    return (count, ids, words, sightings)


def _agree(data: bytes, needles: list[str], forms: list[str], *, may_decline: bool) -> bool:
    """Assert the two agree; whether the core answered (``False``: it declined)."""
    reference = _reference(data, needles, forms)
    compiled = _compiled(data, needles, forms)
    if reference is None:
        assert isinstance(compiled, str), "the reference raises but the core answered"
        return False
    if isinstance(compiled, str):
        assert may_decline, f"the core declined a trace the reference reads: {compiled}"
        return False
    assert compiled == reference
    return True


def _words(data: bytes) -> list[str]:
    """Needles drawn from what the reference observed in the trace: words, names, pieces."""
    with engine("python"):
        observations = observe(parse_native_trace(data))
        words: list[str] = []
        for obs in observations:
            if isinstance(obs, LineObservation):
                words += obs.text.split()[:4]
                words += [obs.file, obs.text[:12], obs.text[-7:]]
            elif isinstance(obs, PathObservation):
                words += [obs.file, obs.file.rsplit("/", 1)[-1]]
    distinct = list(dict.fromkeys(words))
    sample = distinct[: MAX_NEEDLES // 2] + distinct[-MAX_NEEDLES // 2 :]
    return list(dict.fromkeys(sample + [word.swapcase() for word in sample[:20]]))


def _corpus_traces() -> list[Path]:
    return sorted((corpus_root() / "nine-commits" / "traces").rglob("*.json"))


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name", [p.relative_to(corpus_root()).as_posix() for p in _corpus_traces()]
)
def test_the_core_observes_every_nine_commits_trace_as_the_reference(name: str):
    data = (corpus_root() / name).read_bytes()
    needles = [*_words(data), *EDGE_NEEDLES]
    forms = [*_words(data)[:60], "the", "a", "-", "src/", "$5"]
    assert _agree(data, needles, forms, may_decline=False)


def test_the_nine_commits_corpus_is_compared():
    if not _corpus_traces():
        pytest.skip(
            f"nine-commits traces not found under {corpus_root()}: set TRACEGRADE_CORPUS to"
            " the folder that holds nine-commits/"
        )
    assert len(_corpus_traces()) >= 18


NATIVE_FIXTURES = sorted(
    p
    for p in (REPO / "tests").rglob("*.json")
    if "readers" not in p.parts and ".venv" not in p.parts
)


@pytest.mark.parametrize("path", NATIVE_FIXTURES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_the_core_observes_the_native_fixtures_as_the_reference(path: Path):
    data = path.read_bytes()
    needles = ["", "src", "PORT", "4321", "a\nb", "export", "README"]
    _agree(data, needles, ["port", "4321", "src", "md"], may_decline=False)


GENERATED = 1500  # of the engine comparison's inputs (tests/engines/_generate.py)


def test_the_core_observes_the_engine_comparisons_inputs_as_the_reference():
    """Native, deep, damaged, other-format and realistic inputs: agree, or both refuse."""
    failures: list[str] = []
    answered = 0
    for generated in generated_inputs(GENERATED):
        question = generated.question
        needles = [question.tell or "", question.truth_file or "", "the", "", "a\nb"]
        forms = ["the", "src", question.tell or "x"]
        try:
            answered += _agree(generated.data, needles, forms, may_decline=False)
        except AssertionError as error:
            failures.append(f"input {generated.number} ({generated.family}): {error}")
    assert not failures, "\n".join(failures[:5])
    assert answered > GENERATED // 4  # enough of them are read, not refused by both


# Generated traces: every built-in shape, with the edges of each (a boolean, float or string
# line number, CR and CRLF content, empty streams), failed and orphan results, unknown shapes.
FILES = ["src/a.ts", "README.md", "a\nb", "src/\u0130.py", ""]
# No -0.0: the core's parser declines it (rust/src/native/json.rs).
floats = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda x: math.copysign(1, x) > 0 or x
)
numbers = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    floats,
    st.booleans(),
    st.just("7"),
    st.none(),
)
strict_numbers = st.one_of(
    st.integers(min_value=0, max_value=99),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    floats,
)
names = st.one_of(st.sampled_from(FILES), texts)
match = st.fixed_dictionaries({"file": names, "line": strict_numbers, "text": texts})
hit = st.fixed_dictionaries({"title": texts, "url": names, "snippet": texts})
OK: dict[str, Any] = {"ok": True}
bodies = st.one_of(
    st.builds(lambda m: {**OK, "matches": m, "truncated": False}, st.lists(match, max_size=4)),
    st.builds(lambda f: {**OK, "files": f}, st.lists(names, max_size=4)),
    st.builds(
        lambda f, c, n: {**OK, "file": f, "lines": n, "content": c}, names, texts, strict_numbers
    ),
    st.builds(lambda r: {**OK, "results": r}, st.lists(hit, max_size=3)),
    st.builds(
        lambda u, t, c, n: {**OK, "url": u, "title": t, "chars": n, "content": c},
        names, texts, texts, strict_numbers,
    ),
    st.builds(
        lambda c, o, e: {**OK, "command": c, "stdout": o, "stderr": e, "exitCode": 0},
        texts, st.one_of(st.just(""), texts), st.one_of(st.just(""), texts),
    ),
    st.builds(
        lambda f, n, c: {**OK, "file": f, "bytes": n, "created": c},
        names, strict_numbers, st.booleans(),
    ),
)  # fmt: skip
# Near a shape: a number that is a boolean, a string or null, a missing key, an own ok that
# is not exactly true, no shape at all.
near_bodies = st.one_of(
    st.builds(lambda n: {**OK, "matches": [{"file": "a", "line": n, "text": "x"}]}, numbers),
    st.builds(lambda f, n: {**OK, "file": f, "lines": n, "content": "x"}, names, numbers),
    st.builds(lambda n: {**OK, "file": "a", "bytes": n, "created": True}, numbers),
    st.builds(lambda m: {"ok": 1, "matches": m}, st.lists(match, max_size=2)),
    st.sampled_from([{**OK, "answer": 1}, {**OK, "files": [1]}, "free text", None, [], 3]),
)
failures = st.sampled_from([{"ok": False, "error": "boom"}, {"error": "boom"}, "boom", None])


@st.composite
def native_traces(draw: st.DrawFn) -> bytes:
    frames: list[dict[str, Any]] = [{"type": "user", "content": draw(texts)}]
    for number in range(draw(st.integers(min_value=1, max_value=5))):
        call_id = draw(st.sampled_from([f"c{number}", "c0"]))  # "c0" again: the latest call
        kind = draw(st.integers(min_value=0, max_value=39))  # one in ten results is wrong
        if kind != 0:  # 0: an orphan result
            frames.append({"type": "tool_call", "id": call_id, "name": "tool", "args": {}})
        failed = kind in {1, 2}  # skipped when the body is {"ok": false, ...}, else refused
        body = draw(failures if failed else near_bodies if kind == 3 else bodies)
        frames.append({"type": "tool_result", "id": call_id, "ok": not failed, "result": body})
    frames.append({"type": "assistant", "content": draw(texts)})
    trace = {
        "id": "generated",
        "commit": "v0",
        "model": "m",
        "task": "t",
        "outcome": "success",
        "tokens": [0] * len(frames),
        "frames": frames,
    }
    return orjson.dumps(trace)


@st.composite
def needles_in(draw: st.DrawFn, data: bytes) -> list[str]:
    """Needles that often hit: slices of the trace's strings, case-flipped, and pieces."""
    strings = [s for s in _strings(orjson.loads(data)) if s]
    found: list[str] = []
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        from_trace: bool = draw(st.booleans())
        if strings and from_trace:
            text = draw(st.sampled_from(strings))
            start = draw(st.integers(min_value=0, max_value=len(text)))
            end = draw(st.integers(min_value=start, max_value=len(text)))
            found.append(draw(st.sampled_from(FLIPS))(text[start:end]))
        else:
            found.append(draw(st.one_of(texts, st.sampled_from(TEXT_PIECES), word_texts)))
    return found


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


@settings(max_examples=400, deadline=None)
@given(data=st.data(), trace=native_traces())
def test_the_core_observes_generated_traces_as_the_reference(data: st.DataObject, trace: bytes):
    needles = data.draw(needles_in(trace))
    forms = data.draw(needles_in(trace))
    _agree(trace, needles, forms, may_decline=False)


def test_the_generated_traces_reach_both_outcomes():
    """The edges drawn above do reach the reference's refusals and the core's answers."""
    read = {**OK, "file": "a", "lines": 1, "content": "x\r\ny\rz"}
    frames: list[dict[str, Any]] = [
        {"type": "tool_call", "id": "c", "name": "read_file", "args": {}},
        {"type": "tool_result", "id": "c", "ok": True, "result": read},
    ]
    good: dict[str, Any] = {"id": "i", "commit": "v", "model": "m", "task": "t"}
    good |= {"outcome": "success", "tokens": [0, 0], "frames": frames}
    assert _agree(orjson.dumps(good), ["Y", "x\ny"], ["z"], may_decline=False)
    for bad_line in [True, "7", None]:
        match = {"file": "a", "line": bad_line, "text": "x"}
        bad = {**good, "frames": [frames[0], {**frames[1], "result": {**OK, "matches": [match]}}]}
        assert not _agree(orjson.dumps(bad), ["x"], [], may_decline=False)
    orphan = {**good, "tokens": [0], "frames": frames[1:]}
    assert not _agree(orjson.dumps(orphan), ["x"], [], may_decline=False)
