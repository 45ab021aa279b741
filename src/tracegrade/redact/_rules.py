"""What counts as a secret: the packaged rules and user patterns (pure).

A :class:`RedactionRule` finds one kind of secret in a text; its match (or one group of
it, so ``password=`` stays readable) is replaced by ``[REDACTED:kind]``. Each rule names
``triggers``: literal strings at least one of which a text must hold (case-insensitively)
for the rule's regular expression to run at all, so a text without any of them costs a
few substring checks. No rule matches any replacement text, so redacting twice changes
nothing the first pass left.

Beside the text rules, :func:`sensitive_name` says which JSON keys and span attribute
names hold a credential as a whole (``Authorization``, ``Cookie``, ``api_key``,
``http.request.header.authorization``): their string values are replaced outright.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tracegrade._lazy_pattern import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "ACCEPT_NAMES",
    "NAME_PARTS",
    "NOT_VALUES",
    "PACKAGED_RULES",
    "RedactionRule",
    "names_a_credential",
    "pattern_problem",
    "replacement",
    "sensitive_name",
    "user_rule",
]

_KIND = re.compile(r"[a-z0-9][a-z0-9-]*")
_REDACTED = r"(?!\[REDACTED:)"  # a value already replaced is not a secret again


def replacement(kind: str) -> str:
    """The text a secret of ``kind`` is replaced by: ``[REDACTED:kind]``."""
    return f"[REDACTED:{kind}]"


@dataclass(frozen=True, slots=True)
class RedactionRule:
    r"""One kind of secret and how to find it in a text.

    Attributes:
        kind: What the secret is (``openai-key``); the replacement says it.
        pattern: Finds it. A packaged rule's is a :class:`~tracegrade._lazy_pattern.LazyPattern`,
            compiled the first time a text holds one of its triggers (most texts hold none,
            and compiling all of them cost 3 ms of every command's start-up).
        group: The group of a match that is the secret; ``0``: the whole match.
        triggers: Lower-case literals; the pattern runs only on a text holding one of them.
            Empty: it always runs.
        accept: A further test of a found secret; ``False`` keeps the text as it is.
        beside: The rule applies only to a text this also matches (an AWS secret key is
            only told apart from other 40-character strings by the key id beside it).
        fold: The pattern is written in lower case and runs on the lower-cased text
            (case-insensitive, and fast: a pattern that starts with a literal is searched
            for that literal first, which ``re.IGNORECASE`` and ``\b`` would prevent).
        after: Characters a match may not follow (besides letters and digits) when
            ``bounded``: the word boundary, checked outside the pattern for the same reason.
        bounded: Whether a match must start at a word boundary (see ``after``).
    """

    kind: str
    pattern: re.Pattern[str] | LazyPattern
    group: int = 0
    triggers: tuple[str, ...] = ()
    accept: Callable[[str], bool] | None = None
    beside: re.Pattern[str] | LazyPattern | None = field(default=None)
    fold: bool = False
    after: str = "_"
    bounded: bool = False

    def starts_ok(self, text: str, start: int) -> bool:
        """Whether a match starting at ``start`` is at a word boundary (when it must be)."""
        if not self.bounded or start == 0:
            return True
        before = text[start - 1]
        # "]" too: what follows a replacement must not become a match on a second pass.
        return not (before.isalnum() or before == "]" or before in self.after)


def _mixed(text: str) -> bool:
    """Upper- and lower-case letters and a digit: a random key, not a word or a hex hash."""
    return (
        any(c.isupper() for c in text)
        and any(c.islower() for c in text)
        and any(c.isdigit() for c in text)
    )


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _bearer_token(text: str) -> bool:
    # "Bearer authentication" is prose; a token has a digit or is long.
    return len(text) >= 8 and (_has_digit(text) or len(text) >= 24)


def _basic_credentials(text: str) -> bool:
    """Base64 of ``user:password`` (so "Basic information" is not redacted)."""
    try:
        decoded = base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


NOT_VALUES = frozenset({"none", "null", "true", "false", "undefined", "redacted", "xxx", "***"})
"""Values a ``name=value`` pair holds that are placeholders, not secrets (lower case)."""


def _pair_value(text: str) -> bool:
    return len(text) >= 4 and text.lower() not in NOT_VALUES


ACCEPT_NAMES: dict[Callable[[str], bool], str] = {
    _has_digit: "digit",
    _mixed: "mixed",
    _bearer_token: "bearer",
    _basic_credentials: "basic",
    _pair_value: "pair-value",
}
"""The packaged ``accept`` tests by the name the compiled core knows them by (its port,
rust/src/native/redaction_rules.rs); the core lets any other test accept every match."""


def _rule(
    kind: str,
    pattern: str,
    triggers: tuple[str, ...],
    *,
    group: int = 0,
    accept: Callable[[str], bool] | None = None,
    beside: str | None = None,
    fold: bool = False,
    bounded: bool = True,
    after: str = "_",
    flags: int = 0,
) -> RedactionRule:
    return RedactionRule(
        kind,
        LazyPattern(pattern, flags),
        group,
        triggers,
        accept,
        None if beside is None else LazyPattern(beside),
        fold,
        after,
        bounded,
    )


# The trigger of a pair's name: the part every spelling of it shares (fewer, longer needles).
_CORES = ("passw", "secret", "private_key", "token", "api")


def _core(name: str) -> tuple[str, ...]:
    return tuple(core for core in _CORES if core in name) or (name,)


def _pairs(kind: str, names: tuple[str, ...]) -> tuple[RedactionRule, ...]:
    """``name=value`` and ``"name": "value"`` (JSON or a Python dict in text), any case."""
    value = r"""[^\s"'&;,\\<>]+"""
    alternatives = "|".join(re.escape(name) for name in names)
    assigned = tuple(
        _rule(
            kind,
            rf"""{re.escape(name)}\s*=\s*{_REDACTED}["']?({value})""",
            _core(name),
            group=1,
            accept=_pair_value,
            fold=True,
            after="_.-",
        )
        for name in names
    )
    quoted = _rule(
        kind,
        rf"""["'](?:{alternatives})["']\s*:\s*["']{_REDACTED}([^"'\\\n]+)["']""",
        tuple(sorted({t for name in names for t in _core(name)})),
        group=1,
        accept=_pair_value,
        fold=True,
        bounded=False,
    )
    return (*assigned, quoted)


_AWS_KEY_ID = r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"

PACKAGED_RULES: tuple[RedactionRule, ...] = (
    _rule(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----"
        r"|[A-Za-z0-9+/=\s\\:,.-]*)",
        ("-----begin",),
        bounded=False,
    ),
    _rule("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", ("eyj",)),
    _rule("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{20,}", ("sk-",), accept=_has_digit),
    _rule(
        "openai-key",
        r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        ("sk-",),
        accept=_has_digit,
        after="_-",
    ),
    _rule("github-token", r"gh[pousr]_[A-Za-z0-9]{20,}", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    _rule("github-token", r"github_pat_[A-Za-z0-9_]{20,}", ("github_pat_",)),
    _rule("slack-token", r"xox[abposr]-[A-Za-z0-9-]{10,}", ("xox",)),
    _rule(
        "stripe-key",
        r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}",
        ("k_live_", "k_test_"),
    ),
    _rule("google-api-key", r"AIza[0-9A-Za-z_-]{35}", ("aiza",)),
    # Before the key id: the secret is found by the id beside it (or its own name).
    _rule(
        "aws-secret-key",
        r"aws_?secret_?access_?key[\"']?\s*[=:]\s*[\"']?([a-z0-9/+]{40})(?![a-z0-9/+=])",
        ("secret",),
        group=1,
        fold=True,
    ),
    _rule(
        "aws-secret-key",
        r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])",
        ("akia", "asia"),
        accept=_mixed,
        beside=_AWS_KEY_ID,
        bounded=False,
    ),
    _rule("aws-access-key-id", r"A[KS]IA[0-9A-Z]{16}\b", ("akia", "asia")),
    _rule(
        "bearer-token",
        rf"bearer\s+{_REDACTED}([a-z0-9._~+/-]+=*)",
        ("bearer",),
        group=1,
        accept=_bearer_token,
        fold=True,
    ),
    _rule(
        "basic-credentials",
        r"basic\s+([a-z0-9+/]{6,}={0,2})(?![a-z0-9+/=])",
        ("basic",),
        group=1,
        accept=_basic_credentials,
        fold=True,
    ),
    _rule(
        "url-credentials",
        rf"://[^\s/:@\"']+:{_REDACTED}([^\s/@\"']+)@",
        ("://",),
        group=1,
        bounded=False,
    ),
    _rule(
        "cookie",
        rf"^[ \t]*(?:cookie|set-cookie)[ \t]*:[ \t]*{_REDACTED}(\S[^\r\n]*)",
        ("cookie",),
        group=1,
        fold=True,
        bounded=False,
        flags=re.MULTILINE,
    ),
    *_pairs("password", ("password", "passwd")),
    *_pairs("secret", ("secret", "client_secret", "secret_key", "private_key")),
    *_pairs(
        "token",
        ("token", "access_token", "refresh_token", "auth_token", "id_token", "session_token"),
    ),
    *_pairs("api-key", ("api_key", "apikey", "api-key", "x-api-key")),
)
"""The packaged rules, in the order they run (docs/security.md lists them)."""

_SENSITIVE_NAMES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        ("authorization", r"(?:proxy-)?authorization"),
        ("cookie", r"(?:set-)?cookie"),
        ("api-key", r"(?:.*[-_])?api[-_]?key"),
        ("password", r"(?:.*[-_])?(?:password|passwd)"),
        ("secret", r"(?:.*[-_])?(?:secret|private[-_]key)"),
        (
            "token",
            (
                r"(?:(?:.*[-_])?(?:access|refresh|auth|id|session|bearer|api|csrf|github|slack)"
                r"[-_])?token"
            ),
        ),
    )
)


NAME_PARTS = ("authorization", "cookie", "key", "passw", "secret", "token")
"""Every name a packaged pattern above takes holds one of these once lower-cased."""
_NAME_PARTS = re.compile("|".join(NAME_PARTS))


def names_a_credential(names: Iterable[str], extra: tuple[str, ...] = ()) -> bool:
    """Whether :func:`sensitive_name` gives a kind for any of ``names``.

    Names without any part a credential's name has are passed over with one search each: a
    trace can hold thousands of distinct keys (call ids as keys), most naming nothing.
    """
    if extra:
        return any(sensitive_name(name, extra) for name in names)
    return any(_NAME_PARTS.search(name.lower()) and sensitive_name(name) for name in names)


@functools.lru_cache(maxsize=4096)  # a trace repeats the same few keys many times
def sensitive_name(name: str, extra: tuple[str, ...] = ()) -> str | None:
    """The kind of credential a key or attribute of this name holds, or ``None``.

    The name's last dotted segment decides, case-insensitively: ``authorization``,
    ``cookie``, ``*api_key``, ``*password``, ``*secret``, ``token`` and ``access_token``-like
    names; ``gen_ai.usage.input_tokens`` and ``max_tokens`` are not credentials. ``extra``
    holds more names (lower case, matched whole), whose kind is ``credential``.
    """
    last = name.rsplit(".", 1)[-1].strip().lower()
    for kind, pattern in _SENSITIVE_NAMES:
        if pattern.fullmatch(last):
            return kind
    if last in extra or name.lower() in extra:
        return "credential"
    return None


def pattern_problem(kind: str, pattern: str) -> str | None:
    """Why a user pattern cannot be a rule, or ``None`` when it can.

    The kind must be lower-case letters, digits and dashes; the pattern must compile, must
    not match the empty string, and must not match its own replacement text (redacting
    again would then change the text again).
    """
    if not _KIND.fullmatch(kind):
        return f"kind {kind!r} must be lower-case letters, digits and dashes (e.g. 'employee-id')"
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        return f"pattern {pattern!r} is not a regular expression ({exc})"
    if compiled.fullmatch(""):
        return f"pattern {pattern!r} matches the empty string"
    if compiled.search(replacement(kind)):
        return f"pattern {pattern!r} matches its own replacement {replacement(kind)!r}"
    return None


def user_rule(kind: str, pattern: str) -> RedactionRule:
    """A rule from a ``[[redact.patterns]]`` entry: every match is a secret of ``kind``.

    Raises:
        ValueError: :func:`pattern_problem` names a problem.
    """
    problem = pattern_problem(kind, pattern)
    if problem is not None:
        raise ValueError(problem)
    return RedactionRule(kind, re.compile(pattern))  # as written: no folding, no boundary
