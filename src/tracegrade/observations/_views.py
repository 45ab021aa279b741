"""File views: text results that name the file they show, decoded into its numbered lines.

Coding agents read files through text tools, and the result (or the call) says which file:

- SWE-agent's windowed viewer (``open``, ``goto``, ``scroll_down``, ``create``, and ``edit``
  once the edit is made) shows ``[File: PATH (N lines total)]``, then ``(K more lines
  above)``, then ``NUM:text`` lines, then ``(M more lines below)``;
- a shell call whose command is one file view: ``cat PATH``, ``cat -n PATH``, ``nl -ba PATH``,
  ``sed -n 'A,Bp' PATH`` or ``nl -ba PATH | sed -n 'A,Bp'``; its output is the file's lines,
  numbered by ``nl`` / ``cat -n`` or from 1 (``cat``) or ``A`` (``sed``).

Each gives line observations with the file's path and real line numbers, so provenance can
be ``grounded`` for such agents. SWE-agent's state footer (``(Open file: ...)``, ``(Current
directory: ...)``, ``bash-$``) is kept as text under the tool's name; a path under the current
directory it names is made relative to it (``/testbed/src/a.py`` is ``src/a.py``), and a
message before the window ("File updated. Please review ...") is text too. The window must run
to the end of the result: a failed edit that quotes "how your edit would have looked" and then
"the original code" is not a view of the file, and is read as text. Anything that does not
fit exactly (an error from ``cat``, a line without its number) is left to the text rule.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from tracegrade.observations._model import Document, Lines

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations._model import Source

__all__ = ["decode_file_view"]

_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER = re.compile(r"\[File: (?P<path>.+) \((?P<total>\d+) lines total\)\]\Z")
_ABOVE = re.compile(r"\(\d+ more lines? above\)\Z")
_BELOW = re.compile(r"\(\d+ more lines? below\)\Z")
_WINDOW_LINE = re.compile(r"(?P<number>\d+):(?P<text>.*)\Z", re.DOTALL)
_NUMBERED = re.compile(r" *(?P<number>\d+)\t(?P<text>.*)\Z", re.DOTALL)  # nl -ba, cat -n
_FOOTER = re.compile(r"\((?:Open file|Current directory): .*\)\Z|bash-\$\Z")
_DIRECTORY = re.compile(r"\(Current directory: (?P<directory>.+)\)\Z")
_SED_RANGE = re.compile(r"(?P<first>\d+)(?:,(?P<last>\d+))?p\Z")
_SHELL_OPERATORS = frozenset({"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1"})


def _split_footer(lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines before SWE-agent's trailing state footer, and the footer."""
    end = len(lines)
    while end and _FOOTER.match(lines[end - 1]):
        end -= 1
    return lines[:end], lines[end:]


def _relative(path: str, footer: list[str]) -> str:
    """The path relative to the footer's current directory when it lies under it."""
    for line in footer:
        found = _DIRECTORY.match(line)
        if found is not None:
            directory = found["directory"].rstrip("/") + "/"
            if path.startswith(directory):
                return path[len(directory) :]
    return path[2:] if path.startswith("./") else path


def _with_text(lines: Lines, before: list[str], after: list[str], tool: str) -> list[Source]:
    """The file's lines, with any message before them and the footer as text of the tool."""
    sources: list[Source] = []
    while before and before[-1] == "":
        before.pop()
    if before:
        sources.append(Document(tool, "\n".join(before)))
    sources.append(lines)
    if after:
        sources.append(Document(tool, "\n".join(after)))
    return sources


def _window(text: str, tool: str) -> list[Source] | None:
    """SWE-agent's ``[File: PATH (N lines total)]`` window, when it runs to the result's end."""
    lines = _BREAK.split(text)
    start = next((n for n, line in enumerate(lines) if line.startswith("[File: ")), None)
    header = None if start is None else _HEADER.match(lines[start])
    if start is None or header is None:
        return None
    body, footer = _split_footer(lines[start + 1 :])
    if body and _ABOVE.match(body[0]):
        body = body[1:]
    while body and body[-1] == "":  # the viewer ends its window with a line break
        body.pop()
    if body and _BELOW.match(body[-1]):
        body.pop()
    numbers: list[int] = []
    texts: list[str] = []
    for line in body:
        found = _WINDOW_LINE.match(line)
        if found is None:  # more text after the window: a message quoting views, not a view
            return None
        numbers.append(int(found["number"]))
        texts.append(found["text"])
    path = _relative(header["path"], footer)
    shown = Lines((path,) * len(texts), tuple(numbers), tuple(texts))
    return _with_text(shown, lines[:start], footer, tool)


def _command_of(args: object) -> str | None:
    if isinstance(args, str):
        return args
    if isinstance(args, dict):
        for key in ("command", "cmd"):
            value = args.get(key)
            if isinstance(value, str):
                return value
    return None


def _sed_range(words: list[str]) -> tuple[int, int] | None:
    """The lines ``sed -n 'A,Bp'`` (or ``'Ap'``) prints, if the words start with exactly that."""
    if len(words) < 3 or words[:2] != ["sed", "-n"]:
        return None
    found = _SED_RANGE.match(words[2])
    if found is None:
        return None
    first = int(found["first"])
    return first, int(found["last"] or first)


_View = tuple[str, str, int, int | None]  # path, numbering, first line, last line


def _viewed(command: str) -> _View | None:
    """``(path, numbering, first, last)`` when the command only shows one file, else ``None``.

    ``numbering`` is ``"given"`` (the output carries them: ``nl -ba``, ``cat -n``) or
    ``"counted"`` (from ``first`` on: ``cat``, ``sed -n``); ``last`` bounds a ``sed`` range.
    """
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if "|" in words:  # only nl -ba PATH | sed -n 'A,Bp'
        pipe = words.index("|")
        left, right = words[:pipe], words[pipe + 1 :]
        numbered = len(left) == 3 and left[:2] == ["nl", "-ba"]
        if numbered and len(right) == 3 and _sed_range(right) is not None:
            return left[2], "given", 0, None
        return None
    if _SHELL_OPERATORS.intersection(words) or any("$(" in w or "`" in w for w in words):
        return None
    return _one_command(words)


def _one_command(words: list[str]) -> _View | None:
    lines = _sed_range(words)
    view: _View | None = None
    if len(words) == 2 and words[0] == "cat":
        view = (words[1], "counted", 1, None)
    elif len(words) == 3 and words[:2] in (["cat", "-n"], ["nl", "-ba"]):
        view = (words[2], "given", 0, None)
    elif lines is not None and len(words) == 4:
        view = (words[3], "counted", lines[0], lines[1])
    return view


def _command_view(text: str, command: str, tool: str) -> list[Source] | None:
    viewed = _viewed(command)
    if viewed is None:
        return None
    path, numbering, first, last = viewed
    if path.startswith("-"):
        return None
    body, footer = _split_footer(_BREAK.split(text))
    while body and body[-1] == "":
        body.pop()
    if not body or body[0].startswith(("cat: ", "nl: ", "sed: ")):  # nothing shown, or an error
        return None
    if last is not None and len(body) > last - first + 1:  # more than the range: not the file
        return None
    numbers: list[int] = []
    texts: list[str] = []
    for offset, line in enumerate(body):
        if numbering == "counted":
            numbers.append(first + offset)
            texts.append(line)
            continue
        found = _NUMBERED.match(line)
        if found is None:
            return None
        numbers.append(int(found["number"]))
        texts.append(found["text"])
    path = _relative(path, footer)
    return _with_text(Lines((path,) * len(texts), tuple(numbers), tuple(texts)), [], footer, tool)


def decode_file_view(result: object, tool: str, args: object) -> Sequence[Source] | None:
    """A text result that shows one named file, as that file's numbered lines.

    Args:
        result: The tool result; only strings are file views.
        tool: The tool's name, for the state footer's source.
        args: The call's arguments: a shell command (``{"command": ...}``) may name the file.

    Returns:
        The file's lines (and the footer as text), or ``None`` when the result is no file
        view (then it is read as text).
    """
    if not isinstance(result, str):
        return None
    window = _window(result, tool)
    if window is not None:
        return window
    command = _command_of(args)
    return None if command is None else _command_view(result, command, tool)
