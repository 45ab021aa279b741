"""The documented commands print what the documentation says they print.

A ```text block right after the line ``<!-- checked: tests/test_docs.py -->`` in one of
:data:`DOCUMENTS` holds commands (``$ tracegrade ...``) each followed by its output, stdout
and stderr as a terminal shows them; ``$ echo $?`` and the next line check the exit code.
Each command is run from the repository root and its output compared line for line.

When the output changes on purpose (new claim kinds, say), rewrite the blocks with
``TRACEGRADE_UPDATE_DOCS=1 pytest tests/test_docs.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = ("README.md", "docs/cli.md", "docs/grading.md")
MARKER = "<!-- checked: tests/test_docs.py -->"
_BLOCK = re.compile(re.escape(MARKER) + r"\n```text\n(.*?)```\n", re.DOTALL)
UPDATE = os.environ.get("TRACEGRADE_UPDATE_DOCS") == "1"


@dataclass(frozen=True)
class Command:
    line: str
    output: str
    code: int | None  # from a following `$ echo $?`; None: not shown, must be 0


def _commands(block: str) -> list[Command]:
    commands: list[Command] = []
    lines = block.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\n")
        assert line.startswith("$ tracegrade "), f"a checked block starts each command: {line!r}"
        index += 1
        output: list[str] = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        code = None
        if index < len(lines) and lines[index].rstrip("\n") == "$ echo $?":
            code = int(lines[index + 1])
            index += 2
        commands.append(Command(line[2:], "".join(output), code))
    return commands


def _run(line: str) -> tuple[str, int]:
    """Run a documented command as a terminal would: stdout and stderr interleaved."""
    args = shlex.split(line)
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "tracegrade", *args[1:]],
        cwd=REPO,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
        timeout=300,
    )
    return done.stdout, done.returncode


def _render(commands: list[Command], results: list[tuple[str, int]]) -> str:
    text = ""
    for command, (output, code) in zip(commands, results, strict=True):
        text += f"$ {command.line}\n{output}"
        if command.code is not None or code != 0:
            text += f"$ echo $?\n{code}\n"
    return text


def _blocks() -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for name in DOCUMENTS:
        text = (REPO / name).read_text(encoding="utf-8")
        found.extend((name, number) for number, _ in enumerate(_BLOCK.finditer(text)))
    return found


def test_every_document_with_checked_blocks_is_listed():
    for name in DOCUMENTS:
        assert MARKER in (REPO / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize(("name", "number"), _blocks())
def test_documented_commands_print_what_the_docs_show(name: str, number: int):
    path = REPO / name
    text = path.read_text(encoding="utf-8")
    match = list(_BLOCK.finditer(text))[number]
    commands = _commands(match.group(1))
    results = [_run(command.line) for command in commands]
    if UPDATE:
        fresh = f"{MARKER}\n```text\n{_render(commands, results)}```\n"
        path.write_text(text[: match.start()] + fresh + text[match.end() :], encoding="utf-8")
        return
    for command, (output, code) in zip(commands, results, strict=True):
        assert output == command.output, f"{name}: `{command.line}` printed:\n{output}"
        assert code == (command.code or 0), f"{name}: `{command.line}` exited {code}"
