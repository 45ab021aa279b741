"""Properties of the pure core (Hypothesis): evidence is monotone, line search is exact."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers.builders import (
    assistant,
    call,
    make_trace,
    one_call,
    read_body,
    result,
    search_body,
    user,
)
from tests.helpers.strategies import (
    WORLD_FACTS,
    WORLD_TELL,
    WORLD_TRUTH_FILE,
    needles,
    texts,
    tool_results,
)
from tracegrade.claims import Fact, Question
from tracegrade.observations import LineObservation, observe
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from tracegrade.traces import Trace

SPEC_BREAKS = re.compile(r"\r\n|\r|\n")
RANK = {"unsupported": 0, "named-only": 1, "read": 2}
QUESTION = Question(
    id="world",
    facts=tuple(Fact(id=key, text=text) for key, text in WORLD_FACTS.items()),
    truth_file=WORLD_TRUTH_FILE,
    tell=WORLD_TELL,
)
EXAMPLES = settings(max_examples=200, deadline=None)


def run(results: list[tuple[str, Any]], answer: str) -> Trace:
    frames: list[dict[str, Any]] = [user()]
    for index, (name, body) in enumerate(results):
        frames += [call(f"c{index}", name), result(f"c{index}", True, body)]
    frames.append(assistant(answer))
    return make_trace(frames)


def position(observation_id: str) -> int:
    """0-based position within its frame of an observation id ``f{frame}.{1-based position}``."""
    return int(observation_id.rsplit(".", 1)[1]) - 1


def naive_lines_containing(text: str, needle: str) -> list[tuple[int, str]]:
    return [
        (number, line)
        for number, line in enumerate(SPEC_BREAKS.split(text), start=1)
        if needle.lower() in line.lower()
    ]


@EXAMPLES
@given(
    base=st.lists(tool_results, max_size=4),
    extra=tool_results,
    answer=st.sampled_from(["src/a.ts has 42", "42", "nothing", ""]),
)
def test_adding_evidence_never_weakens_support_or_drops_a_sighting(base, extra, answer) -> None:
    before = grade(run(base, answer), QUESTION)
    after = grade(run([*base, extra], answer), QUESTION)
    for old, new in zip(before.claims, after.claims, strict=True):
        assert RANK[new.support] >= RANK[old.support], (old, new)
        if old.support == new.support:
            assert set(old.evidence) <= set(new.evidence)
    assert set(after.unread) <= set(before.unread)
    assert set(before.truth) <= set(after.truth)
    assert set(before.copies) <= set(after.copies)
    assert after.observations >= before.observations
    assert after.answer == before.answer


@EXAMPLES
@given(text=texts)
def test_document_line_count_matches_the_spec_split(text) -> None:
    observations = observe(one_call("read_file", read_body("f", text)))
    pieces = SPEC_BREAKS.split(text)
    assert observations.count == len(pieces)
    found = [(o.line, o.text) for o in observations if isinstance(o, LineObservation)]
    assert found == list(enumerate(pieces, start=1))


@EXAMPLES
@given(text=texts, needle=needles)
def test_lines_containing_on_a_document_agrees_with_a_per_line_scan(text, needle) -> None:
    observations = observe(one_call("read_file", read_body("f", text)))
    found = [(o.line, o.text) for o in observations.lines_containing(needle)]
    assert found == naive_lines_containing(text, needle)


@EXAMPLES
@given(entries=st.lists(texts, max_size=6), needle=needles)
def test_lines_containing_on_search_entries_agrees_with_a_per_entry_scan(entries, needle) -> None:
    matches = [{"file": f"e{i}", "line": i + 1, "text": text} for i, text in enumerate(entries)]
    observations = observe(one_call("search_files", search_body(matches)))
    found = [o.line for o in observations.lines_containing(needle)]
    assert found == [i + 1 for i, text in enumerate(entries) if needle.lower() in text.lower()]


@EXAMPLES
@given(files=st.lists(texts, max_size=6), needle=needles)
def test_names_and_sources_agree_with_a_per_entry_scan(files, needle) -> None:
    expected = [i for i, file in enumerate(files) if needle.lower() in file.lower()]
    listing = observe(one_call("list_files", {"ok": True, "files": files}))
    assert [position(o.id) for o in listing.names_containing(needle)] == expected
    matches = [{"file": file, "line": 1, "text": ""} for file in files]
    search = observe(one_call("search_files", search_body(matches)))
    assert [position(o.id) for o in search.lines_from(needle)] == expected
