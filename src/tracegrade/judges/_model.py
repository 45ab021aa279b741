"""What passes between the pure judging steps and a judge: requests, replies, verdicts.

A pure step builds a :class:`JudgeRequest`; a :class:`Judge` (a provider, or the scripted
:class:`~tracegrade.judges.FakeJudge`) answers it with a :class:`JudgeReply` holding the raw
text and the call's usage; :func:`~tracegrade.judges.parse_verdict` turns the text into a
:class:`JudgeVerdict` or raises. Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictStr

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "SPLIT",
    "AsyncJudge",
    "Judge",
    "JudgeReply",
    "JudgeRequest",
    "JudgeVerdict",
    "Message",
    "OutputSchema",
]

SPLIT = "split"
"""A panel's verdict when no verdict has a strict plurality of the votes; no rubric may use it."""

OutputSchema = Literal["verdict", "rubric-score"]
"""The JSON a request asks for: a verdict (``verdict``, ``confidence``, ``citations``,
``reasoning``) or a rubric's scores (``scores``, ``notes``)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a judge's prompt.

    Attributes:
        role: ``system`` (the rubric and the output format) or ``user`` (the material).
        content: The text.
    """

    role: Literal["system", "user"]
    content: str


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """What a judge is asked: the prompt, and the JSON it must answer with.

    Attributes:
        case: The case being judged (named in every error about the reply).
        messages: The prompt, system message first.
        schema: Which output the reply must hold (:data:`OutputSchema`).
        rubric: The rubric's name.
        json_schema: The JSON Schema of the reply, for providers that enforce one
            (OpenAI ``response_format``, an Anthropic tool).
        choices: The verdicts allowed (a verdict request); empty for a rubric score.
    """

    case: str
    messages: tuple[Message, ...]
    schema: OutputSchema
    rubric: str
    json_schema: Mapping[str, object] = field(hash=False, compare=False)
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class JudgeReply:
    """A judge's raw answer to one request, with what the call cost.

    Attributes:
        judge: The judge's name.
        request: The request answered.
        text: The reply exactly as the model gave it (the JSON, unparsed).
        model: The model that answered, as the provider reported it.
        input_tokens: Prompt tokens billed, cached and cache-written ones included.
        output_tokens: Completion tokens billed.
        latency_seconds: Wall time of the call.
        cached_input_tokens: Of ``input_tokens``, those read from the provider's cache.
        cache_write_input_tokens: Of ``input_tokens``, those written to the provider's cache.
    """

    judge: str
    request: JudgeRequest
    text: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency_seconds: float = 0.0
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0


class JudgeVerdict(BaseModel):
    """A judge's verdict on one case, parsed strictly from its reply.

    Attributes:
        verdict: One of the rubric's verdicts.
        confidence: The judge's confidence, in [0, 1].
        citations: Evidence it cites: ``file:line`` or a result id, checked against the
            trace (:class:`~tracegrade.judges.CitationIndex`).
        reasoning: Why, in the judge's words.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    verdict: StrictStr
    confidence: Annotated[StrictFloat, Field(ge=0.0, le=1.0)]
    citations: tuple[StrictStr, ...]
    reasoning: StrictStr


class Judge(Protocol):
    """Anything that answers a :class:`JudgeRequest` with a :class:`JudgeReply`.

    Shipped: :class:`~tracegrade.judges.FakeJudge` (scripted), and behind the ``judges``
    extra :class:`~tracegrade.judges.OpenAIJudge` and
    :class:`~tracegrade.judges.AnthropicJudge`. A provider translates its errors: rate
    limits, server errors, timeouts and dropped connections raise
    :class:`~tracegrade.errors.InfrastructureError` (retried by the runner); refusals
    that retrying cannot fix raise :class:`~tracegrade.errors.JudgeProviderError`.
    """

    @property
    def name(self) -> str:
        """The judge's name, unique within a panel (shown in votes and errors)."""
        ...

    def complete(self, request: JudgeRequest) -> JudgeReply:
        """Answer one request; the reply's text is parsed by the caller."""
        ...


class AsyncJudge(Protocol):
    """A judge that can also be awaited: what :func:`~tracegrade.judges.arun_panel` drives.

    Every shipped judge is one: :class:`~tracegrade.judges.FakeJudge` answers at once, the
    provider judges run their call in a worker thread.
    """

    @property
    def name(self) -> str:
        """The judge's name, unique within a panel."""
        ...

    async def acomplete(self, request: JudgeRequest) -> JudgeReply:
        """Answer one request without blocking the event loop."""
        ...
