"""AnswerClaim: one checkable thing an answer asserts, and how a source shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade._text import form_pattern

if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

__all__ = ["AnswerClaim", "ClaimKind", "form_pattern", "shown_in"]

ClaimKind = Literal[
    "figure", "path", "url", "email", "identifier", "quote", "id", "date", "name", "quantity"
]


@dataclass(frozen=True, slots=True)
class AnswerClaim:
    """One checkable thing the answer asserts, found with no question file.

    Attributes:
        kind: What was found: ``figure``, ``path``, ``url``, ``email``, ``identifier``,
            ``quote``, ``id``, ``date``, ``name`` or ``quantity``.
        raw: As written in the answer, ``answer[start:end]``.
        text: Normalised; two claims of one kind with the same text are the same claim.
        start: Where ``raw`` starts in the answer.
        end: Where ``raw`` ends (exclusive).
        forms: The written forms any of which, found in a source as a whole word (compared
            case-insensitively), shows the claim; never empty. Figures are looked up by
            value instead (docs/figures.md) and keep their raw text here.
        hedged: The sentence only guesses ("likely", "might", "try opening"): still graded,
            reported apart.
        given: The user's own messages said it: reported, never counted as unsupported.
    """

    kind: ClaimKind
    raw: str
    text: str
    start: int
    end: int
    forms: tuple[str, ...]
    hedged: bool = False
    given: bool = False


def shown_in(form: str, texts: Sequence[str], lowered: Sequence[str] | None = None) -> bool:
    """Whether any text holds ``form`` as a whole word, case-insensitively.

    ``lowered`` is each text's ``str.lower()``, when the caller asks about many forms.
    """
    form_lower = form.lower()
    pattern: re.Pattern[str] | None = None
    for at, text in enumerate(texts):
        low = lowered[at] if lowered is not None else text.lower()
        if form_lower not in low:
            continue
        pattern = pattern or form_pattern(form)
        if pattern.search(text):
            return True
    return False
