"""Every hand-written fact of the nine-commits suite that an answer holds comes out of extraction.

Reads the corpus in place ($TRACEGRADE_CORPUS); skipped with a reason when absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.claims.facts import covers, fact_coverage, nine_commits_coverage
from tests.helpers.builders import assistant, make_trace, user
from tracegrade.claims import Question
from tracegrade.traces import read_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.corpus


def test_each_fact_in_an_answer_is_an_extracted_claim_with_the_facts_support(
    nine_commits: Path,
) -> None:
    found = nine_commits_coverage(nine_commits)
    assert len(found) == 11  # the post-5 suite's facts that its answers hold
    missing = [(item.trace, item.fact, item.fact_support, item.claim) for item in found
               if not item.held]  # fmt: skip
    assert missing == []


def test_a_fact_no_claim_holds_is_reported_missing(nine_commits: Path) -> None:
    # The gate goes red: a fact text written in the answer as part of no claim.
    question = Question(id="q", facts=({"id": "word", "text": "exports"},))
    graded = grade(read_trace(nine_commits / "03-the-loop/trace.json"), question, auto=True)
    (item,) = fact_coverage(graded, "03-the-loop/trace.json")
    assert item.claim is None
    assert not item.held


def test_coverage_is_by_whole_word() -> None:
    (claim,) = grade(make_trace([user(), assistant("Set in agent/src/config.ts.")])).extracted
    assert covers(claim, "config.ts")
    assert not covers(claim, "onfig.ts")
