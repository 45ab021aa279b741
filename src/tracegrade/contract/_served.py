"""The text a tool result served to the model, whole or for one search hit."""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["served_text", "text_of_hit"]


def _json(result: object) -> object:
    """A result, with a string that holds a JSON object or array parsed."""
    if isinstance(result, str) and result.lstrip()[:1] in ("{", "["):
        try:
            parsed: object = orjson.loads(result)
        except orjson.JSONDecodeError:
            return result
        return parsed
    return result


def _leaves(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        out.append(str(value))
    elif isinstance(value, dict):
        for item in value.values():
            _leaves(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _leaves(item, out)


def served_text(result: object) -> str:
    r"""What a result served: a text as it is; of JSON, its strings and numbers, one a line.

    Keys and JSON punctuation are not text the source wrote, and escaping would hide quoted
    phrases (``\"``, ``\n``), so only the values count.
    """
    value = _json(result)
    if isinstance(value, str):
        return value
    out: list[str] = []
    _leaves(value, out)
    return "\n".join(out)


def text_of_hit(result: object, result_id: str) -> str:
    """What a search result served for one hit: the objects holding ``result_id`` as a value.

    A result that is not JSON, or where no object holds the id, serves its whole text for
    every id: the validator cannot tell the hits apart, so it does not try.
    """
    hits: list[Any] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if any(item == result_id for item in value.values()):
                hits.append(value)
                return
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(_json(result))
    if not hits:
        return served_text(result)
    out: list[str] = []
    _leaves(hits, out)
    return "\n".join(out)
