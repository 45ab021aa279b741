"""Observations: what a tool result let the model see, and the sources they come from.

A decoder turns one tool result into *sources*: a list of names (:class:`Names`),
lines given one by one (:class:`Lines`), or a text split into lines
(:class:`Document`). :func:`~tracegrade.observations.observe` places them in the
trace and :class:`Observations` answers the questions grading asks ("which lines
contain this text?") over all of them.

Speed matters here: a large trace holds tens of thousands of lines. Sources keep
their text joined and lower-cased once, searches run with ``str.find`` and hits
are mapped back to line numbers by counting separators, so no per-line Python
object exists until one is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from tracegrade._text import split_lines

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

__all__ = [
    "Document",
    "LineObservation",
    "Lines",
    "Names",
    "Observation",
    "ObservationKind",
    "Observations",
    "PathObservation",
    "Source",
    "observation_id",
]

ObservationKind = Literal["path", "line"]

# Joins entries of a list so one str.find scans them all; entries containing it fall back
# to a per-entry scan.
_ENTRY_SEPARATOR = "\x00"


def observation_id(frame: int, position: int) -> str:
    """The id of the ``position``-th (1-based) observation of the result at ``frame``."""
    return f"f{frame}.{position}"


@dataclass(frozen=True, slots=True)
class PathObservation:
    """The model learned that a name exists (a file in a listing, a result URL), not its content."""

    id: str
    frame: int
    tool: str
    file: str
    kind: Literal["path"] = "path"


@dataclass(frozen=True, slots=True)
class LineObservation:
    """The model saw one line of content, with its source and line number."""

    id: str
    frame: int
    tool: str
    file: str
    line: int | float
    text: str
    kind: Literal["line"] = "line"


Observation = PathObservation | LineObservation


@dataclass(frozen=True, slots=True)
class Names:
    """Names the model saw without their content: one path observation each."""

    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Lines:
    """Lines given one by one (search matches, result snippets): one line observation each."""

    files: tuple[str, ...]
    numbers: tuple[int | float, ...]
    texts: tuple[str, ...]

    def __post_init__(self) -> None:
        if not len(self.files) == len(self.numbers) == len(self.texts):
            msg = "Lines needs as many files, numbers and texts"
            raise ValueError(msg)

    @classmethod
    def of(cls, entries: Iterable[tuple[str, int | float, str]]) -> Lines:
        """Build from ``(file, line, text)`` triples."""
        rows = tuple(entries)
        return cls(
            tuple(row[0] for row in rows),
            tuple(row[1] for row in rows),
            tuple(row[2] for row in rows),
        )


@dataclass(frozen=True, slots=True)
class Document:
    """A text from one source, split on CRLF, CR or LF into lines numbered from 1."""

    file: str
    text: str


Source = Names | Lines | Document


def _entry_hits(joined: str, needle: str, separator: str) -> list[int]:
    """Indices of the separator-delimited entries of ``joined`` that contain ``needle``.

    Each entry is reported once, in order. ``needle`` must not contain ``separator``.
    """
    hits: list[int] = []
    if not needle:
        return list(range(joined.count(separator) + 1))
    index = 0
    start = 0
    position = joined.find(needle)
    while position != -1:
        index += joined.count(separator, start, position)
        hits.append(index)
        end = joined.find(separator, position + len(needle))
        if end == -1:
            break
        start = end + 1
        index += 1
        position = joined.find(needle, start)
    return hits


def _joined_lower(texts: tuple[str, ...]) -> tuple[str, tuple[str, ...] | None]:
    """Join and lower-case entries; the per-entry fallback is kept only when needed."""
    joined = _ENTRY_SEPARATOR.join(texts)
    if joined.count(_ENTRY_SEPARATOR) == max(len(texts) - 1, 0):
        return joined.lower(), None
    return "", tuple(text.lower() for text in texts)


@dataclass(frozen=True, slots=True)
class _Placed:
    """A source placed in the trace: which frame, which tool, and its first position there."""

    frame: int
    tool: str
    first: int
    source: Source
    count: int
    is_line: bool
    # Lower-cased search text; for Lines, entries joined by _ENTRY_SEPARATOR.
    texts: str = ""
    files: str = ""
    # Per-entry fallback when an entry itself contains the separator.
    texts_each: tuple[str, ...] | None = None
    files_each: tuple[str, ...] | None = None
    _split: list[list[str]] = field(default_factory=list)

    @classmethod
    def place(cls, frame: int, tool: str, first: int, source: Source) -> _Placed:
        """Place a decoded source at ``frame``, its first observation at ``first``."""
        match source:
            case Names(files):
                joined, each = _joined_lower(files)
                return cls(
                    frame, tool, first, source, len(files), is_line=False,
                    files=joined, files_each=each,
                )  # fmt: skip
            case Lines(files, _, texts):
                texts_joined, texts_each = _joined_lower(texts)
                files_joined, files_each = _joined_lower(files)
                return cls(
                    frame, tool, first, source, len(texts), is_line=True,
                    texts=texts_joined, files=files_joined,
                    texts_each=texts_each, files_each=files_each,
                )  # fmt: skip
            case Document(file, text):
                lowered = text.lower()
                if "\r" in lowered:  # one separator keeps the search simple; lines stay 1:1
                    lowered = lowered.replace("\r\n", "\n").replace("\r", "\n")
                return cls(
                    frame, tool, first, source, lowered.count("\n") + 1, is_line=True,
                    texts=lowered, files=file.lower(),
                )  # fmt: skip

    def _search(self, joined: str, each: tuple[str, ...] | None, needle: str) -> list[int]:
        if each is not None or _ENTRY_SEPARATOR in needle:
            items = each if each is not None else tuple(joined.split(_ENTRY_SEPARATOR))
            return [index for index, item in enumerate(items) if needle in item]
        return _entry_hits(joined, needle, _ENTRY_SEPARATOR)

    def text_hits(self, needle: str) -> list[int]:
        """Indices of this source's lines whose text contains the lower-cased ``needle``."""
        if self.count == 0:
            return []
        if isinstance(self.source, Document):
            if "\n" in needle or "\r" in needle:
                return []  # a line never contains a line break
            return _entry_hits(self.texts, needle, "\n")
        if isinstance(self.source, Lines):
            return self._search(self.texts, self.texts_each, needle)
        return []

    def file_hits(self, needle: str) -> list[int]:
        """Indices of observations whose source name contains the lower-cased ``needle``.

        A document has one name for all its lines: it is cited once, by its first line.
        """
        if self.count == 0:
            return []
        if isinstance(self.source, Document):
            return [0] if needle in self.files else []
        return self._search(self.files, self.files_each, needle)

    def observation(self, index: int) -> Observation:
        oid = observation_id(self.frame, self.first + index)
        match self.source:
            case Names(files):
                return PathObservation(oid, self.frame, self.tool, files[index])
            case Lines(files, numbers, texts):
                return LineObservation(
                    oid, self.frame, self.tool, files[index], numbers[index], texts[index]
                )
            case Document(file, text):
                if not self._split:
                    self._split.append(split_lines(text))
                return LineObservation(
                    oid, self.frame, self.tool, file, index + 1, self._split[0][index]
                )


class Observations:
    """Every observation of a trace, in frame order, with the searches grading needs.

    Searches take any text and compare case-insensitively (both sides lower-cased,
    plain substring, as :func:`tracegrade._text.contains`).
    """

    __slots__ = ("_placed", "count")

    def __init__(self, placed: Sequence[_Placed] = ()) -> None:
        self._placed = tuple(placed)
        self.count = sum(item.count for item in self._placed)
        """How many observations there are: path and line observations together."""

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Observation]:
        for item in self._placed:
            for index in range(item.count):
                yield item.observation(index)

    def __repr__(self) -> str:
        return f"Observations(count={self.count})"

    @property
    def sources(self) -> tuple[tuple[int, str, Source], ...]:
        """Each decoded source as ``(frame, tool, source)``, in order."""
        return tuple((item.frame, item.tool, item.source) for item in self._placed)

    def lines_containing(self, needle: str) -> list[LineObservation]:
        """Line observations whose text contains ``needle``, one per observation."""
        lowered = needle.lower()
        found: list[LineObservation] = []
        for item in self._placed:
            if item.is_line:
                found.extend(_as_lines(item, item.text_hits(lowered)))
        return found

    def lines_from(self, needle: str) -> list[LineObservation]:
        """Line observations whose source name contains ``needle`` (a document: its first line)."""
        lowered = needle.lower()
        found: list[LineObservation] = []
        for item in self._placed:
            if item.is_line:
                found.extend(_as_lines(item, item.file_hits(lowered)))
        return found

    def names_containing(self, needle: str) -> list[PathObservation]:
        """Path observations whose name contains ``needle``."""
        lowered = needle.lower()
        found: list[PathObservation] = []
        for item in self._placed:
            if not item.is_line:
                found.extend(
                    obs
                    for obs in map(item.observation, item.file_hits(lowered))
                    if isinstance(obs, PathObservation)
                )
        return found


def _as_lines(item: _Placed, indices: list[int]) -> Iterator[LineObservation]:
    for index in indices:
        obs = item.observation(index)
        if isinstance(obs, LineObservation):
            yield obs
