"""Text rules shared by every stage, with the exact semantics of the reference grader.

The reference grader is JavaScript; Python's defaults differ at the edges
(``str.splitlines`` splits on more characters, ``str.strip`` and the ``re`` module
use another whitespace set, ``casefold`` changes more than ``toLowerCase``).
Every stage goes through these helpers so the differences are handled once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "LINE_BREAK",
    "LOWER_TO_ASCII",
    "WHITESPACE",
    "collapse",
    "contains",
    "contains_each",
    "escape_controls",
    "form_pattern",
    "is_blank",
    "split_lines",
    "trim",
    "word_test",
]

# JavaScript's whitespace set (String.prototype.trim, /\s/): note U+FEFF is in,
# U+001C-U+001F and U+0085 are out, unlike Python's str.strip().
WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_WHITESPACE_RUN = re.compile(f"[{re.escape(WHITESPACE)}]+")
# Where Python's str.split() whitespace differs from JavaScript's (checked over all of
# Unicode): Python also splits on U+001C-U+001F and U+0085, and not on U+FEFF.
_SPLIT_DIFFERS = ("\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\ufeff")

# The only non-ASCII characters whose lower case holds ASCII (checked over all of Unicode).
LOWER_TO_ASCII = ("\u0130", "\u212a")

# Lines break on CRLF, lone CR or lone LF, and nothing else (not \v, \f, U+2028 ...).
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def trim(text: str) -> str:
    """Strip JavaScript whitespace from both ends."""
    return text.strip(WHITESPACE)


def is_blank(text: str) -> bool:
    """True when the text is empty or only JavaScript whitespace."""
    return not text.strip(WHITESPACE)


def collapse(text: str) -> str:
    """Replace every whitespace run with one space, then trim."""
    if not any(char in text for char in _SPLIT_DIFFERS):
        return " ".join(text.split())  # same sets here, and far faster than the regex
    return _WHITESPACE_RUN.sub(" ", text).strip(" ")


def contains(haystack: str, needle: str) -> bool:
    """Case-insensitive substring test: lower-case both, no boundaries, no normalisation."""
    return needle.lower() in haystack.lower()


def contains_each(haystack: str, needles: Sequence[str]) -> list[bool]:
    """:func:`contains` for several needles, lower-casing the haystack once.

    For ASCII needles a non-ASCII haystack is lower-cased as UTF-8 bytes (``bytes.lower``
    touches ASCII only), which is exact unless it holds one of :data:`LOWER_TO_ASCII`
    and several times faster than ``str.lower``.
    """
    lowered = [needle.lower() for needle in needles]
    if (
        not haystack.isascii()
        and all(needle.isascii() for needle in lowered)
        and LOWER_TO_ASCII[0] not in haystack
        and LOWER_TO_ASCII[1] not in haystack
    ):
        folded = haystack.encode("utf-8", "surrogatepass").lower()
        return [needle.encode() in folded for needle in lowered]
    text = haystack.lower()
    return [needle in text for needle in lowered]


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF, keeping a final empty piece after a trailing break."""
    return LINE_BREAK.split(text)


def form_pattern(form: str) -> re.Pattern[str]:
    """A case-insensitive pattern for ``form`` as a whole word.

    A form that starts (ends) with a letter or digit must not be preceded (followed) by one:
    ``NOS-18`` is not shown by ``NOS-183``, ``25 countries`` not by ``125 countries``. The
    compiled core matches by the same rule (rust/src/words.rs).
    """
    head = r"(?<![^\W_])" if form[:1].isalnum() else ""
    tail = r"(?![^\W_])" if form[-1:].isalnum() else ""
    return re.compile(head + re.escape(form) + tail, re.IGNORECASE)


def word_test(form: str) -> Callable[[str], object] | None:
    """Whether a text holding ``form`` (case-insensitively) holds it as a whole word.

    Returns:
        ``form_pattern(form).search``; ``None`` when the form neither starts nor ends with
        a letter or digit, so any text holding it does.
    """
    if not (form[:1].isalnum() or form[-1:].isalnum()):
        return None
    return form_pattern(form).search


# C0 controls but tab and line feed, DEL, and C1 controls: what a terminal acts on.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    r"""Text safe to print on a terminal: each control character written as a visible escape.

    Trace content reaches text output (``show``, grade text and TSV, guard replay, contract
    check); an escape sequence in it could retitle the window or write the clipboard (OSC
    52). ESC becomes the four characters ``\x1b``; tab and line feed are kept.
    """
    return _CONTROLS.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
