"""Checking a judge's citations against what the run actually observed (pure, deterministic).

A citation is ``file:line`` (a line of that file some tool result showed as content), an
observation id (``f4.2``, see :func:`~tracegrade.observations.observation_id`), or a result
id a tool gave one of its items (a search result's id). Anything else, or any of these the
run never observed, is a bad citation. A file the run saw only as a name (a listing) does
not make ``file:line`` observed: the judge cannot have read that line in the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tracegrade.observations import LineObservation, PathObservation

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.observations import Observations

__all__ = ["CitationCheck", "CitationIndex", "CitationKind"]

CitationKind = Literal["file-line", "observation-id", "result-id", "unrecognised"]
"""How a citation was read: ``file:line``, an observation id, a tool's result id, or none."""

_OBSERVATION_ID = re.compile(r"f\d+\.\d+")
_FILE_LINE = re.compile(r"(?P<file>.+?):(?P<line>\d+(?:\.\d+)?)")


def _file_key(file: str) -> str:
    """A file name as compared: trimmed, without a leading ``./``."""
    name = file.strip()
    while name.startswith("./"):
        name = name[2:]
    return name


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """One citation, and whether the run observed what it cites.

    Attributes:
        citation: The citation as the judge wrote it.
        kind: How it was read (:data:`CitationKind`).
        observed: The run had an observation it names.
        evidence: The ids of the observations it names (empty when not observed).
    """

    citation: str
    kind: CitationKind
    observed: bool
    evidence: tuple[str, ...] = ()


class CitationIndex:
    """The citable observations of one trace, built once and asked per citation.

    Args:
        observations: What :func:`~tracegrade.observations.observe` returned for the trace.
    """

    __slots__ = ("_ids", "_lines", "_refs")

    def __init__(self, observations: Observations) -> None:
        self._ids: set[str] = set()
        self._lines: dict[tuple[str, float], list[str]] = {}
        self._refs: dict[str, list[str]] = {}
        for observation in observations:
            self._ids.add(observation.id)
            if isinstance(observation, PathObservation):
                continue
            if isinstance(observation, LineObservation):
                key = (_file_key(observation.file), float(observation.line))
                self._lines.setdefault(key, []).append(observation.id)
                if observation.ref:
                    self._refs.setdefault(observation.ref, []).append(observation.id)

    def check(self, citation: str) -> CitationCheck:
        """Whether the run observed what ``citation`` names."""
        text = citation.strip()
        if _OBSERVATION_ID.fullmatch(text):
            found = text in self._ids
            return CitationCheck(
                citation, "observation-id", observed=found, evidence=(text,) if found else ()
            )
        if text in self._refs:
            return CitationCheck(
                citation, "result-id", observed=True, evidence=tuple(self._refs[text])
            )
        match = _FILE_LINE.fullmatch(text)
        if match:
            key = (_file_key(match["file"]), float(match["line"]))
            evidence = tuple(self._lines.get(key, ()))
            return CitationCheck(citation, "file-line", observed=bool(evidence), evidence=evidence)
        return CitationCheck(citation, "unrecognised", observed=False)

    def check_all(self, citations: Iterable[str]) -> tuple[CitationCheck, ...]:
        """Check each citation, in order."""
        return tuple(self.check(citation) for citation in citations)
