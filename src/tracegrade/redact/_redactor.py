"""Replace secrets in texts and JSON values, recording what was replaced where (pure).

A :class:`Redactor` holds the rules (the packaged ones, and a project's own). Its
:meth:`~Redactor.text` replaces every secret of a text by ``[REDACTED:kind]``;
:meth:`~Redactor.value` walks a JSON value, replacing secrets inside its strings and the
whole string value of a key that names a credential (``Authorization``, ``api_key``).
Each replacement is a :class:`Redaction`: the kind and the place, never the secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tracegrade._engine import compiled_core
from tracegrade.redact._rules import (
    PACKAGED_RULES,
    RedactionRule,
    names_a_credential,
    replacement,
    sensitive_name,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade._lazy_pattern import LazyPattern

__all__ = ["Redaction", "Redactor"]


@dataclass(frozen=True, slots=True)
class Redaction:
    """One secret replaced: what kind, and where (never the secret itself).

    Attributes:
        kind: The rule's kind (``openai-key``, ``authorization``).
        field: The field it was in: ``task``, ``content``, ``result``,
            ``args.headers.Authorization``, ``attributes.http.request.header.authorization``.
        frame: The frame's index in the trace, or ``None`` (the task, the metadata, a span).
        span: The OTLP span id, for a secret in a received span; else ``None``.
    """

    kind: str
    field: str
    frame: int | None = None
    span: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The redaction as a JSON object (``frame`` and ``span`` only when set)."""
        out: dict[str, Any] = {"kind": self.kind, "field": self.field}
        if self.frame is not None:
            out["frame"] = self.frame
        if self.span is not None:
            out["span"] = self.span
        return out


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


_NARROWED_KEPT = 64  # narrowed redactors kept per redactor (a trace with new triggers adds one)


class Redactor:
    """Secrets replaced by the packaged rules and any added ones.

    Args:
        rules: The text rules, in the order they run; default the packaged ones.
        names: More key and attribute names whose values are credentials (matched whole,
            case-insensitively), beside those :func:`sensitive_name` knows.
    """

    __slots__ = ("_names", "_names_absent", "_narrowed", "_rules", "_triggers")

    def __init__(
        self, rules: Iterable[RedactionRule] = PACKAGED_RULES, *, names: Iterable[str] = ()
    ) -> None:
        self._rules = tuple(rules)
        self._names = tuple(name.lower() for name in names)
        self._names_absent = False  # unknown: a key anywhere may name a credential
        # Each trigger is looked for once per text, whichever rules share it.
        self._triggers = tuple(sorted({t for rule in self._rules for t in rule.triggers}))
        # narrowed_to's redactors by (triggers present, no key names a credential): read_traces
        # narrows once per trace, and most traces hold the same few triggers.
        self._narrowed: dict[tuple[frozenset[str], bool | None], Redactor] = {}

    def with_rules(self, rules: Iterable[RedactionRule], *, names: Iterable[str] = ()) -> Redactor:
        """A redactor with these rules and names added after this one's."""
        return Redactor((*self._rules, *rules), names=(*self._names, *names))

    def narrowed(self, text: str, keys: Iterable[str] | None = None) -> Redactor:
        """A redactor with only the rules that could find a secret in ``text``.

        Texts that are parts of ``text`` (the strings of one trace) are then redacted by it
        exactly as by this one, with fewer rules to consider for each.

        Args:
            text: Every text the redactor will be given, joined.
            keys: Every key of the JSON values it will be given; when known and none names a
                credential, :attr:`idle` can tell that nothing at all would change.
        """
        return self.narrowed_to(present_triggers(text, self._triggers), keys)

    def narrowed_to(self, present: set[str], keys: Iterable[str] | None = None) -> Redactor:
        """A redactor with only the rules one of whose triggers is in ``present``.

        Args:
            present: The :attr:`triggers` that the texts it will be given hold (lower-cased).
            keys: As for :meth:`narrowed`.
        """
        absent = None if keys is None else not names_a_credential(keys, self._names)
        known = (frozenset(present), absent)
        narrowed = self._narrowed.get(known)
        if narrowed is not None:
            return narrowed  # a redactor is never changed once narrowed: one serves all
        rules = [r for r in self._rules if not r.triggers or not present.isdisjoint(r.triggers)]
        narrowed = Redactor(rules)
        narrowed._names = self._names
        if absent is not None:
            narrowed._names_absent = absent
        if len(self._narrowed) < _NARROWED_KEPT:
            self._narrowed[known] = narrowed
        return narrowed

    def names_a_credential(self, keys: Iterable[str]) -> bool:
        """Whether any of these keys names a credential (its whole value is then replaced)."""
        return names_a_credential(keys, self._names)

    @property
    def names(self) -> tuple[str, ...]:
        """The names added beside those :func:`sensitive_name` knows (lower case)."""
        return self._names

    @property
    def triggers(self) -> tuple[str, ...]:
        """Every rule's triggers, once each (lower-case literals), sorted."""
        return self._triggers

    @property
    def idle(self) -> bool:
        """Whether this redactor can change nothing: no rule, and no credential-like name.

        Only a :meth:`narrowed` redactor knows that no key is named like a credential.
        """
        return not self._rules and self._names_absent

    @property
    def rules(self) -> tuple[RedactionRule, ...]:
        """The text rules, in the order they run."""
        return self._rules

    def text(self, text: str) -> tuple[str, tuple[str, ...]]:
        """The text with its secrets replaced, and the kind of each one replaced (in order).

        Rules run one after another, each on the previous one's output; a text holding none
        of a rule's triggers skips that rule's pattern.
        """
        if not self._rules:
            return text, ()
        kinds: list[str] = []
        lowered = text.lower()
        present = {trigger for trigger in self._triggers if trigger in lowered}
        for rule in self._rules:
            if rule.triggers and present.isdisjoint(rule.triggers):
                continue
            if rule.beside is not None and rule.beside.search(text) is None:
                continue
            replaced = _apply(rule, text, lowered, kinds)
            if replaced is not text:
                text, lowered = replaced, replaced.lower()
        return text, tuple(kinds)

    def name_kind(self, name: str) -> str | None:
        """The credential kind of a key or attribute name, or ``None``."""
        return sensitive_name(name, self._names)

    def value(
        self,
        value: Any,  # noqa: ANN401 - any JSON value
        field: str = "",
        *,
        kind: str | None = None,
        **where: Any,  # noqa: ANN401 - frame or span
    ) -> tuple[Any, list[Redaction]]:
        """A JSON value with its secrets replaced, and each replacement made.

        Args:
            value: Any JSON value (strings, numbers, lists, objects).
            field: The value's place, the start of every redaction's ``field``.
            kind: Replace every string of the value whole, as this kind (the value of a
                credential-named attribute); ``None``: only the secrets the rules find.
            **where: ``frame`` or ``span`` for every :class:`Redaction` made.

        Returns:
            The value (the same object when nothing was replaced) and the redactions.
        """
        found: list[Redaction] = []
        out = self._walk(value, field, found, where, kind)
        return out, found

    def _walk(  # noqa: PLR0911 - one return per JSON type
        self,
        value: Any,  # noqa: ANN401 - any JSON value
        field: str,
        found: list[Redaction],
        where: dict[str, Any],
        kind: str | None = None,
    ) -> Any:  # noqa: ANN401 - any JSON value
        if isinstance(value, str):
            if kind is not None:
                if value.startswith("[REDACTED:") or not value.strip():
                    return value
                found.append(Redaction(kind, field, **where))
                return replacement(kind)
            text, kinds = self.text(value)
            found.extend(Redaction(each, field, **where) for each in kinds)
            return text
        if isinstance(value, dict):
            changed = False
            items: dict[Any, Any] = {}
            for key, item in value.items():
                inner = kind or (self.name_kind(key) if isinstance(key, str) else None)
                new = self._walk(item, _child(field, str(key)), found, where, inner)
                changed = changed or new is not item
                items[key] = new
            return items if changed else value
        if isinstance(value, list | tuple):
            walked = [
                self._walk(item, _child(field, index), found, where, kind)
                for index, item in enumerate(value)
            ]
            if all(new is old for new, old in zip(walked, value, strict=True)):
                return value
            return walked if isinstance(value, list) else tuple(walked)
        return value


def present_triggers(text: str, triggers: tuple[str, ...]) -> set[str]:
    """The triggers ``text`` holds once lower-cased: one pass in the compiled core.

    The reference (``TRACEGRADE_CORE=python``) scans the text once per trigger, which on a
    long trace costs several times its parse; the core's one multi-needle pass gives the same
    set (tests/redact/test_engines.py).
    """
    core = compiled_core()
    if core is not None:
        try:
            return {triggers[index] for index in core.present_needles(text, list(triggers))}
        except UnicodeEncodeError:
            pass  # a lone surrogate, which a Rust string cannot hold: the reference reads it
    lowered = text.lower()
    return {trigger for trigger in triggers if trigger in lowered}


def _apply(rule: RedactionRule, text: str, lowered: str, kinds: list[str]) -> str:
    """The text with the rule's secrets replaced (the same object when none was)."""
    searched = text
    if rule.fold:
        # Lower-casing keeps positions unless a character lower-cases to several.
        searched = lowered if len(lowered) == len(text) else text
        pattern = rule.pattern if searched is lowered else _ignoring_case(rule.pattern)
    else:
        pattern = rule.pattern
    pieces: list[str] = []
    last = 0
    for match in pattern.finditer(searched):
        start, end = match.span(rule.group)
        if start < last or start == end or not rule.starts_ok(text, match.start()):
            continue
        secret = text[start:end]
        if secret.startswith("[REDACTED:") or (rule.accept is not None and not rule.accept(secret)):
            continue
        pieces.append(text[last:start])
        pieces.append(replacement(rule.kind))
        kinds.append(rule.kind)
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _ignoring_case(pattern: re.Pattern[str] | LazyPattern) -> re.Pattern[str]:
    return re.compile(pattern.pattern, pattern.flags | re.IGNORECASE)
