"""What of a trace redaction can act on: the triggers in its strings, the keys of its objects.

Text rules only ever run on string values (a key is redacted by its name, never by a text
rule), so which rules can apply to a trace follows from the triggers its string values hold;
whether a key can name a credential, from its object keys. The compiled core walks the
values and looks for every trigger in one pass (``redaction_scan``: one automaton for all);
the reference (``TRACEGRADE_CORE=python``) walks them here and looks for one trigger at a
time. tests/redact/test_engines.py holds the two to the same sets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracegrade._engine import compiled_core

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["scan_values"]


def _collect(value: Any, strings: list[str], keys: set[str]) -> None:  # noqa: ANN401 - any JSON value
    """Every string value (depth first, in order) and every key of a JSON value."""
    if isinstance(value, str):
        strings.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            keys.add(key if isinstance(key, str) else str(key))
            _collect(item, strings, keys)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect(item, strings, keys)


def scan_values(values: Sequence[Any], triggers: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The triggers the string values of ``values`` hold (lower-cased), and their keys.

    The strings are joined with NULs and lower-cased as a whole; keys that are not strings
    are spelled as ``str`` spells them. Dicts, lists and tuples are entered; other values
    hold no text.
    """
    core = compiled_core()
    if core is not None:
        try:
            present, keys = core.redaction_scan(values, list(triggers))
        except UnicodeEncodeError:
            pass  # a lone surrogate, which a Rust string cannot hold: the reference reads it
        else:
            return {triggers[index] for index in present}, set(keys)
    strings: list[str] = []
    found: set[str] = set()
    _collect(list(values), strings, found)
    lowered = "\x00".join(strings).lower()
    return {trigger for trigger in triggers if trigger in lowered}, found
