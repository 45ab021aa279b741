"""The reference grader's suite as of post 5 (SPEC.md §2 and §12.2), written for our suite format.

The expectations are the reference suite's golden values; the counts are the published
ones (S) or the specification's computed ones (C).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

QUESTIONS_TOML = """
[[questions]]
id = "model-name"
facts = [{id = "file", text = "agent/src/config.ts"}, {id = "value", text = "gpt-5-mini"}]
truth_file = "agent/src/config.ts"
tell = "gpt-5-mini"

[[questions]]
id = "binary-extensions"
facts = [{id = "file", text = "agent/src/tools/fs.ts"}, {id = "value", text = "avif"}]
truth_file = "agent/src/tools/fs.ts"
tell = "avif"

[[questions]]
id = "file-count"
"""


@dataclass(frozen=True)
class Row:
    trace: str
    question: str
    answer: str
    provenance: str
    unread: tuple[str, ...]
    recorded: str
    observations: int
    truth: int
    copies: int


CASES = (
    Row("01-not-an-agent/trace.json", "file-count", "ungraded", "ungradable", (), "failure",
        0, 0, 0),
    Row("02-hands/trace-a-precise.json", "model-name", "partial", "unevidenced", ("file",),
        "partial", 68, 0, 0),
    Row("02-hands/trace-b-thin.json", "model-name", "failure", "unevidenced", (), "failure",
        0, 0, 0),
    Row("03-the-loop/trace.json", "model-name", "success", "undecidable", (), "success",
        117, 1, 1),
    Row("03-the-loop/trace2-corpus-hit.json", "model-name", "success", "undecidable", (),
        "success", 40, 1, 16),
    Row("04-does-it-work/trace-a-model-name.json", "model-name", "success", "undecidable", (),
        "success", 40, 1, 1),
    Row("04-does-it-work/trace-b-binary.json", "binary-extensions", "success", "grounded", (),
        "success", 44, 1, 0),
    Row("05-moving-target/trace-retired-control.json", "binary-extensions", "success",
        "undecidable", (), "success", 77, 1, 2),
)  # fmt: skip


def write_suite(folder: Path, traces: Path, rows: tuple[Row, ...] = CASES) -> Path:
    """Write the suite file into ``folder``, pointing at the corpus traces; return its path."""
    parts = [f'[suite]\nname = "nine-commits post 5"\ntraces = {str(traces)!r}\n', QUESTIONS_TOML]
    for row in rows:
        unread = ", ".join(f'"{claim}"' for claim in row.unread)
        parts.append(
            f'[[cases]]\ntrace = "{row.trace}"\nquestion = "{row.question}"\n'
            f'expect = {{answer = "{row.answer}", provenance = "{row.provenance}",'
            f" unread = [{unread}]}}\n"
        )
    path = folder / "suite.toml"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
