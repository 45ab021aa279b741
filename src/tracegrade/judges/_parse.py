"""Strict parsing of a judge's reply (pure): the JSON its request asked for, or an error.

Malformed output is never read as a default verdict: text that is not one JSON object, a
repeated, missing or extra key, a verdict outside the rubric's set, a confidence that is not
a number in [0, 1], citations that are not a list of strings. Each raises
:class:`~tracegrade.errors.JudgeOutputError` naming the judge, the case and the problem.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from tracegrade.errors import JudgeOutputError
from tracegrade.judges._model import JudgeVerdict

if TYPE_CHECKING:
    from collections.abc import Collection

    from tracegrade.judges._model import JudgeReply

__all__ = ["load_reply_object", "parse_verdict", "reply_error", "text_field"]

_VERDICT_KEYS = ("verdict", "confidence", "citations", "reasoning")
_EXCERPT = 80


class _DuplicateKeyError(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            msg = f"the key {key!r} appears twice"
            raise _DuplicateKeyError(msg)
        seen[key] = value
    return seen


def _no_constant(name: str) -> float:
    msg = f"{name} is not JSON"
    raise ValueError(msg)


def reply_error(reply: JudgeReply, what: str, problem: str) -> JudgeOutputError:
    """The error for a malformed reply: names the judge, the case and what was wrong."""
    required = reply.request.json_schema.get("required")
    fields = ", ".join(str(key) for key in required) if isinstance(required, list) else "?"
    return JudgeOutputError(
        what,
        judge=reply.judge,
        case=reply.request.case,
        problem=problem,
        fix=f"the {reply.request.rubric} rubric takes one JSON object with exactly the keys"
        f" {fields}; nothing was scored from this reply",
    )


def load_reply_object(reply: JudgeReply, keys: Collection[str]) -> dict[str, Any]:
    """The reply's text as a JSON object with exactly ``keys``.

    Raises:
        JudgeOutputError: Not JSON, not an object, a key repeated, missing or extra.
    """
    text = reply.text
    shown = repr(text if len(text) <= _EXCERPT else text[:_EXCERPT] + "...")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _DuplicateKeyError as exc:
        raise reply_error(reply, f"the reply repeats a key: {exc}", "duplicate key") from exc
    except ValueError as exc:
        what = "the reply is empty" if not text.strip() else f"the reply is not JSON ({exc})"
        raise reply_error(reply, f"{what}: {shown}", "not JSON") from exc
    if not isinstance(data, dict):
        raise reply_error(
            reply, f"the reply is JSON {type(data).__name__}, not an object: {shown}", "not JSON"
        )
    missing = [key for key in keys if key not in data]
    extra = sorted(key for key in data if key not in keys)
    if missing:
        raise reply_error(reply, f"the reply lacks {', '.join(missing)}", "missing field")
    if extra:
        raise reply_error(reply, f"the reply has unexpected keys {', '.join(extra)}", "extra field")
    return data


def text_field(reply: JudgeReply, data: dict[str, Any], key: str) -> str:
    """The reply's ``key``, which must be a string.

    Raises:
        JudgeOutputError: It is not a string (problem ``KEY not text``).
    """
    value = data[key]
    if not isinstance(value, str):
        raise reply_error(reply, f"{key} {value!r} is not a string", f"{key} not text")
    return value


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def parse_verdict(reply: JudgeReply) -> JudgeVerdict:
    """Parse a verdict reply strictly.

    Args:
        reply: A judge's answer to a :func:`~tracegrade.judges.verdict_request`.

    Returns:
        The verdict, confidence, citations and reasoning.

    Raises:
        JudgeOutputError: The reply is not exactly ``{"verdict", "confidence", "citations",
            "reasoning"}``, or the verdict is not one of the request's choices, or the
            confidence is not a number in [0, 1], or the citations are not a list of
            strings, or the reasoning is not a string.
    """
    if reply.request.schema != "verdict":
        msg = f"parse_verdict got a reply to a {reply.request.schema!r} request"
        raise ValueError(msg)
    data = load_reply_object(reply, _VERDICT_KEYS)
    verdict = data["verdict"]
    choices = reply.request.choices
    if not isinstance(verdict, str) or verdict not in choices:
        raise reply_error(
            reply,
            f"verdict {verdict!r} is not one of {', '.join(choices)}",
            "verdict outside the set",
        )
    confidence = _number(data["confidence"])
    if confidence is None or not 0.0 <= confidence <= 1.0:
        raise reply_error(
            reply,
            f"confidence {data['confidence']!r} is not a number from 0 to 1",
            "confidence out of range",
        )
    citations = data["citations"]
    if not isinstance(citations, list) or not all(isinstance(c, str) for c in citations):
        raise reply_error(
            reply, f"citations {citations!r} is not a list of strings", "citations not strings"
        )
    reasoning = text_field(reply, data, "reasoning")
    return JudgeVerdict(
        verdict=verdict, confidence=confidence, citations=tuple(citations), reasoning=reasoning
    )
