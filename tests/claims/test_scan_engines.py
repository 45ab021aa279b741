"""The compiled claim scanners (rust/src/claims/) against their reference, claims/_scan.py.

For any answer both engines must find the same claims (kind, raw, text, code-point offsets,
forms, hedge flag) and the same hedged sentences; where the reference raises, the core
declines and the reference runs. Hypothesis builds answers from the pieces every rule turns
on (capitals, connectors, paths, dates, quotes, non-ASCII letters, combining marks, digits of
other scripts); every real answer of the corpus is compared too.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_root
from tracegrade import _core
from tracegrade.claims._scan import _hedged_spans, reference_scan_claims, scan_claims
from tracegrade.claims._scan_core import _scanner
from tracegrade.traces import parse_native_trace, read_traces

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.claims._answer_claim import AnswerClaim

SCANNER = _scanner(_core)

PIECES = [
    # Prose, names and their connectors, titles, initials, abbreviations, places.
    "The", "President", "Bashar", "al-Assad", "d'Arc", "of", "van", "de", "y", "Ludwig",
    "House", "Dr.", "J.", "K.", "I", "I'm", "TV", "PM", "NASA", "USA", "Belgian", "Western",
    "Australia", "Islamization", "Latvia", "Italy", "Inc", "Jr", "FC", "Bolton-born",
    "Omura's", "O'Brien", "West", "Ham", "United", "However", "Key", "Points", "it", "was",
    "may", "May", "likely", "try", "try opening", "I think", "not sure", "word", "and",
    # Code: paths, URLs, domains, e-mails, identifiers, ids, extensions.
    "a/b/c.py", "src/x.ts", "~/x", "./a", "../b/", "and/or", "24/7", "https://x.org/a.",
    "www.example.com", "en.wikipedia.org/wiki/X", "EXAMPLE.CO/x", "example.com", "a.b@ex.io",
    "MODEL_NAME", "maxBatch", "os.path.join()", "getHTTPResponse", "a.b()x", "README.md",
    ".avif", ".env", "ZFA04Y", "NOS-183", "Su-24", "F-16", "5kg", "17-year-old", "1990s",
    # Dates, times, quantities, scores, ordinals.
    "August 8", "8th of Aug.", "Sept. 3", "3 Sept", "2024-03-03", "Monday", "March", "2 pm",
    "14:00", "7:30 a.m.", "10am", "23:59:", "16 countries", "twenty-five goals", "Seven",
    "three films", "one of", "38-30", "3 \u2013 1", "5th", "fifth", "Twentieth", "0th", "11th",
    # Marks and layout.
    " ", " ", " ", "  ", "\t", "\n", "\n\n", ". ", ", ", "!", "? ", ":", ";", "(", ")", "-",
    "\u2013", "'", "\u2019", "\u2018", '"', "\u201c", "\u201d", "`", "```", "**", ":**", "# ",
    "## ", "| a | b |\n|---|---|\n", "|", "/", "@", "_", "+", ".", "*", "#", ">", "\u2022",
    # Unicode: accents (composed and not), other scripts and digits, case-folding oddities.
    "Caf\u00e9", "Cafe\u0301", "Jose\u0301_x", "\u00d1and\u00fa",
    "\u0395\u03bb\u03bb\u03ac\u03b4\u03b1",
    "\u041c\u043e\u0441\u043a\u0432\u0430", "\u212a", "\u0130stanbul", "\u017f", "\u0131o",
    "\u0663", "\u0661\u0662", "\uff11", "\u00b2", "\u0301", "\u65e5\u672c", "\u01c5", "\u00df",
    "\u00a0", "\u2028", "\u0374", "\u0483",
]  # fmt: skip

# Each kind's shape with its edges: hours past 23, minutes past 59, four-digit scores,
# days past 31, Unicode digits (``\d``), ids and units, dotted and snake code.
SHAPES = [
    r"[0-2]?[0-9](:[0-6][0-9])?( ?[apAP]\.?[mM]\.?)?",
    r"\d{1,4}( ?[-\u2013] ?\d{1,4})?[,.]?",
    r"[12][0-9]{3}-[0-1][0-9]-[0-3][0-9]",
    r"[0-3]?[0-9](st|nd|rd|th)?( of)? (Jan|March|May|Sept|Dec)\.?",
    r"(Aug|June|Sept)\.? [0-3]?[0-9](st|th)?[:.]?",
    r"\d{1,3}[ -](year-old|km|goals|and|of|pm|Points|people-)",
    r"[A-Za-z]{1,3}-?[0-9]{1,3}[a-z]?(-[A-Z0-9]{1,2})?",
    r"[a-z_]{1,4}(\.[a-z_]{1,4}){1,2}(\(\))?|[A-Z][a-z]+[A-Z][a-z0-9]*",
    r"(twenty|Seven|thirty|one|five|eleven)([- ](five|one|nine))? (goals|of|times)",
]
pieces = st.one_of(
    st.sampled_from(PIECES),
    st.characters(exclude_categories=["Cs"]),
    st.text(st.characters(codec="ascii"), max_size=4),
    # Numbers and what follows them: times, scores, dates, units, versions.
    st.text("0123456789:.,-/ apmAPMst\u2013", min_size=1, max_size=7),
    *(st.from_regex(shape, fullmatch=True) for shape in SHAPES),
)
# Run together (shapes inside words) or spaced (shapes standing alone).
answers = st.one_of(
    st.lists(pieces, max_size=40).map("".join), st.lists(pieces, max_size=30).map(" ".join)
)


def _compiled(answer: str) -> list[AnswerClaim] | None:
    found = SCANNER.scan(answer)
    return None if found is None else scan_claims(answer)


def _reference(answer: str) -> list[AnswerClaim] | type[Exception]:
    try:
        return reference_scan_claims(answer)
    except Exception as error:  # noqa: BLE001 (the engines must fail alike)
        return type(error)


def _agree(answer: str) -> None:
    reference = _reference(answer)
    if isinstance(reference, type):  # the core declines; the reference runs and raises
        assert SCANNER.scan(answer) is None
        with pytest.raises(reference):
            scan_claims(answer)
        return
    if any("\ud800" <= char <= "\udfff" for char in answer):  # no Rust string holds one
        assert SCANNER.scan(answer) is None
        assert SCANNER.hedged_spans(answer) is None
        assert scan_claims(answer) == reference
        return
    assert SCANNER.scan(answer) is not None, "the core declined an answer it can take"
    assert _compiled(answer) == reference
    assert SCANNER.hedged_spans(answer) == _hedged_spans(answer)


@pytest.fixture(autouse=True)
def _compiled_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)


@settings(max_examples=1500, deadline=None)
@given(answers)
@example("Y Inc")  # the reference raises on this name (no word is left but a connector)
@example("Jose\u0301_x met Cafe\u0301 Ole\u0301-9")  # a capital word ends before its accent
@example("Call at 10:305 or 1:3, see 23:59:, ok at 2:05.")
def test_engines_agree_on_generated_answers(answer: str) -> None:
    _agree(answer)


def test_a_lone_surrogate_goes_to_the_reference() -> None:
    answer = "Ludwig van Beethoven \ud800 wrote a/b/c.py"
    assert SCANNER.scan(answer) is None
    assert SCANNER.hedged_spans(answer) is None
    assert scan_claims(answer) == reference_scan_claims(answer) != []


@settings(max_examples=200, deadline=None)
@given(answers, st.characters(categories=["Cs"]), st.integers(min_value=0))
def test_any_answer_with_a_lone_surrogate_goes_to_the_reference(
    answer: str, surrogate: str, position: int
) -> None:
    at = position % (len(answer) + 1)
    _agree(answer[:at] + surrogate + answer[at:])


def _corpus_answers(source: str) -> Iterator[str]:
    root = corpus_root()
    if source == "nine-commits":
        for path in sorted((root / "nine-commits" / "traces").rglob("*.json")):
            yield parse_native_trace(path.read_bytes()).final_answer
    elif source == "faithbench":
        with (root / "faithbench" / "faithbench.jsonl").open(encoding="utf-8") as lines:
            for line in lines:
                yield json.loads(line)["sample"]["summary"]
    else:
        for path in sorted((root / "tau_bench").glob("*.json")):
            for trace in read_traces(path):
                yield trace.final_answer


@pytest.mark.parametrize("source", ["nine-commits", "faithbench", "tau_bench"])
def test_engines_agree_on_every_corpus_answer(source: str) -> None:
    if not (corpus_root() / source).is_dir():
        pytest.skip(f"real corpus not found at {corpus_root() / source}: set TRACEGRADE_CORPUS")
    seen = 0
    for answer in _corpus_answers(source):
        _agree(answer)
        seen += 1
    assert seen >= 10
