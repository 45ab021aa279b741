"""Types of the compiled core (rust/, built by maturin); see tracegrade._engine."""

UNICODE_VERSION: str

def lower(text: str) -> str: ...

class TextIndex:
    total: int
    def __init__(self, pieces: list[str], counts: list[int]) -> None: ...
    def search(self, needle: str) -> list[tuple[int, int]] | None: ...
