"""The answer's claims on the native fast path (rust/src/native/answer_claims.rs) against the
Python pipeline, ``extract_answer_claims(answer, asked=..., figures=...)``; and with their
support (answer_support.rs) against ``grade_extracted``, on whole native traces.

Every claim must match field for field (kind, raw, text, code-point offsets, forms, hedged,
given; the Unicode forms of accented claims by the core's own normalisation, held to
``unicodedata`` for every character). Where the fast path declines it says why: only for a
text the compiled figure extractor leaves to the reference (an ``İ``), or a lone surrogate;
never on a nine-commits answer or a FaithBench summary.
Hypothesis answers come from the claim scanners' own pieces (tests/claims) and the engine
tests' vocabulary (tests/engines), asked texts from the same pieces. Support is compared on
every nine-commits trace and on the engine tests' generated inputs (tests/engines/_generate.py),
where any input the reference refuses must be declined.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import TYPE_CHECKING

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.claims.test_scan_engines import answers, pieces
from tests.conftest import corpus_root
from tests.engines._generate import generated_inputs
from tests.engines._vocabulary import FIGURES, FILES, IDENTIFIERS
from tracegrade import _core
from tracegrade.claims import extract_answer_claims
from tracegrade.claims._answer_claim import AnswerClaim
from tracegrade.claims._scan import _unicode_variants
from tracegrade.claims._scan_core import _scanner
from tracegrade.errors import TracegradeError
from tracegrade.figures import extract_figures
from tracegrade.figures._find import compiled_extractor
from tracegrade.observations import observe
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts import asked_texts
from tracegrade.verdicts._grade import grade_extracted, grade_figures

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tracegrade._core import FigureExtractor

SCANNER = _scanner(_core)
ANSWER_FIGURES = "the answer's figures are left to the reference"
ASKED_FIGURES = "a user message's figures are left to the reference"


@pytest.fixture(autouse=True)
def _compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)


def _extractor() -> FigureExtractor:
    extractor = compiled_extractor()
    assert extractor is not None
    return extractor


def _reference(answer: str, asked: Sequence[str]) -> tuple[AnswerClaim, ...]:
    return extract_answer_claims(answer, asked=asked, figures=extract_figures(answer))


def _agree(answer: str, asked: Sequence[str]) -> str | None:
    """Compare the engines on one answer; the fast path's reason when it declines."""
    reference = _reference(answer, asked)
    found = _core.native_answer_claims(answer, list(asked), _extractor(), SCANNER)
    if isinstance(found, str):
        # Declined: only for a reason the reference bears out.
        extractor = _extractor()
        if found == ANSWER_FIGURES:  # the compiled extractor leaves them to the reference
            assert extractor.figures(answer) is None, f"declined {answer!r} for nothing"
        else:
            assert found == ASKED_FIGURES, f"declined {answer!r}: {found}"
            assert reference, "an answer with no claim needs no asked figures"
            assert any(extractor.figures(text) is None for text in asked), f"declined {asked!r}"
        return found
    assert [AnswerClaim(*claim) for claim in found] == list(reference)
    return None


def _asked_of(asked: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(asked))  # as asked_texts: each text once, in order


asked_texts_strategy = st.lists(
    st.one_of(answers, st.sampled_from([*FIGURES, *FILES, *IDENTIFIERS])), max_size=3
).map(_asked_of)
answers_with_figures = st.lists(
    st.one_of(pieces, st.sampled_from([*FIGURES, *FILES, *IDENTIFIERS])), max_size=30
).map(" ".join)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(answers, answers_with_figures), asked_texts_strategy)
@example("About $3 million in src/a.ts, see NOS-18.", ("$2,956,737 in SRC/A.TS", "nos-183"))
@example("He met Cafe\u0301 Ole\u0301 in \u201cParis\u201d.", ("caf\u00e9",))
@example("Angoul\u00eame and \ud55c\uad6d", ("angouleme",))
@example("It likely costs $5-10 million.", ())
@example("docs/\u0130stanbul.md", ())  # its lower case is longer: figures by the reference
@example("It cost $5.", ("\u0130 paid $5",))
def test_engines_agree_on_generated_answers(answer: str, asked: tuple[str, ...]) -> None:
    _agree(answer, asked)


def test_a_lone_surrogate_is_declined() -> None:
    found = _core.native_answer_claims("Ludwig \ud800 van", [], _extractor(), SCANNER)
    assert isinstance(found, str)
    assert "surrogate" in found


def _nine_commits() -> Iterator[tuple[str, tuple[str, ...]]]:
    folder = corpus_root() / "nine-commits" / "traces"
    if not folder.is_dir():
        pytest.skip(f"real corpus not found at {folder}: set TRACEGRADE_CORPUS")
    for path in sorted(folder.rglob("*.json")):
        trace = parse_native_trace(path.read_bytes())
        yield trace.final_answer, asked_texts(trace)


def _faithbench() -> Iterator[tuple[str, tuple[str, ...]]]:
    path = corpus_root() / "faithbench" / "faithbench.jsonl"
    if not path.is_file():
        pytest.skip(f"real corpus file not found at {path}: set TRACEGRADE_CORPUS")
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            sample = json.loads(line)["sample"]
            yield sample["summary"], (sample["source"],)


def test_every_nine_commits_answer_without_a_decline() -> None:
    seen = 0
    for answer, asked in _nine_commits():
        assert _agree(answer, asked) is None, f"the fast path declined {answer[:60]!r}"
        seen += 1
    assert seen >= 9


def test_every_faithbench_summary_without_a_decline() -> None:
    seen = 0
    for answer, asked in _faithbench():
        assert _agree(answer, asked) is None, f"the fast path declined {answer[:60]!r}"
        seen += 1
    assert seen >= 100


def test_unicode_forms_of_every_character() -> None:
    for code in range(sys.maxunicode + 1):
        if not 0xD800 <= code <= 0xDFFF:
            char = chr(code)
            assert _core.native_unicode_variants(char) == _unicode_variants(char), hex(code)


# Letters that decompose, marks of several classes (in and out of canonical order), Hangul
# jamo and syllables, singletons and excluded composites.
ACCENTED = "AaEeOoUuCcSsIi\u00e9\u00c5\u1e63\u0301\u0323\u0302\u0308\u0327\u031b\u0345\u05b0\u0f71"
ACCENTED += "\u1100\u1161\u11a8\uac00\ud55c\u212b\u2000\u0344\u0958\u0b47\u0b3e\u0cc6\u0cd5"


@settings(max_examples=2000, deadline=None)
@given(st.text(st.sampled_from(ACCENTED), max_size=12))
def test_unicode_forms_of_generated_texts(form: str) -> None:
    assert _core.native_unicode_variants(form) == _unicode_variants(form)


# --- Support, on whole traces -----------------------------------------------------------------


def _reference_extracted(data: bytes) -> tuple[str, list[tuple[object, ...]]] | None:
    """The trace's answer and ``grade_extracted``'s values; ``None`` when it is refused."""
    try:
        trace = parse_native_trace(data)
        observations = observe(trace)
    except (TracegradeError, ValueError):
        return None
    answer = trace.final_answer
    found = extract_figures(answer)
    figures = grade_figures(trace, answer, found=found)
    extracted = grade_extracted(trace, observations, figures, found=found)
    return answer, [tuple(item.values()) for item in extracted]


def _support_agrees(data: bytes, answer: str, reference: list[tuple[object, ...]]) -> str | None:
    found = _core.native_extracted(data, answer, _extractor(), SCANNER)
    if isinstance(found, str):
        return found
    assert [tuple(item) for item in found] == reference
    return None


def test_support_on_every_nine_commits_trace_without_a_decline() -> None:
    folder = corpus_root() / "nine-commits" / "traces"
    if not folder.is_dir():
        pytest.skip(f"real corpus not found at {folder}: set TRACEGRADE_CORPUS")
    paths = sorted(folder.rglob("*.json"))
    for path in paths:
        data = path.read_bytes()
        reference = _reference_extracted(data)
        assert reference is not None, f"{path.name}: the reference refuses a corpus trace"
        assert _support_agrees(data, *reference) is None, f"the fast path declined {path.name}"
    assert len(paths) >= 9


def test_support_on_generated_traces(capsys: pytest.CaptureFixture[str]) -> None:
    compared = refused = 0
    declined: Counter[str] = Counter()
    for generated in generated_inputs(400):
        if generated.family not in ("native", "realistic"):
            continue
        reference = _reference_extracted(generated.data)
        if reference is None:  # the reference refuses it: the fast path must decline
            answer = ""
            found = _core.native_extracted(generated.data, answer, _extractor(), SCANNER)
            assert isinstance(found, str), f"input {generated.number}: not declined"
            refused += 1
            continue
        reason = _support_agrees(generated.data, *reference)
        if reason is not None:
            declined[reason] += 1
        compared += 1
    assert compared >= 100
    assert sum(declined.values()) < compared / 2
    with capsys.disabled():
        print(f"\ngenerated: {compared} compared, {refused} refused and declined; declined:")
        for reason, count in declined.most_common():
            print(f"  {count:4}  {reason}")
