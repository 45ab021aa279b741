"""The bounded atheris run over the compiled core that CI does (tests/fuzz/core.py).

atheris is in the dev extra (Linux x86_64 wheels); without it these tests skip, except in
CI (CI=true), where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from tests.conftest import REPO

if TYPE_CHECKING:
    from pathlib import Path

SECONDS = 30

# A core function that panics, as PyO3 reports it: a BaseException named PanicException.
_PLANTED = """
import sys
import tests.fuzz.core as fuzz

class PanicException(BaseException):
    pass

def panics(text, needles):
    raise PanicException("planted: index out of bounds")

fuzz._core.present_needles = panics
fuzz.main()
"""


def _atheris() -> None:
    if importlib.util.find_spec("atheris") is None:
        reason = "atheris is not installed (pip install -e '.[dev]' on Linux x86_64)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must fuzz the core, but {reason}")
        pytest.skip(reason)


def _fuzz(folder: Path, *arguments: str, script: str | None = None) -> tuple[int, str]:
    corpus = folder / "corpus"
    corpus.mkdir()
    command = [sys.executable, "-m", "tests.fuzz.core"] if script is None else [
        sys.executable, "-c", script
    ]  # fmt: skip
    path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [*command, f"-artifact_prefix={folder}/", *arguments, str(corpus)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=SECONDS * 10,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
def test_fuzzing_the_core_for_a_bounded_time_finds_no_crash(tmp_path: Path):
    _atheris()
    code, output = _fuzz(tmp_path, f"-max_total_time={SECONDS}")
    assert code == 0, output[-4000:]
    assert "Done " in output  # libFuzzer's summary: "Done N runs in S second(s)"


@pytest.mark.slow
def test_a_panic_in_the_core_fails_the_run(tmp_path: Path):
    _atheris()
    code, output = _fuzz(tmp_path, "-runs=2000", script=_PLANTED)
    assert code != 0
    assert "PanicException: planted" in output, output[-4000:]
