"""Text Claude Code itself writes into a session, told from the human's and the tools' own.

Reminders (``<system-reminder>``) appended to tool results, slash commands and their output,
the user's ``!`` shell commands, interruption notes: see docs/formats/claude-code.md. They are
read as ``system`` frames, never as the human's words or as evidence a tool returned.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tracegrade._text import is_blank
from tracegrade.traces._model import SystemFrame, UserFrame, text_frame

if TYPE_CHECKING:
    from tracegrade.traces._model import Frame

__all__ = ["split_injected", "without_reminders"]

# Text Claude Code itself writes into user turns: reminders, slash commands and their output,
# the user's own `!` shell commands and their output, interruption notes.
_INJECTED_TAGS = (
    "system-reminder",
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "user-prompt-submit-hook",
)
_INTERRUPTED = "[Request interrupted by user"
_INJECTED = re.compile(
    r"<(" + "|".join(_INJECTED_TAGS) + r")>.*?</\1>\s*|" + re.escape(_INTERRUPTED) + r"[^\]]*\]\s*",
    re.DOTALL,
)
_OPEN, _CLOSE = "<system-reminder>", "</system-reminder>"
_LOOKS = 8  # '<' characters tried one by one before a text is searched for the whole tag


def without_reminders(block: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A tool_result block without the ``<system-reminder>`` Claude Code appends to its text.

    Claude Code adds reminders to what a tool returned (after a file read, say); the tool
    did not return them, so they are not evidence.
    """
    content = block.get("content")
    if isinstance(content, str):  # most results: no closure, no list of parts
        kept, reminders = _cut_reminders(content)
        return ({**block, "content": kept} if reminders else block), reminders
    reminders = []

    def strip(text: str) -> str:
        kept, found = _cut_reminders(text)
        reminders.extend(found)
        return kept

    if isinstance(content, list) and any(
        isinstance(p, dict) and _OPEN in str(p.get("text", "")) for p in content
    ):
        parts = [
            {**p, "text": strip(p["text"])}
            if isinstance(p, dict) and isinstance(p.get("text"), str)
            else p
            for p in content
        ]
        return {**block, "content": parts}, reminders
    return block, reminders


def _cut_reminders(text: str) -> tuple[str, list[str]]:
    """``text`` without its reminders (and the white space before each), and the reminders.

    Found with ``str.find``: a regular expression scanning every 3 KB result for them cost
    half of reading a session.
    """
    kept: list[str] = []
    found: list[str] = []
    at = 0
    while (start := _find_open(text, at)) != -1 and (end := text.find(_CLOSE, start)) != -1:
        end += len(_CLOSE)
        kept.append(text[at:start].rstrip())
        found.append(text[start:end])
        at = end
    if not found:
        return text, found
    if len(kept) == 1:  # one reminder, usually last: str + "" is the str, not a copy
        return kept[0] + text[at:], found
    kept.append(text[at:])
    return "".join(kept), found


def _find_open(text: str, at: int) -> int:
    """``text.find(_OPEN, at)``, found through its ``<`` characters while they are few.

    ``str.find`` of one character is a memchr, ten times as fast on a 3 KB result as the
    search for the whole tag; a text full of ``<`` (HTML, code) goes to that search.
    """
    start = text.find("<", at)
    for _ in range(_LOOKS):
        if start == -1 or text.startswith(_OPEN, start):
            return start
        start = text.find("<", start + 1)
    return text.find(_OPEN, start) if start != -1 else -1


def split_injected(text: str, here: str) -> list[Frame]:
    """A user turn's text: the harness's tagged insertions as ``system``, the rest as the human."""
    if "<" not in text and _INTERRUPTED not in text:  # nothing _INJECTED could match
        return [text_frame(UserFrame, text, here)]
    injected = [m.group(0).strip() for m in _INJECTED.finditer(text)]
    human = _INJECTED.sub("", text)
    frames: list[Frame] = []
    if injected:
        frames.append(text_frame(SystemFrame, "\n".join(injected), here))
    if not is_blank(human) or not injected:
        frames.append(text_frame(UserFrame, human.strip() if injected else text, here))
    return frames
