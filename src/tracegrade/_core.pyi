"""Types of the compiled core (rust/, built by maturin); see tracegrade._engine."""

from collections.abc import Sequence
from typing import Literal

from tracegrade.claims._answer_claim import ClaimKind
from tracegrade.figures._model import FigureKind, Hedge
from tracegrade.verdicts._model import (
    Grade,
    GradedAnswerClaim,
    GradedClaim,
    GradedFigure,
    Sighting,
)

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
    ) -> list[tuple[ClaimKind, str, str, int, int, tuple[str, ...], bool, bool]] | None: ...
    def hedged_spans(self, answer: str) -> list[tuple[int, int]] | None: ...

class FigureExtractor:
    def __init__(
        self,
        patterns: list[tuple[str, bool]],
        hedges: list[tuple[str, str]],
        hedge_window: int,
        hedge_after: str,
        scales: list[tuple[str, int]],
        word_values: list[tuple[str, int]],
        ordinals: list[str],
        qualifiers: list[tuple[str, str]],
    ) -> None: ...
    def figures(
        self, text: str, distinct: bool = False
    ) -> list[tuple[FigureKind, str, str, int, int, Hedge | None]] | None: ...
    def numbers(self, text: str) -> list[str] | None: ...
    def index(
        self,
        text: str,
        evidence: str,
        known: dict[str, str],
        approximate: dict[str, str],
        numbers: dict[str, str] | None,
        echoed: set[str],
    ) -> bool: ...

def json_depth_within(data: bytes | str, limit: int) -> bool: ...
def redaction_scan(values: object, needles: list[str]) -> tuple[list[int], list[str]]: ...

class NativeGrader:
    def __init__(
        self,
        extractor: FigureExtractor,
        scanner: ClaimScanner,
        models: tuple[
            type[Grade],
            type[GradedClaim],
            type[Sighting],
            type[GradedFigure],
            type[GradedAnswerClaim],
        ],
    ) -> None: ...
    def question(
        self,
        id: str,
        facts: Sequence[tuple[str, str]],
        truth_file: str | None,
        tell: str | None,
    ) -> NativeQuestion: ...
    def grade(
        self,
        data: bytes,
        question: NativeQuestion,
        auto: bool,
        redaction: RedactionPatterns | None = None,
    ) -> tuple[Grade, list[str]] | None: ...
    def grade_file(
        self,
        path: str,
        question: NativeQuestion,
        auto: bool,
        redaction: RedactionPatterns | None = None,
    ) -> tuple[bool, tuple[Grade, list[str]] | None]: ...

class NativeQuestion: ...

class RedactionPatterns:
    def __init__(
        self,
        rules: list[
            tuple[
                str,
                str,
                int,
                bool,
                list[str],
                int,
                str | None,
                tuple[str, int] | None,
                bool,
                str,
            ]
        ],
        not_values: list[str],
        key_parts: list[str] | None = None,
    ) -> None: ...
    @property
    def counts(self) -> tuple[int, int]: ...
    def declines(self, data: bytes) -> str | None: ...

# Test hooks of the native path's stages (tests/engines/test_native_*.py): a stage's values
# from a trace's bytes, or (a str) why the core declined it.
def native_figure_evidence(
    data: bytes, answer: str, humans: bool, extractor: FigureExtractor
) -> list[str | None] | str: ...
def native_trace_values(
    data: bytes,
) -> tuple[str, str, str | None, tuple[tuple[str | bool, ...], ...]] | None: ...
def native_observe_check(
    data: bytes, needles: list[str], forms: list[str]
) -> (
    tuple[
        int,
        list[list[list[str]]],
        list[list[list[str]]],
        list[list[tuple[str, int, str, int | float, str]]],
    ]
    | str
): ...
def native_trace_frames(data: bytes) -> int | None: ...
def native_json_text(
    data: bytes,
) -> tuple[Literal["read", "declined"], str] | tuple[Literal["not json"], None]: ...
def native_answer_claims(
    answer: str, asked: list[str], extractor: FigureExtractor, scanner: ClaimScanner
) -> list[tuple[ClaimKind, str, str, int, int, tuple[str, ...], bool, bool]] | str: ...
def native_extracted(
    data: bytes, answer: str, extractor: FigureExtractor, scanner: ClaimScanner
) -> list[tuple[ClaimKind, str, str, int, int, bool, bool, str, tuple[str, ...]]] | str: ...
def native_unicode_variants(form: str) -> list[str]: ...
def native_key_words() -> tuple[list[str], list[str]]: ...
