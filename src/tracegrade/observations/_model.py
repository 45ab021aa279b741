"""Observations: what a tool result let the model see, and the sources they come from.

A decoder turns one tool result into *sources*: names seen without content
(:class:`Names`), lines given one by one (:class:`Lines`), or a text split into lines
(:class:`Document`). :class:`Observations` places them in the trace and answers the
questions grading asks ("which lines contain this text?") over all of them at once,
without making a Python object per line (docs/design/0001-observation-search.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade._text import split_lines
from tracegrade.observations._index import TextIndex, entry_text

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
    "SearchField",
    "Source",
    "observation_id",
]

ObservationKind = Literal["path", "line"]
SearchField = Literal["text", "source", "name"]


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


@dataclass(frozen=True, slots=True)
class _Segment:
    """A source placed in the trace: its frame, tool, first position there and size."""

    frame: int
    tool: str
    first: int
    source: Source
    count: int


def _document_text(text: str) -> str:
    """The text with CRLF and CR as LF, so lines are LF-separated entries (one per line)."""
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class Observations:
    """Every observation of a trace, in frame order, with the searches grading needs.

    Searches compare case-insensitively (both sides lower-cased, plain substring) and report
    one observation at most once.

    Args:
        sources: Each decoded source as ``(frame, tool, source)``, in trace order.
    """

    __slots__ = ("_lines", "_names", "_segments", "_split", "_texts", "count")

    def __init__(self, sources: Iterable[tuple[int, str, Source]] = ()) -> None:
        segments: list[_Segment] = []
        texts: list[str] = []
        frame_seen = -1
        position = 1
        for frame, tool, source in sources:
            if frame != frame_seen:
                frame_seen, position = frame, 1
            if isinstance(source, Document):
                text = _document_text(source.text)
                texts.append(text)
                count = text.count("\n") + 1
            elif isinstance(source, Lines):
                texts.append(entry_text(source.texts)[0])
                count = len(source.texts)
            else:
                texts.append("")
                count = len(source.files)
            segments.append(_Segment(frame, tool, position, source, count))
            position += count
        self._segments = tuple(segments)
        self._texts = TextIndex(
            texts, [s.count if not isinstance(s.source, Names) else 0 for s in segments]
        )
        self._lines: TextIndex | None = None
        self._names: TextIndex | None = None
        self._split: dict[int, list[str]] = {}
        self.count = sum(segment.count for segment in segments)
        """How many observations there are: path and line observations together."""

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Observation]:
        for number, segment in enumerate(self._segments):
            for index in range(segment.count):
                yield self._observation(number, index)

    def __repr__(self) -> str:
        return f"Observations(count={self.count})"

    @property
    def sources(self) -> tuple[tuple[int, str, Source], ...]:
        """Each decoded source as ``(frame, tool, source)``, in order."""
        return tuple((s.frame, s.tool, s.source) for s in self._segments)

    def _observation(self, number: int, index: int) -> Observation:
        segment = self._segments[number]
        oid = observation_id(segment.frame, segment.first + index)
        match segment.source:
            case Names(files):
                return PathObservation(oid, segment.frame, segment.tool, files[index])
            case Lines(files, numbers, texts):
                return LineObservation(
                    oid, segment.frame, segment.tool, files[index], numbers[index], texts[index]
                )
            case Document(file, text):
                lines = self._split.get(number)
                if lines is None:
                    lines = self._split[number] = split_lines(text)
                return LineObservation(
                    oid, segment.frame, segment.tool, file, index + 1, lines[index]
                )

    def _line_sources(self) -> TextIndex:
        """Source names of line observations: one entry per Lines entry, one per Document."""
        if self._lines is None:
            pieces: list[str] = []
            counts: list[int] = []
            for segment in self._segments:
                match segment.source:
                    case Lines(files, _, _):
                        pieces.append(entry_text(files)[0])
                        counts.append(len(files))
                    case Document(file, _):
                        pieces.append(file if file.isprintable() else entry_text((file,))[0])
                        counts.append(1)
                    case _:
                        pieces.append("")
                        counts.append(0)
            self._lines = TextIndex(pieces, counts)
        return self._lines

    def _path_names(self) -> TextIndex:
        if self._names is None:
            pieces: list[str] = []
            counts: list[int] = []
            for segment in self._segments:
                if isinstance(segment.source, Names):
                    pieces.append(entry_text(segment.source.files)[0])
                    counts.append(len(segment.source.files))
                else:
                    pieces.append("")
                    counts.append(0)
            self._names = TextIndex(pieces, counts)
        return self._names

    def _locate(self, needle: str, where: SearchField) -> list[tuple[int, int]]:
        """``(segment, index)`` of the observations whose ``where`` contains ``needle``."""
        index = (
            self._texts
            if where == "text"
            else self._line_sources()
            if where == "source"
            else self._path_names()
        )
        hits = index.search(needle)
        if hits is not None:
            return hits
        # A needle with a line break or NUL: exact, entry by entry.
        lowered = needle.lower()
        return [
            (number, position)
            for number, segment in enumerate(self._segments)
            for position in self._exact_hits(number, segment, lowered, where)
        ]

    def find_ids(self, needle: str, where: SearchField) -> list[str]:
        """Ids of the observations whose text, source name or path contains ``needle``.

        Args:
            needle: Matched case-insensitively as a plain substring.
            where: ``"text"``: a line's text; ``"source"``: a line's source name (a document
                is reported once, by its first line); ``"name"``: a path observation's name.
        """
        segments = self._segments
        return [
            observation_id(segments[number].frame, segments[number].first + position)
            for number, position in self._locate(needle, where)
        ]

    def lines_containing(self, needle: str) -> list[LineObservation]:
        """Line observations whose text contains ``needle``, one per observation."""
        return [self._line(number, index) for number, index in self._locate(needle, "text")]

    def lines_from(self, needle: str) -> list[LineObservation]:
        """Line observations whose source name contains ``needle`` (a document: its first line)."""
        return [self._line(number, index) for number, index in self._locate(needle, "source")]

    def names_containing(self, needle: str) -> list[PathObservation]:
        """Path observations whose name contains ``needle``."""
        found = [self._observation(n, i) for n, i in self._locate(needle, "name")]
        return [obs for obs in found if isinstance(obs, PathObservation)]

    def _line(self, number: int, index: int) -> LineObservation:
        obs = self._observation(number, index)
        if not isinstance(obs, LineObservation):  # the line indexes hold line segments only
            msg = f"segment {number} is not a line source"
            raise TypeError(msg)
        return obs

    def _exact_hits(
        self, number: int, segment: _Segment, lowered: str, where: SearchField
    ) -> Sequence[int]:
        match segment.source, where:
            case Lines(_, _, texts), "text":
                return [i for i, text in enumerate(texts) if lowered in text.lower()]
            case Document(), "text":
                return [
                    i for i in range(segment.count) if lowered in self._line(number, i).text.lower()
                ]
            case Lines(files, _, _), "source":
                return [i for i, file in enumerate(files) if lowered in file.lower()]
            case Document(file, _), "source":
                return [0] if lowered in file.lower() else []
            case Names(files), "name":
                return [i for i, file in enumerate(files) if lowered in file.lower()]
            case _:
                return []
