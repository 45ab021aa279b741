"""The document corpus and its three-stage search (title match, fused pool, rerank)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from tracegrade.contract import Stage

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "in",
        "on",
        "to",
        "for",
        "and",
        "or",
        "what",
        "how",
        "does",
        "do",
        "is",
        "are",
        "its",
        "it",
        "by",
        "with",
        "under",
        "any",
    ]
)


def _words(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in _STOP and len(word) > 2}


@dataclass(frozen=True, slots=True)
class Document:
    """One document of the corpus."""

    resource_key: str
    resource_type: str
    title: str
    parties: tuple[str, ...]
    text: str

    def sections(self) -> tuple[tuple[int, str], ...]:
        """``(start, text)`` of each section (the preamble first); together the whole text."""
        starts = [0, *(match.start() + 1 for match in re.finditer(r"\n## ", self.text))]
        ends = [*starts[1:], len(self.text)]
        return tuple((start, self.text[start:end]) for start, end in zip(starts, ends, strict=True))


@dataclass(frozen=True, slots=True)
class Ranking:
    """What one search returned: the final hits and every stage's candidates."""

    hits: tuple[tuple[str, str], ...]
    stages: tuple[Stage, ...]


class Corpus:
    """The documents listed in ``index.json``, read once."""

    def __init__(self, folder: Path = CORPUS_DIR) -> None:
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
        self.documents = {
            entry["resource_key"]: Document(
                resource_key=entry["resource_key"],
                resource_type=entry["resource_type"],
                title=entry["title"],
                parties=tuple(entry["parties"]),
                text=(folder / entry["file"]).read_text(encoding="utf-8"),
            )
            for entry in index["documents"]
        }

    def get(self, resource_key: str) -> Document | None:
        """The document with that key, or ``None``."""
        return self.documents.get(resource_key)

    def search(self, query: str, *, pool: int = 4, top: int = 3) -> Ranking:
        """Rank documents for ``query`` in three stages.

        Title and party match; a pool fusing it with body-word overlap; a rerank that
        prefers documents naming the query's parties.
        """
        words = _words(query)
        keys = list(self.documents)
        names = {
            key: _words(doc.title + " " + " ".join(doc.parties))
            for key, doc in self.documents.items()
        }
        bodies = {key: _words(doc.text) for key, doc in self.documents.items()}
        title_match = sorted(
            (key for key in keys if words & names[key]),
            key=lambda key: (-len(words & names[key]), keys.index(key)),
        )
        body_rank = sorted(
            (key for key in keys if words & bodies[key]),
            key=lambda key: (-len(words & bodies[key]), keys.index(key)),
        )
        fused_score: dict[str, float] = {}
        for ranking in (title_match, body_rank):
            for rank, key in enumerate(ranking):
                fused_score[key] = fused_score.get(key, 0.0) + 1.0 / (60 + rank)
        fused = sorted(fused_score, key=lambda key: (-fused_score[key], keys.index(key)))[:pool]
        reranked = sorted(
            fused,
            key=lambda key: (
                -len(words & _words(" ".join(self.documents[key].parties))),
                -len(words & bodies[key]),
                keys.index(key),
            ),
        )[:top]
        hits = tuple((key, self._snippet(self.documents[key], words)) for key in reranked)
        stages = (
            Stage(name="title-match", result_ids=tuple(title_match)),
            Stage(name="fused-pool", result_ids=tuple(fused)),
            Stage(name="rerank", result_ids=tuple(reranked)),
        )
        return Ranking(hits=hits, stages=stages)

    @staticmethod
    def _snippet(document: Document, words: set[str]) -> str:
        lines = [line for line in document.text.splitlines() if line and not line.startswith("#")]
        best = max(lines, key=lambda line: len(words & _words(line)))
        return f"{document.title} ({', '.join(document.parties)}): {best}"
