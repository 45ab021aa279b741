"""Find the trace files that paths, folders and glob patterns name (the bulk grading edge)."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["TRACE_SUFFIXES", "FoundTraces", "find_trace_files"]

TRACE_SUFFIXES = (".json", ".jsonl", ".eval", ".traj")
"""The file names a folder is searched for (case-insensitive): what the readers read.

A file named directly is always read, whatever its name.
"""

_GLOB_CHARACTERS = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class FoundTraces:
    """The trace files some targets name, in order, and the targets that named none.

    Attributes:
        files: Every file once, in the order the targets name them (a folder's files
            sorted, its own before its subfolders'; a pattern's matches sorted).
        empty: The folders and patterns in which no trace file was found.
    """

    files: tuple[Path, ...]
    empty: tuple[str, ...]


def _is_pattern(target: str) -> bool:
    return not Path(target).exists() and any(c in _GLOB_CHARACTERS for c in target)


def _walk(folder: Path) -> Iterator[Path]:
    """The trace files under ``folder``, recursively; hidden files and folders skipped."""
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if not name.startswith(".") and name.lower().endswith(TRACE_SUFFIXES):
                yield Path(root) / name


def _named(target: str) -> Iterator[Path]:
    if _is_pattern(target):
        for match in sorted(glob.glob(target, recursive=True)):
            path = Path(match)
            if path.is_dir():
                yield from _walk(path)
            elif path.name.lower().endswith(TRACE_SUFFIXES):
                yield path
        return
    path = Path(target)
    if path.is_dir():
        yield from _walk(path)
    else:
        yield path  # a file, or a path that is not there: its reading reports why


def find_trace_files(targets: Sequence[str | Path]) -> FoundTraces:
    """Every trace file that ``targets`` name: files, folders (recursively) and glob patterns.

    A folder is searched for :data:`TRACE_SUFFIXES`; a pattern (``runs/**/*.jsonl``) is
    expanded unless a file of that name exists. A file named directly is kept even when it
    does not exist, so that reading it reports the reason beside the other files' results.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    empty: list[str] = []
    for target in targets:
        found = False
        for path in _named(str(target)):
            found = True
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                files.append(path)
        if not found:
            empty.append(str(target))
    return FoundTraces(tuple(files), tuple(empty))
