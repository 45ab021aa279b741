"""Both engines give the same searches, grades and errors on every real and fixture file.

Each file is read, observed and graded once with ``TRACEGRADE_CORE=python`` (the reference)
and once with the compiled core (tests/helpers/engines.py); the trace as read (redacted),
every search of words drawn from the trace itself (the answer, the tool results, the file
names, in both cases) and the whole grade must agree, and a file that fails must fail with
the same error class and message. Generated traces: tests/engines/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.conftest import REPO, corpus_root
from tests.helpers.engines import both_engines
from tracegrade.errors import TracegradeError
from tracegrade.observations import LineObservation, PathObservation, observe
from tracegrade.traces import read_traces
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.observations import Observations
    from tracegrade.traces import Trace

MAX_TRACES = 40  # per file: the large JSONL files hold hundreds of runs
MAX_NEEDLES = 400  # per trace


def _files() -> list[Path]:
    corpus = corpus_root()
    found = sorted(p for p in (REPO / "tests" / "fixtures").rglob("*") if p.is_file())
    if corpus.is_dir():
        found += sorted(p for p in corpus.rglob("*") if p.is_file())
    return found


def _params() -> list[object]:
    return [
        pytest.param(p, marks=[pytest.mark.corpus] if corpus_root() in p.parents else [])
        for p in _files()
    ]


def _needles(trace: Trace, observations: Observations) -> list[str]:
    words: list[str] = []
    words += trace.final_answer.split()
    for obs in observations:
        if isinstance(obs, LineObservation):
            words += obs.text.split()[:6]
            words.append(obs.file)
        elif isinstance(obs, PathObservation):
            words.append(obs.file)
        if len(words) > MAX_NEEDLES:
            break
    distinct = list(dict.fromkeys(words))[:MAX_NEEDLES]
    return distinct + [word.swapcase() for word in distinct[:50]] + ["", "a\nb"]


def _outcome(path: Path) -> list[object]:
    """Everything the index decides for one file, or the error reading it raised."""
    try:
        traces = list(read_traces(path))
    except TracegradeError as error:
        return [("error", type(error).__name__, str(error))]
    results: list[object] = []
    for trace in traces[:MAX_TRACES]:
        try:
            observations = observe(trace)
            graded = grade(trace).model_dump(mode="json")
        except TracegradeError as error:
            results.append(("error", type(error).__name__, str(error)))
            continue
        needles = _needles(trace, observations)
        searches = [
            observations.find_ids(needle, where)
            for needle in needles
            for where in ("text", "source", "name")
        ]
        results.append((trace.model_dump(mode="json"), graded, needles, searches))
    return results


@pytest.mark.parametrize("path", _params(), ids=lambda p: p.name)
def test_both_engines_agree_on_every_file(path: Path):
    reference, compiled = both_engines(lambda: _outcome(path))
    assert compiled == reference


def test_the_corpus_is_part_of_the_comparison():
    if not corpus_root().is_dir():
        pytest.skip(f"real corpus not found at {corpus_root()}: set TRACEGRADE_CORPUS")
    assert sum(1 for p in _files() if corpus_root() in p.parents) >= 30
