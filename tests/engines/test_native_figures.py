"""The native path's figure evidence (rust/src/native/figure_sources.rs) against the reference.

The reference is ``FigureSources(lines_matching=anchor_pattern(figures), bare_numbers=False,
humans=...)`` over the frames ``parse_native_trace`` gives, run by the Python engine
(``TRACEGRADE_CORE=python``), as ``grade_figures`` (humans) and ``fact_figure_evidence``
(no humans) use it. The core must give every figure the same evidence, or decline; on the
real traces it must not decline.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks._native_figures import every_text
from tests.conftest import corpus_root
from tracegrade import _core
from tracegrade._engine import compiled_core
from tracegrade.figures import FigureSources, anchor_pattern, extract_figures
from tracegrade.figures._find import compiled_extractor
from tracegrade.figures._numbers import canonical
from tracegrade.figures._structured import _MONEY_WORDS, _OTHER_WORDS
from tracegrade.traces import (
    AssistantFrame,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    UserFrame,
    parse_native_trace,
    read_traces,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.traces import Trace

Evidence = list[str | None]


def reference(data: bytes, answer: str, *, humans: bool) -> Evidence:
    """Each figure's evidence as the Python engine gives it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRACEGRADE_CORE", "python")
        trace = parse_native_trace(data)
        figures = extract_figures(answer)
        sources = FigureSources(
            lines_matching=anchor_pattern(figures), bare_numbers=False, humans=humans
        ).extend(trace.frames)
        return [sources.index.evidence_for(figure) for figure in figures]


def core(data: bytes, answer: str, *, humans: bool) -> Evidence | str:
    """Each figure's evidence from the core in one call, or why it declined."""
    module, extractor = compiled_core(), compiled_extractor()
    assert module is not None, "the compiled core is the default engine"
    assert extractor is not None
    found: Evidence | str = module.native_figure_evidence(data, answer, humans, extractor)
    return found


def native_bytes(trace: Trace) -> bytes:
    """A read trace written in the native format (version 1: no system frame)."""
    frames: list[dict[str, Any]] = []
    for frame in trace.frames:
        if isinstance(frame, UserFrame | AssistantFrame):
            frames.append({"type": frame.type, "content": frame.content})
        elif isinstance(frame, ToolCallFrame):
            frames.append(
                {"type": frame.type, "id": frame.id, "name": frame.name, "args": frame.args}
            )
        elif isinstance(frame, ToolResultFrame):
            frames.append(
                {"type": frame.type, "id": frame.id, "ok": frame.ok, "result": frame.result}
            )
        elif not isinstance(frame, SystemFrame):
            pytest.fail(f"no native version-1 form for {frame.type} frames")
    header = {"id": trace.id, "commit": "tau", "model": "m", "task": trace.task, "outcome": None}
    return orjson.dumps({**header, "tokens": [], "frames": frames})


# Lines with a hedge word are left out where the anchors are tested: one hedged figure
# would make every source be read whole.
_HEDGED = re.compile(
    r"about|around|over|under|nearly|approx|more than|less than|at least|~|≈", re.I
)


def _nine_commits() -> list[Path]:
    folder = corpus_root() / "nine-commits" / "traces"
    return sorted(folder.rglob("*.json")) if folder.is_dir() else []


def _tau_bench() -> list[Path]:
    folder = corpus_root() / "tau_bench"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _skip_without(paths: list[Path], name: str) -> None:
    if not paths:
        pytest.skip(f"real corpus {name} not found under {corpus_root()}: set TRACEGRADE_CORPUS")


@pytest.mark.corpus
@pytest.mark.parametrize("humans", [True, False])
def test_nine_commits_final_answers_alike_and_never_declined(humans: bool) -> None:
    paths = _nine_commits()
    _skip_without(paths, "nine-commits")
    assert len(paths) >= 18
    looked_up = 0
    for path in paths:
        data = path.read_bytes()
        answer = parse_native_trace(data).final_answer
        expected = reference(data, answer, humans=humans)
        assert core(data, answer, humans=humans) == expected, path.name
        looked_up += len(expected)
    assert looked_up > 0, "no final answer of the corpus has a figure: nothing was compared"


@pytest.mark.corpus
def test_nine_commits_every_figure_they_write_alike() -> None:
    # The final answers hold few figures; every figure the run writes is a harder lookup
    # (anchors of hundreds of figures, windows over every result).
    paths = _nine_commits()
    _skip_without(paths, "nine-commits")
    looked_up = 0
    for path in paths:
        data = path.read_bytes()
        answer = every_text(parse_native_trace(data))
        answer = "\n".join(line for line in answer.splitlines() if not _HEDGED.search(line))
        expected = reference(data, answer, humans=False)
        assert core(data, answer, humans=False) == expected, path.name
        looked_up += len(expected)
    assert looked_up >= 30  # 37 figures in the 18 traces


@pytest.mark.corpus
def test_nine_commits_with_a_hedged_figure_read_whole() -> None:
    # A hedged figure has no anchor: every source is read whole and indexed.
    paths = _nine_commits()
    _skip_without(paths, "nine-commits")
    for path in paths:
        data = path.read_bytes()
        answer = every_text(parse_native_trace(data)) + " About 3,000 lines, over $1 million."
        assert core(data, answer, humans=True) == reference(data, answer, humans=True), path


@pytest.mark.corpus
def test_tau_bench_traces_in_native_form_alike() -> None:
    paths = _tau_bench()
    _skip_without(paths, "tau_bench")
    compared = 0
    for path in paths:
        for trace in read_traces(path):
            data = native_bytes(trace)
            for answer in (trace.final_answer, every_text(trace)):
                for humans in (True, False):
                    expected = reference(data, answer, humans=humans)
                    assert core(data, answer, humans=humans) == expected, (path.name, trace.id)
                    compared += len(expected)
    assert compared >= 900  # 924 lookups in the 46 runs


# Generated traces: money, hedges, ranges, years, spelled numbers, failed results that echo
# their call's arguments, structured values and JSON in strings.
WORDS = [
    "$", "US$", "€", "£", "USD ", " dollars", "1", "5", "0", "12", "250", "466.75", "1,500",
    "2,956,737", "2016", "-17", "\u2013", " to ", " million", "m", "bn", " thousand", "%",
    " days", " year", " consecutive ", "thirty", "twenty-five", "seven", "fifth", "zero",
    "about ", "over ", "nearly ", "under ", "~", " ", "\n", ",", ".", "(30)", "Section 8.10",
    "id_4421", "HAT-123", "\u00a0", "\u017fome", "\u0130",
]  # fmt: skip
prose = st.lists(
    st.one_of(
        st.sampled_from(WORDS),
        st.integers(min_value=0, max_value=10**12).map(str),
        st.characters(exclude_categories=["Cs"]),
    ),
    max_size=16,
).map("".join)
KEYS = ["price", "total_baggages", "seats", "amountPaid", "economy", "prices", "id", "fee"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(allow_nan=False, allow_infinity=False),
    prose,
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)
results = st.one_of(values, values.map(lambda value: orjson.dumps(value).decode()), prose)


def _text(value: object) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode()


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[dict[str, Any]], str]:
    """Frames, and an answer that quotes some of them (else few figures would be sourced)."""
    made: list[dict[str, Any]] = []
    quoted: list[str] = []
    for position in range(draw(st.integers(min_value=1, max_value=6))):
        kind = draw(st.sampled_from(["user", "assistant", "call", "call"]))
        if kind in ("user", "assistant"):
            made.append({"type": kind, "content": draw(prose)})
            quoted.append(made[-1]["content"])
            continue
        call = f"c{position}" if draw(st.booleans()) else "c0"
        args = draw(values)
        made.append({"type": "tool_call", "id": call, "name": "tool", "args": args})
        ok = draw(st.booleans())
        result = draw(results | st.just(args))  # a failed write often echoes what it sent
        made.append({"type": "tool_result", "id": call, "ok": ok, "result": result})
        quoted += [_text(args), _text(result)]
    picked = draw(st.lists(st.sampled_from(quoted), max_size=3))
    return made, " ".join([draw(prose), *picked])


@given(runs(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_generated_traces_alike(run: tuple[list[dict[str, Any]], str], humans: bool) -> None:
    made, answer = run
    header = {"id": "t", "commit": "c", "model": "m", "task": "task", "outcome": None}
    data = orjson.dumps({**header, "tokens": [], "frames": made})
    found = core(data, answer, humans=humans)
    if isinstance(found, str):
        return  # declined: the reference grades it (a repeated key, a deep number...)
    assert found == reference(data, answer, humans=humans)


def test_a_failed_result_does_not_source_its_calls_figures() -> None:
    # The expectation the generated comparison could share with the reference by accident.
    made = [
        {"type": "user", "content": "I was charged $1,250."},
        {"type": "tool_call", "id": "c", "name": "refund", "args": {"paid": "$304"}},
        {"type": "tool_result", "id": "c", "ok": False, "result": "total is $608, you paid $304"},
        {"type": "tool_call", "id": "d", "name": "quote", "args": {}},
        {"type": "tool_result", "id": "d", "ok": True, "result": '{"fare": {"price": 466.75}}'},
    ]
    header = {"id": "t", "commit": "c", "model": "m", "task": "task", "outcome": None}
    data = orjson.dumps({**header, "tokens": [], "frames": made})
    answer = "You paid $304 of $608, charged $1,250, fare $466.75."
    assert core(data, answer, humans=True) == [None, "f2", "f0", "f4"]
    assert core(data, answer, humans=False) == [None, "f2", None, "f4"]
    assert isinstance(core(b"{", answer, humans=True), str)


def test_frames_after_every_figures_own_are_not_read_unless_the_reference_could_raise() -> None:
    # Once each figure has a frame of its own key, later frames change no evidence: the
    # core stops there (rust/src/native/figure_sources/settled.rs), so a later text it
    # leaves to the reference (JSON with a key twice) no longer makes it decline.
    def data(later: str) -> bytes:
        made = [
            {"type": "tool_call", "id": "a", "name": "quote", "args": {}},
            {"type": "tool_result", "id": "a", "ok": True, "result": "The fee is $1,500."},
            {"type": "tool_call", "id": "b", "name": "page", "args": {}},
            {"type": "tool_result", "id": "b", "ok": True, "result": later},
        ]
        header = {"id": "t", "commit": "c", "model": "m", "task": "task", "outcome": None}
        return orjson.dumps({**header, "tokens": [], "frames": made})

    unread = data('{"fee": "$1,500", "fee": 2}')
    assert core(unread, "It costs $1,500.", humans=True) == ["f1"]
    assert reference(unread, "It costs $1,500.", humans=True) == ["f1"]
    assert isinstance(core(unread, "It costs $1,500 or $2.", humans=True), str)
    # Unless a later frame could make the reference raise: an ordinal of more digits than
    # int() takes, a scale the case-insensitive match of a text holding U+0130 finds and
    # SCALES lacks. The core then declines and the reference raises its own error.
    for later, error in [
        (f"the {'7' * 4400}th consecutive year: $1,500", ValueError),
        ("\u0130stanbul: $1,500 for 5 m\u0131llion", KeyError),
    ]:
        raising = data(later)
        assert isinstance(core(raising, "It costs $1,500.", humans=True), str)
        with pytest.raises(error):
            reference(raising, "It costs $1,500.", humans=True)


@given(st.floats(min_value=0, max_value=1e22, allow_nan=False), st.sampled_from(["price", ""]))
@example(940191251759288.25, "price")  # a tie: repr writes ...288.2
@example(1e16, "")
@settings(max_examples=300, deadline=None)
def test_structured_floats_are_read_as_repr(value: float, key: str) -> None:
    # A float is read as repr writes it (shortest digits, ties to even): "$<that>" is sourced.
    result = {key: value} if key else value
    made = [
        {"type": "tool_call", "id": "c", "name": "quote", "args": {}},
        {"type": "tool_result", "id": "c", "ok": True, "result": result},
    ]
    header = {"id": "t", "commit": "c", "model": "m", "task": "task", "outcome": None}
    data = orjson.dumps({**header, "tokens": [], "frames": made})
    answer = f"It is ${canonical(Decimal(repr(value)))}."
    found = core(data, answer, humans=True)
    assert found == reference(data, answer, humans=True)
    if extract_figures(answer) and extract_figures(answer)[0].kind == "money":
        assert found == ["f1"]


key_words = st.sampled_from(
    ["price", "Price", "PRICE", "total", "baggages", "per", "night", "id", "Id", "ID", "seat",
     "fee", "USD", "Amount", "paid", "count", "last4", "4", "\u0664", "_", "-", "x", "Xy", "é"]
)  # fmt: skip


@given(st.lists(key_words, max_size=5).map("".join), st.booleans())
@settings(max_examples=300, deadline=None)
def test_structured_keys_name_money_as_the_reference(key: str, nested: bool) -> None:
    # "$466.75" is sourced by the result's 466.75 only when the key names money (as prose,
    # 466.75 is no figure).
    result: object = {"fare": {key: 466.75}} if nested else {key: 466.75}
    made = [
        {"type": "tool_call", "id": "c", "name": "quote", "args": {}},
        {"type": "tool_result", "id": "c", "ok": True, "result": result},
    ]
    header = {"id": "t", "commit": "c", "model": "m", "task": "task", "outcome": None}
    data = orjson.dumps({**header, "tokens": [], "frames": made})
    answer = "It is $466.75."
    assert core(data, answer, humans=True) == reference(data, answer, humans=True)


def test_the_cores_structured_key_words_are_the_references():
    # The core reads a key's head words from its own copy of the two lists
    # (rust/src/native/figure_sources/structured.rs): held here to the reference's.
    money, other = _core.native_key_words()

    assert (sorted(money), sorted(other)) == (sorted(_MONEY_WORDS), sorted(_OTHER_WORDS))
    assert len(money) == len(set(money))
    assert len(other) == len(set(other))
