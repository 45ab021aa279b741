"""Re-sent message histories of span attributes, parsed once (OTel GenAI, AI SDK spans).

Every model call's span re-sends the conversation so far as one JSON string; most of it is
the previous call's list. :class:`MessageLists` keeps the last list read for each attribute
and, when a new string extends it (``"[a, b]"`` then ``"[a, b, c]"``), parses only what
follows, reusing the messages already read.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import orjson

from tracegrade.traces._reading import loads_nested

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracegrade.traces._span_walk import Message

__all__ = ["MessageLists"]


class MessageLists:
    """The last JSON list of messages read for each attribute: its text and its messages."""

    def __init__(self) -> None:
        self._lists: dict[str, tuple[str, list[Message]]] = {}

    def read(
        self,
        value: str,
        key: str,
        origin: str,
        load: Callable[[str], Any],
        messages: Callable[[Any, int], list[Message]],
    ) -> list[Message]:
        """The messages of ``value``, parsing only what follows the last list of ``key``.

        Args:
            value: The attribute's JSON text.
            key: The attribute, whose last list is compared.
            origin: The frame origin of the list; a reused message moves to ``origin[i]``.
            load: Parses the whole text (raising the convention's error on bad JSON).
            messages: ``(parsed value, start)`` -> the messages of its elements from ``start``.
        """
        seen: list[Message] = []
        parsed: Any = None
        if (last := self._lists.get(key)) is not None:
            text, old = last
            if value == text:
                seen, parsed = old, []
            elif value.startswith(text[:-1]) and value[len(text) - 1 : len(text)] == ",":
                # What follows the old elements parses as a list of its own. A list of nothing
                # ("[a, b,]") is not valid JSON as a whole: parse it all below.
                with contextlib.suppress(orjson.JSONDecodeError):
                    parsed = loads_nested("[" + value[len(text) :])
                if isinstance(parsed, list) and parsed:
                    seen = old
                else:
                    parsed = None
        # With the old messages reused, placeholders stand for them in the parsed list.
        parsed = load(value) if parsed is None else [None] * len(seen) + parsed
        found = [message.moved(f"{origin}[{index}]") for index, message in enumerate(seen)]
        found += messages(parsed, len(seen))
        if isinstance(parsed, list) and found and value.endswith("]"):
            self._lists[key] = (value, found)
        return found
