"""Claims of the kinds a program writes: paths, URLs and domains, e-mails, identifiers, ids, quotes.

Each builder turns one match of the scan (``_scan.py``) into a claim, or ``None`` when the
match is not a claim after all (a number with a unit, "and/or"). The forms are what a tool
result would write to show the same thing (docs/claims.md).
"""

from __future__ import annotations

import re

from tracegrade.claims._answer_claim import AnswerClaim

__all__ = [
    "domain_claim",
    "email_claim",
    "extension_claim",
    "id_claim",
    "identifier_claim",
    "path_claim",
    "quote_claim",
    "url_claim",
]

_ALNUM = re.compile(r"[^\W_]")
# Trailing characters that end the sentence, not the URL or path: "see https://x.org/a."
_TRAILING = ".,;:!?)]}'\"\u2019\u201d>"


def _trimmed(raw: str, start: int) -> tuple[str, int, int]:
    text = raw.rstrip(_TRAILING)
    return text, start, start + len(text)


def url_claim(raw: str, start: int) -> AnswerClaim | None:
    """A URL: compared without its scheme, ``www.`` and trailing slash, case-insensitively.

    A listing or a fetched page names ``https://en.wikipedia.org/wiki/IPv6``; an answer may
    write ``en.wikipedia.org/wiki/IPv6/``: both show the same page.
    """
    raw, start, end = _trimmed(raw, start)
    bare = re.sub(r"^(?:[a-z][a-z0-9+.-]*://)?(?:www\.)?", "", raw, flags=re.IGNORECASE)
    bare = bare.rstrip("/")
    if "." not in bare.split("/", 1)[0]:
        return None
    return AnswerClaim("url", raw, bare.lower(), start, end, (bare,))


def domain_claim(raw: str, start: int) -> AnswerClaim:
    """A bare domain, ``example.com``: shown by the domain with or without ``www.``."""
    bare = raw.lower().removeprefix("www.")
    return AnswerClaim("url", raw, bare, start, start + len(raw), (bare,))


def email_claim(raw: str, start: int) -> AnswerClaim:
    """An e-mail address, compared case-insensitively."""
    raw, start, end = _trimmed(raw, start)
    return AnswerClaim("email", raw, raw.lower(), start, end, (raw,))


_NUMBERS_ONLY = re.compile(r"[\d/.,:-]+")


def path_claim(raw: str, start: int) -> AnswerClaim | None:
    """A file path: its own text, and its final name when it has folders.

    A listing rooted in a sub-folder, or a read that names the file as the tool was called,
    writes ``config.ts`` for the answer's ``agent/src/config.ts``; any other folder holding
    a file of that name shows it too (forms say what could show a claim, not what proves it).
    """
    raw, start, end = _trimmed(raw, start)
    if _NUMBERS_ONLY.fullmatch(raw):
        return None  # "24/7", "3/4", "1/2/2024": numbers, not paths
    segments = [part for part in raw.split("/") if part]
    has_extension = bool(segments) and re.search(r"\.[A-Za-z][A-Za-z0-9]{0,7}$", segments[-1])
    rooted = raw.startswith(("/", "./", "../", "~/")) or raw.endswith("/")
    if not segments or (len(segments) < 3 and not has_extension and not rooted):
        return None  # "and/or", "km/h": prose with one slash
    text = raw.removeprefix("./").rstrip("/") or raw
    forms = [text]
    if len(segments) > 1:
        forms.append(segments[-1])
    return AnswerClaim("path", raw, text, start, end, tuple(dict.fromkeys(forms)))


def extension_claim(raw: str, start: int) -> AnswerClaim:
    """A file extension, ``.avif``: shown by the extension with or without its dot."""
    bare = raw[1:]
    return AnswerClaim("identifier", raw, raw.lower(), start, start + len(raw), (bare,))


def identifier_claim(raw: str, start: int, *, quoted: bool = False) -> AnswerClaim | None:
    """A code identifier (``MODEL_NAME``, ``maxBatch``, ``os.path.join``) or backticked code.

    A call's parentheses are dropped (``join()`` is shown by ``join``); backticked code is
    shown by its text with surrounding whitespace removed.
    """
    end = start + len(raw)
    inner = raw[1:-1].strip() if quoted else raw
    inner = inner.removesuffix("()")
    if not _ALNUM.search(inner):
        return None
    return AnswerClaim("identifier", raw, inner, start, end, (inner,))


def id_claim(raw: str, start: int) -> AnswerClaim:
    """A token mixing letters and digits: ``ZFA04Y``, ``NOS-183``, ``Su-24``, a commit hash.

    A hyphenated id is also shown written with a space or run together: ``F-16`` by ``F16``.
    """
    forms = [raw]
    if "-" in raw:
        forms += [raw.replace("-", ""), raw.replace("-", " ")]
    return AnswerClaim("id", raw, raw, start, start + len(raw), tuple(dict.fromkeys(forms)))


_SPACES = re.compile(r"\s+")
_MAX_QUOTE_WORDS = 12


def quote_claim(raw: str, start: int) -> AnswerClaim | None:
    """A quoted string: shown by its text, with or without the punctuation quoted at its end.

    Also shown with its hyphens written as spaces (``well-proportioned``), and tokenised, with
    spaces around brackets and commas, as corpora prepared for NLP write text.

    Long quotes (more than 12 words) are left to their parts: a paraphrased sentence in
    quotes would be unsupported for a changed comma.
    """
    inner = _SPACES.sub(" ", raw[1:-1]).strip()
    bare = inner.rstrip(".,;:!?")
    if not _ALNUM.search(bare):
        return None
    if len(bare.split()) > _MAX_QUOTE_WORDS:
        return None
    forms = tuple(
        dict.fromkeys([bare, inner, bare.replace("-", " "), _TOKENISED.sub(r" \1 ", bare).strip()])
    )
    return AnswerClaim("quote", raw, bare, start, start + len(raw), forms)


# Corpora tokenised for NLP write "Veeram ( Valour )" for "Veeram (Valour)".
_TOKENISED = re.compile(r"\s*([(),;:])\s*")
