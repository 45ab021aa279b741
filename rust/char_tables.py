r"""Write the character classes of the interpreter the core is built for (run by build.rs).

The core must classify every character as that CPython does, not as Rust's own (newer, and
differently defined) Unicode tables do: the claim scanners run one ``re`` pattern, the figure
matcher runs the reference's ``re`` patterns, whole-word search runs
``tracegrade._text.form_pattern``. The tables (ranges are sorted inclusive ``(first, last)``
runs of code points) and the Python definition each is read off:

``WORD``, ``SPACE``, ``DECIMAL``
    ``re``'s ``\w``, ``\s`` and ``\d``, found by ``re`` itself over every code point. Each is
    checked to equal its ``str`` definition (``isalnum()`` or ``_``, ``isspace()``,
    ``isdecimal()``), so ``[^\W_]`` is ``str.isalnum()`` and one table serves both.
``DECIMAL_ZEROS``
    The zero of each run of decimal digits. A digit's value (what ``int()``, ``Decimal()``
    and ``unicodedata.decimal()`` read) is its distance from the zero before it: checked for
    every digit. Also checked: no other character lower-cases to a digit (the figure matcher
    reads digits off the lower-cased text).
``ALPHA``, ``UPPER``, ``LOWER``, ``TITLE``
    ``str.isalpha()``, and the flags ``str.isupper()`` reads: ``isupper()``, ``islower()``
    and ``istitle() and not isupper()`` of one character.
``FOLD``
    Each non-ASCII character ``re.IGNORECASE`` matches to an ASCII letter (U+017F to ``s``,
    U+0131 to ``i``...), with that letter; checked to be one letter each, and to agree with
    the literal rule below.
``SRE_CASED``, ``SRE_LOWER``, ``SRE_GROUP``, ``ASCII_KEY``
    How ``re`` (``_sre``) matches a literal under ``IGNORECASE``: an uncased literal only
    itself; a cased one (``SRE_CASED``) any character whose simple lower case
    (``SRE_LOWER``, where it differs) is the literal's, or one of the extra equivalents
    ``re`` lists for it (``SRE_GROUP``: each lower case with extras, to the smallest of its
    group). ``ASCII_KEY`` holds the resulting key of each ASCII character. Before writing,
    the rule is checked against ``re`` for every pair of characters that could match.
``NORMAL``
    The characters Unicode normalisation leaves alone wherever they stand: each is its own
    NFC and NFD, has combining class 0, and is never the second of a canonical pair (no
    character decomposes to it after a first, and no Hangul vowel or trailing jamo), so no
    neighbour composes with it. A text of these only is its own NFC, NFD and accent-free
    form (claims/_scan.py ``_unicode_variants``): checked over every ASCII pair.
``COMBINING``, ``DECOMPOSE``, ``COMPOSE``
    What ``unicodedata.normalize`` reads, for the other texts (crate::normal): each
    non-zero combining class; each character's full canonical decomposition (Hangul
    syllables are decomposed by rule); each pair a character composes from under NFC.
    tests/engines/test_native_claims.py holds the core's forms to ``unicodedata``'s for
    every character and for generated texts.

Any failed check stops the build with a line naming the character.
"""

import _sre  # type: ignore[import-not-found]  # re's matcher: its case tables are in question
import re
import sys
import unicodedata
from collections.abc import Callable
from decimal import Decimal

# The extra equivalents re's compiler adds to a cased literal (Python 3.11+, as required).
from re._casefix import _EXTRA_CASES as EXTRA  # type: ignore[import-not-found]
from typing import NoReturn

EVERY = "".join(chr(code) for code in range(sys.maxunicode + 1))
CODES = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def fail(message: str) -> NoReturn:
    """Stop the build with one line saying why."""
    sys.exit(f"char_tables.py: {message}")


def ranges(codes: list[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive ``(first, last)`` runs."""
    spans: list[tuple[int, int]] = []
    for code in codes:
        if spans and spans[-1][1] == code - 1:
            spans[-1] = (spans[-1][0], code)
        else:
            spans.append((code, code))
    return spans


def read_off_re(pattern: str, rule: str, holds: Callable[[str], bool]) -> list[int]:
    """The code points ``pattern`` matches, checked equal to the ``str`` rule ``holds``."""
    found = [ord(char) for char in re.findall(pattern, EVERY)]
    wanted = [ord(char) for char in EVERY if holds(char)]
    if found != wanted:
        odd = sorted(set(found) ^ set(wanted))[0]
        fail(f"re's {pattern} and {rule} part at U+{odd:04X}: the core assumes they agree")
    return found


def decimal_zeros(digits: list[int]) -> list[int]:
    """The zero of each run of decimal digits, checked against every digit's value."""
    zeros = [code for code in digits if unicodedata.decimal(chr(code)) == 0]
    digit_set = set(digits)
    for code in digits:
        char = chr(code)
        zero = max((z for z in zeros if z <= code), default=None)
        value = int(char)
        if zero is None or code - zero != value or unicodedata.decimal(char) != value:
            fail(f"the digit U+{code:04X} is not its distance from the zero before it")
        if Decimal(char) != value:
            fail(f"Decimal() reads the digit U+{code:04X} unlike int()")
    for char in EVERY:
        if ord(char) not in digit_set and any(ord(low) in digit_set for low in char.lower()):
            fail(f"U+{ord(char):04X} lower-cases to a digit: the figure engine needs a fix")
    return zeros


def folds() -> list[tuple[int, str]]:
    """Each non-ASCII character ``re.IGNORECASE`` matches to an ASCII letter, with it."""
    found: list[tuple[int, str]] = []
    for char in re.findall("[a-z]", EVERY, re.IGNORECASE):
        if not char.isascii():
            letters = [x for x in LETTERS if re.fullmatch(x, char, re.IGNORECASE)]
            if len(letters) != 1:
                fail(f"U+{ord(char):04X} matches {letters} under re.IGNORECASE, not one letter")
            found.append((ord(char), letters[0]))
    return found


def groups() -> dict[int, int]:
    """Each lower case with extra equivalents, mapped to the smallest of its group."""
    found: dict[int, int] = {}
    for low, others in EXTRA.items():
        group = {low, *others}
        for member in group:  # the groups must be closed: each lists all the others
            if {member, *EXTRA.get(member, ())} != group:
                fail(f"re's extra cases of U+{low:04X} are not a group")
        found[low] = min(group)
    return found


def check_literals(cased: set[int], lower: dict[int, int], group: dict[int, int]) -> None:
    """Fail unless the encoded literal rule matches ``re`` on every pair that could match.

    A cased literal can only match a character whose simple lower case is in its group:
    itself cased, or a lower case or group member; every such pair is tried here.
    """

    def key(code: int) -> int:
        low = lower.get(code, code)
        return group.get(low, low)

    pool = sorted(cased | set(lower.values()) | set(group) | set(range(0x80)))
    text = "".join(map(chr, pool))
    for code in pool:
        literal = chr(code)
        found = {m.start() for m in re.finditer(re.escape(literal), text, re.IGNORECASE)}
        want = {
            at
            for at, other in enumerate(pool)
            if (other == code if code not in cased else key(other) == key(code))
        }
        if found != want:
            fail(f"re matches U+{code:04X} unlike the encoded rule")


def check_folds(fold: list[tuple[int, str]], lower: dict[int, int], group: dict[int, int]) -> None:
    """``FOLD`` is the literal rule's answer for the ASCII letters (two readings, one answer)."""

    def key(code: int) -> int:
        low = lower.get(code, code)
        return group.get(low, low)

    by_key = {key(ord(letter)): letter for letter in LETTERS}
    derived = [(c, by_key[key(c)]) for c in CODES if c >= 0x80 and key(c) in by_key]
    if derived != fold:
        fail(f"re.IGNORECASE's [a-z] ({fold}) and its literal rule ({derived}) disagree")


def normal() -> list[int]:
    """The characters normalisation leaves alone wherever they stand (``NORMAL`` above)."""
    seconds: set[int] = set()
    for code in CODES:
        decomposed = unicodedata.normalize("NFD", chr(code))
        seconds.update(ord(char) for char in decomposed[1:])
        mapping = unicodedata.decomposition(chr(code)).split()
        if mapping and not mapping[0].startswith("<"):  # one canonical step
            seconds.update(int(part, 16) for part in mapping[1:])
    seconds |= set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))  # Hangul V and T
    found = [
        code
        for code in CODES
        if unicodedata.normalize("NFC", chr(code)) == chr(code)
        and unicodedata.normalize("NFD", chr(code)) == chr(code)
        and unicodedata.combining(chr(code)) == 0
        and code not in seconds
    ]
    ascii_pairs = "".join(chr(a) + chr(b) for a in range(0x80) for b in range(0x80))
    if any(code not in set(found) for code in range(0x80)) or (
        unicodedata.normalize("NFC", ascii_pairs) != ascii_pairs
    ):
        fail("normalisation changes ASCII text: the claim forms need a fix")
    return found


HANGUL = range(0xAC00, 0xD7A4)


def normal_forms() -> tuple[dict[int, int], dict[int, str], dict[tuple[int, int], int]]:
    """The combining classes, canonical decompositions and composing pairs (see above)."""
    combining = {code: cc for code in CODES if (cc := unicodedata.combining(chr(code)))}
    decompose: dict[int, str] = {}
    compose: dict[tuple[int, int], int] = {}
    for code in CODES:
        char = chr(code)
        if code in HANGUL:
            continue
        decomposed = unicodedata.normalize("NFD", char)
        if decomposed != char:
            decompose[code] = decomposed
        mapping = unicodedata.decomposition(char).split()
        if len(mapping) == 2 and not mapping[0].startswith("<"):
            first, second = (int(part, 16) for part in mapping)
            if unicodedata.normalize("NFC", decomposed) == char:  # not excluded
                compose[first, second] = code
    return combining, decompose, compose


def _rust_text(text: str) -> str:
    return '"' + "".join(f"\\u{{{ord(char):x}}}" for char in text) + '"'


def spans(name: str, codes: list[int]) -> list[str]:
    """One class as the lines of a Rust static of ranges."""
    runs = ranges(codes)
    body = [f"    (0x{a:x}, 0x{b:x})," for a, b in runs]
    return [f"pub static {name}: [(u32, u32); {len(runs)}] = [", *body, "];"]


def main(path: str) -> None:
    """Check the definitions and write the tables as Rust source to ``path``."""
    word = read_off_re(r"\w", "str.isalnum() or '_'", lambda c: c.isalnum() or c == "_")
    space = read_off_re(r"\s", "str.isspace()", str.isspace)
    decimal = read_off_re(r"\d", "str.isdecimal()", str.isdecimal)
    zeros = decimal_zeros(decimal)
    flags: dict[str, list[int]] = {"ALPHA": [], "UPPER": [], "LOWER": [], "TITLE": []}
    for code in CODES:
        char = chr(code)
        for name, holds in (
            ("ALPHA", char.isalpha()),
            ("UPPER", char.isupper()),
            ("LOWER", char.islower()),
            ("TITLE", char.istitle() and not char.isupper()),
        ):
            if holds:
                flags[name].append(code)
    cased = {c for c in CODES if _sre.unicode_iscased(c)}
    lower = {c: low for c in CODES if (low := _sre.unicode_tolower(c)) != c}
    group = groups()
    check_literals(cased, lower, group)
    fold = folds()
    check_folds(fold, lower, group)

    version = sys.version.split()[0]
    lines = [f"// Generated by char_tables.py from Python {version}; do not edit."]
    for name, codes in (("WORD", word), ("SPACE", space), ("DECIMAL", decimal)):
        lines += spans(name, codes)
    lines.append(f"pub static DECIMAL_ZEROS: [u32; {len(zeros)}] = [{', '.join(map(hex, zeros))}];")
    for name, codes in flags.items():
        lines += spans(name, codes)
    lines.append(f"pub static FOLD: [(u32, u8); {len(fold)}] = [")
    lines.extend(f"    (0x{code:x}, b'{letter}')," for code, letter in fold)
    lines.append("];")
    lines += spans("SRE_CASED", sorted(cased))
    lines += spans("NORMAL", normal())
    combining, decompose, compose = normal_forms()
    lines.append(f"pub static COMBINING: [(u32, u8); {len(combining)}] = [")
    lines.extend(f"    (0x{code:x}, {cc})," for code, cc in sorted(combining.items()))
    lines.append("];")
    lines.append(f"pub static DECOMPOSE: [(u32, &str); {len(decompose)}] = [")
    lines.extend(f"    (0x{code:x}, {_rust_text(t)})," for code, t in sorted(decompose.items()))
    lines.append("];")
    lines.append(f"pub static COMPOSE: [((u32, u32), u32); {len(compose)}] = [")
    lines.extend(f"    ((0x{a:x}, 0x{b:x}), 0x{c:x})," for (a, b), c in sorted(compose.items()))
    lines.append("];")
    keys = [group.get(lower.get(code, code), lower.get(code, code)) for code in range(0x80)]
    lines.append("pub static ASCII_KEY: [u32; 128] = [")
    lines.extend(f"    0x{key:x}," for key in keys)
    lines.append("];")
    for name, pairs in (("SRE_LOWER", sorted(lower.items())), ("SRE_GROUP", sorted(group.items()))):
        lines.append(f"pub static {name}: [(u32, u32); {len(pairs)}] = [")
        lines.extend(f"    (0x{a:x}, 0x{b:x})," for a, b in pairs)
        lines.append("];")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
