"""``FakeJudge``: a scripted judge for tests, yours and ours (no model, no network)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from tracegrade.errors import InputError
from tracegrade.judges._model import JudgeReply, JudgeRequest

__all__ = ["FakeJudge", "ScriptedReply"]

ScriptedReply: TypeAlias = str | Mapping[str, object]
"""A scripted reply: the raw text, or a mapping sent as its JSON."""


def _estimate_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer: one token per four characters, at least 1."""
    return max(1, len(text) // 4)


class FakeJudge:
    """A judge that answers from a script and records every request it saw.

    Example:
        >>> from tracegrade.judges import FakeJudge, parse_verdict, verdict_request
        >>> judge = FakeJudge([{"verdict": "supported", "confidence": 0.9,
        ...                     "citations": ["billing/config.py:4"], "reasoning": "read"}])
        >>> reply = judge.complete(verdict_request("case-1", "..."))
        >>> parse_verdict(reply).verdict
        'supported'
        >>> len(judge.requests)
        1

    Args:
        replies: A list answered in order (running out is an error), or a function of the
            request. A string is sent as is, so malformed output can be scripted too; a
            mapping is sent as its JSON.
        name: The judge's name in a panel.
        model: The model name reported with each reply (and priced by the cost ledger).
        input_tokens: Tokens reported per call; default an estimate from the prompt length.
        output_tokens: Tokens reported per call; default an estimate from the reply length.
        latency_seconds: The latency reported per call.
    """

    def __init__(
        self,
        replies: Sequence[ScriptedReply] | Callable[[JudgeRequest], ScriptedReply],
        *,
        name: str = "fake",
        model: str = "fake-judge",
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        latency_seconds: float = 0.0,
    ) -> None:
        self._script = replies if callable(replies) else tuple(replies)
        self._name = name
        self.model = model
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self.latency_seconds = latency_seconds
        self.requests: list[JudgeRequest] = []
        """Every request answered, in order."""
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The judge's name."""
        return self._name

    def __repr__(self) -> str:
        return f"FakeJudge(name={self._name!r}, model={self.model!r})"

    def complete(self, request: JudgeRequest) -> JudgeReply:
        """Answer with the next scripted reply (or the function's) and record the request.

        Raises:
            InputError: A scripted list ran out of replies.
        """
        with self._lock:
            seen = len(self.requests)
            self.requests.append(request)
        if callable(self._script):
            scripted = self._script(request)
        elif seen < len(self._script):
            scripted = self._script[seen]
        else:
            raise InputError(
                f"FakeJudge {self._name!r} has {len(self._script)} scripted replies and was"
                f" asked for reply {seen + 1} (case {request.case!r})",
                fix="script one reply per call (judges x repeats x cases), or pass a function",
            )
        text = scripted if isinstance(scripted, str) else json.dumps(dict(scripted))
        prompt = "".join(message.content for message in request.messages)
        return JudgeReply(
            judge=self._name,
            request=request,
            text=text,
            model=self.model,
            input_tokens=self.input_tokens
            if self.input_tokens is not None
            else _estimate_tokens(prompt),
            output_tokens=self.output_tokens
            if self.output_tokens is not None
            else _estimate_tokens(text),
            latency_seconds=self.latency_seconds,
        )

    async def acomplete(self, request: JudgeRequest) -> JudgeReply:
        """:meth:`complete`, awaitable (for :func:`~tracegrade.judges.arun_panel`)."""
        return self.complete(request)
