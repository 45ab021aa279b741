"""Shared pytest setup: where the real third-party corpus is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def corpus_root() -> Path:
    """The corpus folder: $TRACEGRADE_CORPUS, else ../shared/corpus beside the repository."""
    return Path(os.environ.get("TRACEGRADE_CORPUS", REPO.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def nine_commits() -> Path:
    """The nine-commits traces folder; skips the test when the corpus is absent."""
    folder = corpus_root() / "nine-commits" / "traces"
    if not folder.is_dir():
        pytest.skip(
            f"real corpus not found at {folder}: set TRACEGRADE_CORPUS to the folder that holds"
            " nine-commits/ to run the conformance tests"
        )
    return folder
