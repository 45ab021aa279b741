"""Questions: what a run was asked, and which facts a right answer states."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

__all__ = ["Fact", "Question"]

_NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class Fact(BaseModel):
    """A string the final answer is expected to contain.

    Attributes:
        id: Short name, used in ``unread`` lists.
        text: The string; matched case-insensitively as a plain substring.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: _NonEmpty
    text: _NonEmpty


class Question(BaseModel):
    """A question a run answers, and how to check its answer.

    Attributes:
        id: The question's id, named by suite cases.
        prompt: The question as asked (informational only).
        facts: Expected facts, in order; none means the answer cannot be graded.
        truth_file: The one source that answers the question, compared by exact string
            equality with an observation's source (a repo path, a URL).
        tell: A string whose presence on a line means that line states the answer.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: _NonEmpty
    prompt: StrictStr = ""
    facts: tuple[Fact, ...] = ()
    truth_file: _NonEmpty | None = None
    tell: _NonEmpty | None = None

    @model_validator(mode="after")
    def _unique_fact_ids(self) -> Question:
        seen: set[str] = set()
        for fact in self.facts:
            if fact.id in seen:
                msg = f"fact id {fact.id!r} appears twice; fact ids must be unique"
                raise ValueError(msg)
            seen.add(fact.id)
        return self
