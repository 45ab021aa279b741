"""Hand-written facts against extracted claims: does extraction find each fact the answer holds?

Shared by the nine-commits test (tests/claims/test_nine_commits_facts.py) and benchmark item 11.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.suites.nine_commits import CASES, QUESTIONS_TOML
from tracegrade.claims import Question, form_pattern
from tracegrade.traces import read_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.verdicts import Grade, GradedAnswerClaim


@dataclass(frozen=True, slots=True)
class FactCoverage:
    """One hand-written fact that the answer holds, and the extracted claim covering it."""

    trace: str
    fact: str
    text: str
    fact_support: str
    claim: GradedAnswerClaim | None

    @property
    def held(self) -> bool:
        """Extraction found the fact, with the support the fact has."""
        return self.claim is not None and self.claim.support == self.fact_support


def covers(claim: GradedAnswerClaim, fact: str) -> bool:
    """Whether the claim's normalised text or raw text holds the fact text as a whole word."""
    pattern = form_pattern(fact)
    return any(pattern.search(written) for written in (claim.text, claim.raw))


def fact_coverage(graded: Grade, trace: str) -> list[FactCoverage]:
    """Each fact of the grade that its answer holds, with the claim covering it.

    When several claims hold the fact text, one with the fact's support is preferred.
    """
    found = []
    for fact in graded.claims:
        if not fact.in_answer:
            continue
        covering = [claim for claim in graded.extracted if covers(claim, fact.text)]
        same = [claim for claim in covering if claim.support == fact.support]
        best = (same or covering)[0] if covering else None
        found.append(FactCoverage(trace, fact.id, fact.text, fact.support, best))
    return found


def nine_commits_coverage(folder: Path) -> list[FactCoverage]:
    """Every fact of the post-5 suite's cases (tests/suites/nine_commits.py) in its answer."""
    questions = {
        entry["id"]: Question.model_validate(entry)
        for entry in tomllib.loads(QUESTIONS_TOML)["questions"]
    }
    found: list[FactCoverage] = []
    for row in CASES:
        graded = grade(read_trace(folder / row.trace), questions[row.question], auto=True)
        found += fact_coverage(graded, row.trace)
    return found
