"""Support of extracted claims: both engines give the same labels and evidence ids.

The compiled core finds every form of a trace's claims in one call per field
(``TextIndex.find_words``); the Python reference (``TRACEGRADE_CORE=python``) is held to the
definition here too, observation by observation: a form is shown by a line's text or its
source name (``read``; a document's name counts at its first line) or a path observation's
name (``named-only``) when that text holds it case-insensitively and ``form_pattern`` matches
it (any hit for a form with no letter or digit at either end). Hypothesis draws the sources of
every kind and the forms; then every extracted claim of every corpus trace (nine-commits,
tau-bench, FaithBench) graded with no question must come out alike.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_root
from tests.helpers.strategies import FLIPS, word_texts
from tracegrade._engine import ENGINE_VARIABLE
from tracegrade._text import word_test
from tracegrade.claims import AnswerClaim
from tracegrade.observations import (
    Document,
    LineObservation,
    Lines,
    Names,
    Observations,
    PathObservation,
    Ranked,
)
from tracegrade.support import support_answer_claims
from tracegrade.traces import read_traces
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tracegrade.observations import Source
    from tracegrade.traces import Trace


@contextmanager
def engine(name: str) -> Iterator[None]:
    """Run the block with ``TRACEGRADE_CORE=name`` (Hypothesis cannot take monkeypatch)."""
    before = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = name
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENGINE_VARIABLE]
        else:
            os.environ[ENGINE_VARIABLE] = before


names = st.lists(word_texts, max_size=3).map(tuple)
sources: st.SearchStrategy[Source] = st.one_of(
    names.map(Names),
    st.lists(st.tuples(word_texts, st.integers(1, 9), word_texts), max_size=3).map(Lines.of),
    st.builds(Document, word_texts, st.lists(word_texts, max_size=3).map("\n".join)),
    st.lists(st.tuples(word_texts, word_texts), max_size=3).map(
        lambda rows: Ranked(tuple(r[0] for r in rows), tuple(r[1] for r in rows))
    ),
)
placed = st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["a", "b"]), sources), max_size=4)


def _observations(drawn: list[tuple[int, str, Source]]) -> Observations:
    return Observations(sorted(drawn, key=lambda item: item[0]))


@st.composite
def claims_for(draw: st.DrawFn, observations: Observations) -> list[AnswerClaim]:
    """Claims of one to three forms, mostly cut from what the observations show."""
    seen = [o.text for o in observations if isinstance(o, LineObservation)]
    seen += [o.file for o in observations]
    seen = [text for text in seen if text]
    found: list[AnswerClaim] = []
    for _ in range(draw(st.integers(1, 5))):
        forms: list[str] = []
        for _ in range(draw(st.integers(1, 3))):
            cut: bool = draw(st.booleans())
            if seen and cut:
                text = draw(st.sampled_from(seen))
                start = draw(st.integers(0, len(text)))
                end = draw(st.integers(start, len(text)))
                forms.append(draw(st.sampled_from(FLIPS))(text[start:end]))
            else:
                forms.append(draw(word_texts))
        found.append(AnswerClaim("id", forms[0], forms[0], 0, len(forms[0]), tuple(forms)))
    return found


def _shows(form: str, text: str) -> bool:
    word = word_test(form)
    return form.lower() in text.lower() and (word is None or bool(word(text)))


def _definition(claim: AnswerClaim, observations: Observations) -> tuple[str, tuple[str, ...]]:
    """The support of one claim, observation by observation."""
    every = list(observations)
    read: list[str] = []
    for form in claim.forms:
        read += [o.id for o in every if isinstance(o, LineObservation) and _shows(form, o.text)]
        read += _by_source(form, observations)
    if read:
        return "read", tuple(dict.fromkeys(read))
    named = [
        o.id
        for form in claim.forms
        for o in every
        if isinstance(o, PathObservation) and _shows(form, o.file)
    ]
    return ("named-only", tuple(dict.fromkeys(named))) if named else ("unsupported", ())


def _by_source(form: str, observations: Observations) -> list[str]:
    """Ids of the line observations whose source name shows ``form``, in order."""
    found: list[str] = []
    every = iter(observations)
    for _, _, source in observations.sources:
        if isinstance(source, Document):
            count = len(source.text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
        elif isinstance(source, Ranked):
            count = 2 * len(source.files)
        else:
            count = len(source.files)
        segment = [next(every) for _ in range(count)]
        lines = [o for o in segment if isinstance(o, LineObservation)]
        if isinstance(source, Document):
            lines = lines[:1]  # a document's name is cited once, at its first line
        found += [o.id for o in lines if _shows(form, o.file)]
    return found


def _support(claims: Sequence[AnswerClaim], drawn: list[tuple[int, str, Source]]) -> list[object]:
    observations = _observations(drawn)
    return [(s.support, s.evidence) for s in support_answer_claims(claims, observations, {})]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), drawn=placed)
def test_both_engines_support_drawn_claims_by_the_definition(
    data: st.DataObject, drawn: list[tuple[int, str, Source]]
):
    claims = data.draw(claims_for(_observations(drawn)))
    with engine("python"):
        reference = _support(claims, drawn)
        defined = [_definition(claim, _observations(drawn)) for claim in claims]
    with engine("compiled"):
        compiled = _support(claims, drawn)
    assert compiled == reference
    assert reference == defined


# --- Every extracted claim of every corpus trace -------------------------------------------------


def _corpus_traces() -> Iterator[tuple[str, Trace]]:
    root = corpus_root()
    for path in sorted((root / "nine-commits" / "traces").rglob("*.json")):
        yield from ((f"nine-commits/{path.name}", trace) for trace in read_traces(path))
    for path in sorted((root / "tau_bench").glob("*.json")):
        yield from ((path.name, trace) for trace in read_traces(path))
    faithbench = root / "faithbench" / "faithbench.jsonl"
    if faithbench.is_file():
        from benchmarks._claims_faithbench import as_trace  # noqa: PLC0415 (corpus only)
        from benchmarks._faithbench import load_samples  # noqa: PLC0415

        yield from (("faithbench", as_trace(sample)) for sample in load_samples(faithbench))


def _extracted(trace: Trace) -> list[tuple[object, ...]]:
    return [
        (claim.kind, claim.raw, claim.start, claim.support, claim.evidence)
        for claim in grade(trace).extracted
    ]


@pytest.mark.corpus
def test_both_engines_support_every_claim_of_the_corpus():
    if not corpus_root().is_dir():
        pytest.skip(f"real corpus not found at {corpus_root()}: set TRACEGRADE_CORPUS")
    traces = list(_corpus_traces())
    supports: dict[str, int] = {}
    for name, trace in traces:
        with engine("python"):
            reference = _extracted(trace)
        with engine("compiled"):
            compiled = _extracted(trace)
        assert compiled == reference, f"{name} {trace.id}"
        for item in reference:
            supports[str(item[3])] = supports.get(str(item[3]), 0) + 1
    sources = {name.split("_")[0] for name, _ in traces}
    assert {"faithbench", "taubench", "tau2"} <= sources
    assert sum(name.startswith("nine-commits/") for name, _ in traces) == 18
    assert len(traces) >= 500  # every trace, none skipped
    assert supports.get("read", 0) > 100
    assert supports.get("unsupported", 0) > 100
    assert supports.get("named-only", 0) > 0
