"""JSON paths: which slices of a JSON value to read (guard scan slices, decoder fields).

A path is dot-separated keys, each optionally followed by indexes::

    amount                      the value of key "amount"
    payment_methods[*].amount   "amount" of every element of "payment_methods"
    sheets[*].rows[*][*]        every cell of every row of every sheet
    items[*].*                  every value of every element of "items"
    rows[0]                     the first row only

``*`` as a key means every value of an object; ``[*]`` every element of a list.
A selected object or list is scanned whole (all the scalars inside it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ArgPath", "PathSyntaxError"]

_SEGMENT = re.compile(r"(?P<key>\*|[A-Za-z_][A-Za-z0-9_\-]*)(?P<indexes>(?:\[(?:\*|\d+)\])*)")
_INDEX = re.compile(r"\[(\*|\d+)\]")

Step = str | int  # a key, "*" (every value of an object), an index, or -1 (every element)
_EVERY_ELEMENT = -1


class PathSyntaxError(ValueError):
    """A path does not follow the syntax; the message says where."""


@dataclass(frozen=True, slots=True)
class ArgPath:
    """A parsed argument path.

    Attributes:
        text: The path as written.
        steps: Keys (``"*"``: every value of an object) and indexes (``-1``: every element).
    """

    text: str
    steps: tuple[Step, ...]

    @classmethod
    def parse(cls, text: str) -> ArgPath:
        """Parse a path.

        Raises:
            PathSyntaxError: The path is empty or a segment is not ``key``, ``*``,
                optionally followed by ``[*]`` or ``[N]``.
        """
        if not text:
            msg = "an empty path selects nothing; write a key such as 'amount'"
            raise PathSyntaxError(msg)
        steps: list[Step] = []
        for part in text.split("."):
            match = _SEGMENT.fullmatch(part)
            if match is None:
                msg = (
                    f"segment {part!r} of {text!r} is not a key, '*', or a key followed by"
                    " [*] or [N]"
                )
                raise PathSyntaxError(msg)
            steps.append(match["key"])
            steps.extend(
                _EVERY_ELEMENT if index == "*" else int(index)
                for index in _INDEX.findall(match["indexes"])
            )
        return cls(text, tuple(steps))

    def select(self, value: object) -> Iterator[tuple[str, object]]:
        """Every scalar (string, number) inside the selected slices, with its location.

        Locations read like ``sheets[0].rows[2][1]``. Missing keys and indexes select nothing;
        booleans and nulls are not values.
        """
        yield from _walk(value, self.steps, "")


def _walk(value: object, steps: tuple[Step, ...], where: str) -> Iterator[tuple[str, object]]:
    if not steps:
        yield from _leaves(value, where)
        return
    step, rest = steps[0], steps[1:]
    if isinstance(step, str):
        if not isinstance(value, dict):
            return
        if step == "*":
            for key, item in value.items():
                yield from _walk(item, rest, _key(where, str(key)))
        elif step in value:
            yield from _walk(value[step], rest, _key(where, step))
    elif isinstance(value, list):
        if step == _EVERY_ELEMENT:
            for index, item in enumerate(value):
                yield from _walk(item, rest, f"{where}[{index}]")
        elif step < len(value):
            yield from _walk(value[step], rest, f"{where}[{step}]")


def _leaves(value: object, where: str) -> Iterator[tuple[str, object]]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, str | int | float):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, _key(where, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{where}[{index}]")


def _key(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
