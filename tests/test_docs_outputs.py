"""Documented outputs are real: every block marked ``<!-- output: checked -->`` is re-run.

A checked block is a ```text fence right after the marker whose first line is ``$ COMMAND``
and whose other lines are what the command prints (stdout and stderr, as a terminal shows
them). In the expected text a line ``...`` stands for any lines, and ``...`` inside a line for
any text, so a long output may be abridged; run ids, registry versions and timestamps are
compared by shape. The commands run from the repository root with this checkout's
``tracegrade`` first on PATH and a throwaway store, so the repository's own store is untouched.

When an output changes on purpose, ``TRACEGRADE_UPDATE_DOCS=1 pytest tests/test_docs_outputs.py``
rewrites every block that is not abridged (has no ``...``); review the diff. Abridged blocks
are mended by hand.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tracegrade.evals import load_project

ROOT = Path(__file__).resolve().parents[1]
MARK = "<!-- output: checked -->"
UPDATE = os.environ.get("TRACEGRADE_UPDATE_DOCS") == "1"
_FENCE = re.compile(re.escape(MARK) + r"\s*\n```text\n(.*?)\n```", re.DOTALL)
# What changes from run to run, replaced by its shape on both sides.
_VARYING = (
    (re.compile(r"\b\d{8}T\d{6}Z-[0-9a-f]{6}\b"), "RUN-ID"),
    (re.compile(r"\bregistry [0-9a-f]{12}\b"), "registry VERSION"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?Z?"), "TIMESTAMP"),
)


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def checked_blocks() -> list[tuple[str, str, str]]:
    """Every checked block: (where, command, expected output)."""
    blocks = []
    for path in _documents():
        text = path.read_text("utf-8")
        for match in _FENCE.finditer(text):
            first, _, rest = match.group(1).partition("\n")
            line = text.count("\n", 0, match.start()) + 1
            blocks.append((f"{path.relative_to(ROOT)}:{line}", first.removeprefix("$ "), rest))
    return blocks


def _normalised(text: str) -> str:
    for pattern, shape in _VARYING:
        text = pattern.sub(shape, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _pattern(expected: str) -> re.Pattern[str]:
    parts = []
    for line in _normalised(expected).splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(map(re.escape, line.split("..."))) + r"\n")
    return re.compile("".join(parts))


def _run(command: str, store: Path) -> str:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT / "src"),
        "PYTHONUNBUFFERED": "1",  # stdout and stderr interleave as on a terminal
        "TRACEGRADE_STORE_URL": f"sqlite:///{store}",
        "COLUMNS": "200",
    }
    env.pop("GITHUB_STEP_SUMMARY", None)  # in GitHub Actions: keep the docs' runs out of it
    done = subprocess.run(
        ["/bin/bash", "-c", f"{{ {command}\n}} 2>&1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.stdout


def test_the_docs_check_some_outputs():
    assert len(checked_blocks()) >= 5  # the marker must not silently vanish from the docs


@pytest.mark.parametrize(
    ("where", "command", "expected"),
    [pytest.param(*block, id=block[0]) for block in checked_blocks()],
)
def test_a_documented_output_is_what_the_command_prints(
    where: str, command: str, expected: str, tmp_path: Path
):
    output = _run(command, tmp_path / ".tracegrade" / "tracegrade.db")
    printed = _normalised(output) + "\n"
    if UPDATE and "..." not in expected and not _pattern(expected).fullmatch(printed):
        _rewrite(where, command, expected, output)
        return

    assert _pattern(expected).fullmatch(printed), (
        f"{where}: `{command}` now prints:\n{printed}\nregenerate the block from this output"
    )


def _rewrite(where: str, command: str, expected: str, output: str) -> None:
    name, _, _ = where.rpartition(":")
    path = ROOT / name
    old = f"```text\n$ {command}\n{expected}\n```"
    new = f"```text\n$ {command}\n{output.strip(chr(10))}\n```"
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{where}: the block to rewrite is not unique"
    path.write_text(text.replace(old, new), "utf-8")


def test_the_matcher_fails_on_a_changed_line_and_accepts_abridged_output():
    printed = "a 1\nb 2\nc 3\n"

    assert _pattern("a 1\n...\nc 3").fullmatch(printed)
    assert _pattern("a ...\n...").fullmatch(printed)
    assert not _pattern("a 1\nb 9\nc 3").fullmatch(printed)
    assert not _pattern("a 1\nc 3").fullmatch(printed)


_NUMBERS = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def test_the_readme_counts_the_example_project_s_touchpoints():
    readme = (ROOT / "README.md").read_text("utf-8")
    said = re.search(r"examples/project/tracegrade\.toml`\): (\w+) touchpoints", readme)
    project = load_project(ROOT / "examples" / "project" / "tracegrade.toml")

    assert said is not None
    assert _NUMBERS[said.group(1)] == len(project.touchpoints)
