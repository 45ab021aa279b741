"""Types of the compiled core (rust/, built by maturin); see tracegrade._engine."""

from collections.abc import Sequence

from tracegrade.claims._answer_claim import ClaimKind

UNICODE_VERSION: str

def lower(text: str) -> str: ...
def present_needles(text: str, needles: list[str]) -> list[int]: ...

class TextIndex:
    @property
    def total(self) -> int: ...
    def __init__(self, pieces: Sequence[str], counts: Sequence[int]) -> None: ...
    def search(self, needle: str) -> list[tuple[int, int]] | None: ...
    def find_words(self, forms: Sequence[str]) -> list[list[tuple[int, int]] | None]: ...

class ClaimScanner:
    def __init__(
        self,
        words: dict[str, list[str]],
        places: list[list[str]],
        abbreviations: list[list[str]],
        numbers: list[tuple[str, int]],
    ) -> None: ...
    def scan(
        self, answer: str
    ) -> (
        tuple[list[tuple[ClaimKind, str, str, int, int, tuple[str, ...], bool, bool]], list[int]]
        | None
    ): ...
    def hedged_spans(self, answer: str) -> list[tuple[int, int]] | None: ...
