"""The improvement-loop example (examples/proposals) copied into a test's folder.

Its suite's module is imported by name (``refund_suite``), so the copy of another test may
be cached: it is dropped from ``sys.modules`` for each copy.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "proposals"
PROMPT = "prompts/answer.md"
TOUCHPOINT = "refund_answer"


def copy_example(folder: Path) -> Path:
    """The example project in ``folder`` (without any store it had), its module uncached."""
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns(".tracegrade", "__pycache__"))
    sys.modules.pop("refund_suite", None)
    return folder


def proposed(folder: Path, name: str) -> str:
    """One of the example's proposed prompts: ``fix.md``, ``reworded.md`` or ``shorter.md``."""
    return (folder / name).read_text(encoding="utf-8")


def set_model(folder: Path, model: str | None) -> None:
    """Pick the scripted model (``v2``: a provider update); ``None``: the default ``v1``."""
    chosen = folder / "scripted_model.txt"
    if model is None:
        chosen.unlink(missing_ok=True)
    else:
        chosen.write_text(model, encoding="utf-8")
