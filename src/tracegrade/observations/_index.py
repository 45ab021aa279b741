"""A case-insensitive substring index over many short texts, searched with one ``str.find`` pass.

Grading asks, for a handful of needles, which of a trace's thousands of lines contain each
(``needle.lower() in line.lower()``). Doing that line by line in Python costs several times
the JSON parse; here the entries are joined with newlines, lower-cased once, scanned with
``find`` and hits are mapped back to entries by counting separators.

Lower-casing is the expensive step for non-ASCII text (``str.lower`` goes character by
character). For a needle whose lower-cased form is ASCII, matching against the UTF-8 bytes
lower-cased ASCII-only (``bytes.lower``) gives the same answer as ``str.lower``, because no
non-ASCII character lower-cases to ASCII except U+0130 and U+212A; texts holding either
use the full ``str.lower`` path. Needles with a line break or NUL take an exact per-entry path.

:meth:`TextIndex.find_words` keeps, of the entries holding each form, those holding it as a
whole word (``tracegrade._text.form_pattern``), for many forms in one call.

This class is the reference; :func:`text_index` returns the compiled core's port of it
(rust/src/index.rs) unless ``TRACEGRADE_CORE=python``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AnyStr, Protocol

from tracegrade._engine import compiled_core
from tracegrade._text import LOWER_TO_ASCII, word_test

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["SearchIndex", "TextIndex", "entry_text", "text_index"]

_SEPARATOR = "\n"


def entry_text(entries: Sequence[str]) -> tuple[str, bool]:
    """Join entries with newlines; line breaks inside an entry become NUL.

    Returns:
        The joined text and whether any entry had to be rewritten (then needles holding
        NUL take the exact path).
    """
    joined = _SEPARATOR.join(entries)
    if "\r" not in joined and joined.count(_SEPARATOR) == max(len(entries) - 1, 0):
        return joined, False
    cleaned = (entry.replace("\r", "\x00").replace("\n", "\x00") for entry in entries)
    return _SEPARATOR.join(cleaned), True


class SearchIndex(Protocol):
    """What both engines' indexes offer (see :class:`TextIndex`)."""

    @property
    def total(self) -> int:
        """How many entries the index holds."""
        ...

    def search(self, needle: str) -> list[tuple[int, int]] | None:
        """Entries containing ``needle`` case-insensitively (see :meth:`TextIndex.search`)."""
        ...

    def find_words(self, forms: Sequence[str]) -> list[list[tuple[int, int]] | None]:
        """Entries holding each form as a whole word (see :meth:`TextIndex.find_words`)."""
        ...


def text_index(pieces: Sequence[str], counts: Sequence[int]) -> SearchIndex:
    """A :class:`TextIndex` from the engine ``TRACEGRADE_CORE`` selects (compiled by default)."""
    core = compiled_core()
    if core is not None:
        try:
            compiled: SearchIndex = core.TextIndex(pieces, counts)
        except UnicodeEncodeError:  # a lone surrogate: only a Python str can hold one
            pass
        else:
            return compiled
    return TextIndex(pieces, counts)


class TextIndex:
    """Entries (texts without line breaks) searchable case-insensitively as one string.

    Args:
        pieces: Newline-joined entries, one piece per segment (see :func:`entry_text`); a
            piece of ``n`` entries has ``n - 1`` newlines.
        counts: How many entries each piece holds; a piece of zero entries is skipped.
    """

    __slots__ = (
        "_ascii_safe",
        "_bytes",
        "_cache",
        "_entries",
        "_full",
        "_raw",
        "_starts",
        "total",
    )

    def __init__(self, pieces: Sequence[str], counts: Sequence[int]) -> None:
        self._raw = _SEPARATOR.join(p for p, n in zip(pieces, counts, strict=True) if n)
        starts: list[int] = []
        total = 0
        for count in counts:
            starts.append(total)
            total += count
        self._starts = starts
        self.total = total
        self._bytes: bytes | None = None
        self._full: str | None = None
        raw = self._raw
        self._ascii_safe = raw.isascii() or (
            LOWER_TO_ASCII[0] not in raw and LOWER_TO_ASCII[1] not in raw
        )
        self._cache: dict[str, list[tuple[int, int]]] = {}
        self._entries: list[str] | None = None

    def search(self, needle: str) -> list[tuple[int, int]] | None:
        """Entries containing ``needle`` case-insensitively, as ``(segment, entry)`` pairs.

        Returns:
            The hits in order, each entry once; ``None`` when the needle holds a line break
            or NUL, which the caller must check entry by entry.
        """
        lowered = needle.lower()
        if "\n" in lowered or "\r" in lowered or "\x00" in lowered:
            return None
        cached = self._cache.get(lowered)
        if cached is not None:
            return cached
        if self.total == 0:
            found: list[int] = []
        elif not lowered:
            found = list(range(self.total))
        elif self._ascii_safe and lowered.isascii():
            if self._raw.isascii():
                found = _hits(self._lower_full(), lowered, _SEPARATOR)
            else:
                found = _hits(self._lower_bytes(), lowered.encode(), b"\n")
        else:
            found = _hits(self._lower_full(), lowered, _SEPARATOR)
        result = self._locate(found)
        self._cache[lowered] = result
        return result

    def find_words(self, forms: Sequence[str]) -> list[list[tuple[int, int]] | None]:
        """For each form, the entries holding it as a whole word, as ``(segment, entry)``.

        Of the entries :meth:`search` finds, those where ``form_pattern(form)`` matches (all
        of them when the form has no letter or digit at either end, see
        :func:`tracegrade._text.word_test`); ``None`` where :meth:`search` says ``None``.
        """
        found: list[list[tuple[int, int]] | None] = []
        for form in forms:
            hits = self.search(form)
            word = word_test(form)
            if hits is None or word is None or not hits:
                found.append(hits)
                continue
            if self._entries is None:
                self._entries = self._raw.split(_SEPARATOR)
            entries, starts = self._entries, self._starts
            found.append([hit for hit in hits if word(entries[starts[hit[0]] + hit[1]])])
        return found

    def _lower_full(self) -> str:
        if self._full is None:
            self._full = self._raw.lower()
        return self._full

    def _lower_bytes(self) -> bytes:
        if self._bytes is None:
            self._bytes = self._raw.encode("utf-8", "surrogatepass").lower()
        return self._bytes

    def _locate(self, entries: list[int]) -> list[tuple[int, int]]:
        """Map global entry numbers to (segment, entry within segment)."""
        located: list[tuple[int, int]] = []
        starts = self._starts
        segment = 0
        last = len(starts) - 1
        for entry in entries:  # ascending, so the segment only moves forward
            while segment < last and starts[segment + 1] <= entry:
                segment += 1
            located.append((segment, entry - starts[segment]))
        return located


def _hits(haystack: AnyStr, needle: AnyStr, separator: AnyStr) -> list[int]:
    """Numbers of the separator-delimited entries of ``haystack`` holding ``needle``, once each."""
    hits: list[int] = []
    index = 0
    start = 0
    position = haystack.find(needle)
    while position != -1:
        index += haystack.count(separator, start, position)
        hits.append(index)
        end = haystack.find(separator, position + len(needle))
        if end == -1:
            break
        start = end + 1
        index += 1
        position = haystack.find(needle, start)
    return hits
