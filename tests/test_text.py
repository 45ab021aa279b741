"""The JavaScript text rules of SPEC 4 and 13: whitespace, line breaks, lower-casing."""

from __future__ import annotations

import pytest

from tracegrade._text import collapse, contains, escape_controls, is_blank, split_lines, trim

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
NOT_JS_WHITESPACE = "\x1c\x1d\x1e\x1f\x85\u200b\u180e"


@pytest.mark.parametrize("char", list(JS_WHITESPACE))
def test_every_javascript_whitespace_character_is_trimmed_and_blank(char) -> None:
    assert trim(f"{char}x{char}") == "x"
    assert is_blank(char * 3)
    assert collapse(f"a{char}{char}b") == "a b"


@pytest.mark.parametrize("char", list(NOT_JS_WHITESPACE))
def test_characters_python_strips_but_javascript_keeps(char) -> None:
    assert trim(f"{char}x{char}") == f"{char}x{char}"
    assert not is_blank(char)
    assert collapse(f"a{char}b") == f"a{char}b"


def test_trim_keeps_inner_whitespace() -> None:
    assert trim("\ufeff  a  b \u3000") == "a  b"


def test_is_blank() -> None:
    assert is_blank("")
    assert is_blank(" \t\r\n\ufeff")
    assert not is_blank(" . ")


def test_collapse_replaces_runs_then_trims() -> None:
    assert collapse("  The port:\n\n\tis \u00a0 4321.\ufeff ") == "The port: is 4321."
    assert collapse("") == ""
    assert collapse(" \n ") == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\r\nb\rc\nd", ["a", "b", "c", "d"]),
        ("a\n", ["a", ""]),
        ("", [""]),
        ("\r\n", ["", ""]),
        ("\n\r", ["", "", ""]),
        ("\r\r\n\n", ["", "", "", ""]),
        (
            "a\vb\fc\x1cd\x1de\x1ef\x85g\u2028h\u2029i",
            ["a\vb\fc\x1cd\x1de\x1ef\x85g\u2028h\u2029i"],
        ),
    ],
)
def test_split_lines_only_on_crlf_cr_lf_keeping_the_final_empty_piece(text, expected) -> None:
    assert split_lines(text) == expected


@pytest.mark.parametrize(
    ("haystack", "needle", "expected"),
    [
        ("The PORT is 4321", "port is", True),
        ("2500", "250", True),  # no word boundaries
        ("abc", " abc", False),  # no trimming
        ("anything", "", True),
        ("Straße", "STRASSE", False),  # lower(), not casefold()
        ("STRASSE", "straße", False),
        ("ẞ", "ß", True),  # capital sharp s lower-cases to ß
        ("İstanbul", "i", True),  # İ lower-cases to i + combining dot
        ("ﬁle", "file", False),  # no normalisation
        ("café", "CAFÉ", True),
    ],
)
def test_contains_lower_cases_both_sides_and_nothing_else(haystack, needle, expected) -> None:
    assert contains(haystack, needle) is expected


def test_escape_controls_makes_terminal_sequences_visible_and_keeps_tabs_and_newlines():
    osc52 = "\x1b]52;c;aGVsbG8=\x07"
    assert escape_controls(f"a{osc52}b") == r"a\x1b]52;c;aGVsbG8=\x07b"
    assert escape_controls("line\n\tindented\r") == "line\n\tindented\\x0d"
    assert escape_controls("\x00\x7f\x85\x9b\xa0é") == "\\x00\\x7f\\x85\\x9b\xa0é"  # C1 too
    assert escape_controls("plain text, 45 days") == "plain text, 45 days"
