"""Observations: what a tool result let the model see, and the sources they come from.

A decoder turns one tool result into *sources*: names seen without content
(:class:`Names`), lines given one by one (:class:`Lines`), a text split into lines
(:class:`Document`), or ranked results each seen as a name and a snippet (:class:`Ranked`).
:class:`Observations` places them in the trace and answers the questions grading asks
("which lines contain this text?") over all of them at once, without making a Python object
per line (docs/design/0001-observation-search.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade._text import split_lines, word_test
from tracegrade.observations._index import entry_text, text_index

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from tracegrade.observations._index import SearchIndex

__all__ = [
    "Document",
    "LineObservation",
    "Lines",
    "Names",
    "Observation",
    "ObservationKind",
    "Observations",
    "PathObservation",
    "Ranked",
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
    ref: str | None = None
    """The id the tool gave the item (a search result id), for excerpts."""


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
    refs: tuple[str | None, ...] | None = None
    """Ids the tool gave the items (excerpts of a retrieval tool), or ``None``."""

    def __post_init__(self) -> None:
        if not len(self.files) == len(self.numbers) == len(self.texts):
            msg = "Lines needs as many files, numbers and texts"
            raise ValueError(msg)
        if self.refs is not None and len(self.refs) != len(self.texts):
            msg = "Lines needs as many refs as texts"
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


@dataclass(frozen=True, slots=True)
class Ranked:
    """Ranked results (web search hits), each seen as a name and a snippet.

    Per result: its name as a path observation, then its snippet as a line observation
    numbered by rank (1, 2, ...).
    """

    files: tuple[str, ...]
    texts: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.files) != len(self.texts):
            msg = "Ranked needs as many files as texts"
            raise ValueError(msg)


Source = Names | Lines | Document | Ranked


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


def _entries(source: Source, where: SearchField) -> tuple[str, int]:
    """What a source puts in the index of one field: its joined entries and their number.

    ``text``: the text of each line observation; ``source``: the source name of each line
    observation (a document's name once); ``name``: the name of each path observation.
    """
    # isinstance chains: structural pattern matching on (source, where) is measurably slower.
    if where == "text":
        if isinstance(source, Document):
            text = _document_text(source.text)
            return text, text.count("\n") + 1
        if isinstance(source, Lines | Ranked):
            return entry_text(source.texts)[0], len(source.texts)
    elif where == "source":
        if isinstance(source, Document):
            return entry_text((source.file,))[0], 1
        if isinstance(source, Lines | Ranked):
            return entry_text(source.files)[0], len(source.files)
    elif isinstance(source, Names | Ranked):
        return entry_text(source.files)[0], len(source.files)
    return "", 0


def _position(source: Source, entry: int, where: SearchField) -> int:
    """The 0-based position in its source of the observation behind an index entry."""
    if isinstance(source, Ranked):  # path, line, path, line, ...
        return 2 * entry if where == "name" else 2 * entry + 1
    return entry


class Observations:
    """Every observation of a trace, in frame order, with the searches grading needs.

    Searches compare case-insensitively (both sides lower-cased, plain substring) and report
    one observation at most once.

    Args:
        sources: Each decoded source as ``(frame, tool, source)``, in trace order.
        as_text: The results that were read as plain text for want of a decoder.
    """

    __slots__ = ("_indexes", "_segments", "_split", "as_text", "count")

    def __init__(
        self,
        sources: Iterable[tuple[int, str, Source]] = (),
        *,
        as_text: Iterable[tuple[int, str]] = (),
    ) -> None:
        self.as_text = tuple(as_text)
        """``(frame, tool)`` of each result no decoder recognised, read as plain text."""
        segments: list[_Segment] = []
        texts: list[str] = []
        counts: list[int] = []
        frame_seen = -1
        position = 1
        for frame, tool, source in sources:
            if frame != frame_seen:
                frame_seen, position = frame, 1
            text, lines = _entries(source, "text")
            texts.append(text)
            counts.append(lines)
            if isinstance(source, Document):
                count = lines
            elif isinstance(source, Ranked):
                count = 2 * len(source.files)
            else:
                count = len(source.files)
            segments.append(_Segment(frame, tool, position, source, count))
            position += count
        self._segments = tuple(segments)
        # The text index is always searched; the other two are built when first asked for.
        self._indexes: dict[SearchField, SearchIndex] = {"text": text_index(texts, counts)}
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
            case Lines(files, numbers, texts, refs):
                return LineObservation(
                    oid,
                    segment.frame,
                    segment.tool,
                    files[index],
                    numbers[index],
                    texts[index],
                    ref=refs[index] if refs is not None else None,
                )
            case Ranked(files, texts):
                rank, is_line = divmod(index, 2)
                if not is_line:
                    return PathObservation(oid, segment.frame, segment.tool, files[rank])
                return LineObservation(
                    oid, segment.frame, segment.tool, files[rank], rank + 1, texts[rank]
                )
            case Document(file, text):
                lines = self._split.get(number)
                if lines is None:
                    lines = self._split[number] = split_lines(text)
                return LineObservation(
                    oid, segment.frame, segment.tool, file, index + 1, lines[index]
                )

    def _index(self, where: SearchField) -> SearchIndex:
        index = self._indexes.get(where)
        if index is None:
            pieces, counts = [], []
            for segment in self._segments:
                piece, count = _entries(segment.source, where)
                pieces.append(piece)
                counts.append(count)
            index = self._indexes[where] = text_index(pieces, counts)
        return index

    def _locate(self, needle: str, where: SearchField) -> list[tuple[int, int]]:
        """``(segment, position)`` of the observations whose ``where`` contains ``needle``."""
        if not self.count:
            return []
        hits = self._index(where).search(needle)
        if hits is None:  # a needle with a line break or NUL: exact, observation by observation
            return self._exact(needle.lower(), where)
        segments = self._segments
        return [
            (number, _position(segments[number].source, entry, where)) for number, entry in hits
        ]

    def _exact(self, lowered: str, where: SearchField) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        for number, segment in enumerate(self._segments):
            name_cited = False  # a document's name is cited once, at its first line
            for index in range(segment.count):
                obs = self._observation(number, index)
                if where == "name":
                    hit = isinstance(obs, PathObservation) and lowered in obs.file.lower()
                elif not isinstance(obs, LineObservation):
                    hit = False
                elif where == "text":
                    hit = lowered in obs.text.lower()
                else:
                    hit = not name_cited and lowered in obs.file.lower()
                    name_cited = isinstance(segment.source, Document)
                if hit:
                    found.append((number, index))
        return found

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

    def find_word_ids(self, forms: Sequence[str], where: SearchField) -> list[list[str]]:
        """For each form, the ids of the observations showing it as a whole word.

        :meth:`find_ids` kept to the observations whose searched text holds the form as a
        whole word (``tracegrade._text.word_test``), all forms in one call to the index.
        """
        if not self.count:
            return [[] for _ in forms]
        segments = self._segments
        # Per segment: its frame, where its first entry's observation sits and how far apart
        # its entries' observations are (a ranked result's: path, line, path, ...).
        places = [
            (s.frame, s.first + _position(s.source, 0, where), 1 + isinstance(s.source, Ranked))
            for s in segments
        ]
        found: list[list[str]] = []
        for form, hits in zip(forms, self._index(where).find_words(forms), strict=True):
            if hits is None:  # a line break or NUL: exact, observation by observation
                word = word_test(form)
                found.append(
                    [
                        observation_id(segments[number].frame, segments[number].first + index)
                        for number, index in self._exact(form.lower(), where)
                        if word is None or word(self._field(number, index, where))
                    ]
                )
                continue
            ids = []
            for number, entry in hits:
                frame, first, step = places[number]
                ids.append(observation_id(frame, first + step * entry))
            found.append(ids)
        return found

    def _field(self, number: int, index: int, where: SearchField) -> str:
        """The searched text of one observation: a line's text or source, or a name."""
        match self._segments[number].source:
            case Names(files):
                return files[index]
            case Lines(files, _, texts, _):
                return texts[index] if where == "text" else files[index]
            case Ranked(files, texts):
                return texts[index // 2] if where == "text" else files[index // 2]
            case Document(file, text):
                if where != "text":
                    return file
                lines = self._split.get(number)
                if lines is None:
                    lines = self._split[number] = split_lines(text)
                return lines[index]

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
        if not isinstance(obs, LineObservation):  # the text and source indexes hold lines only
            msg = f"segment {number} position {index} is not a line observation"
            raise TypeError(msg)
        return obs
