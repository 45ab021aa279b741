"""What the provider judges share (edge): the SDK and its client, the call's flow, its errors.

:class:`ProviderJudge` builds the client, times each call, translates the SDK's errors and
assembles the reply; a provider module says only what differs: the request its SDK takes,
the SDK call, and how the response is read (:class:`ProviderAnswer`).

Both SDKs raise the same family of errors (``APITimeoutError`` < ``APIConnectionError`` <
``APIError``; ``APIStatusError`` with a ``status_code``). Rate limits, server errors,
timeouts and dropped connections become :class:`~tracegrade.errors.InfrastructureError`,
which the runner retries with backoff and never counts as a quality failure; a refusal that
retrying cannot fix (bad credentials, a bad request, an unknown model) becomes
:class:`~tracegrade.errors.JudgeProviderError`.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from tracegrade.errors import InfrastructureError, JudgeProviderError, TracegradeError
from tracegrade.judges._model import JudgeReply

if TYPE_CHECKING:
    from tracegrade.judges._model import JudgeRequest

__all__ = [
    "INSTALL_HINT",
    "ProviderAnswer",
    "ProviderJudge",
    "import_sdk",
    "plain_schema",
    "translate_error",
]

INSTALL_HINT = "pip install 'tracegrade[judges]'"
_SHOWN = 300
_RETRYABLE_STATUS = frozenset({408, 409, 429})


def import_sdk(module: str, judge: str) -> Any:  # noqa: ANN401 - the SDK module, typed by the caller's use
    """Import a provider SDK, or explain how to install it.

    Raises:
        JudgeProviderError: The SDK is not installed; the message gives the install command.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise JudgeProviderError(
            f"the {module} package is not installed ({exc})",
            judge=judge,
            fix=f"install the judges extra: {INSTALL_HINT}",
        ) from exc


def plain_schema(schema: object) -> dict[str, Any]:
    """A deep, plain-dict copy of a request's JSON Schema, as the SDKs want it."""
    copied: dict[str, Any] = json.loads(json.dumps(schema))
    return copied


def _shown(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def translate_error(
    sdk: Any,  # noqa: ANN401 - the SDK module, for its error classes
    exc: Exception,
    *,
    judge: str,
    case: str,
    provider: str,
) -> TracegradeError:
    """The tracegrade error for an SDK error (the caller raises it ``from exc``).

    Args:
        sdk: The SDK module (``openai`` or ``anthropic``), for its error classes.
        exc: What the SDK raised.
        judge: The judge's name.
        case: The case being judged.
        provider: ``OpenAI`` or ``Anthropic``, for the message.
    """
    retry = "this is not a quality failure; the runner retries it, or run again later"
    if isinstance(exc, sdk.APITimeoutError):
        return InfrastructureError(
            f"judge {judge!r}: the {provider} call timed out ({_shown(exc)})", fix=retry, case=case
        )
    if isinstance(exc, sdk.APIConnectionError):
        return InfrastructureError(
            f"judge {judge!r}: could not reach {provider} ({_shown(exc)})", fix=retry, case=case
        )
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        if status in _RETRYABLE_STATUS or status >= 500:
            what = "rate limited" if status == 429 else f"HTTP {status}"
            return InfrastructureError(
                f"judge {judge!r}: {provider} answered {what} ({_shown(exc)})", fix=retry, case=case
            )
        fix = (
            f"check the {provider} API key (and that it may use this model)"
            if status in {401, 403}
            else "check the model name and the judge's options; retrying will not help"
        )
        return JudgeProviderError(
            f"{provider} refused the call with HTTP {status} ({_shown(exc)})",
            judge=judge,
            fix=fix,
            case=case,
        )
    return JudgeProviderError(
        f"the {provider} SDK failed: {type(exc).__name__}: {_shown(exc)}", judge=judge, case=case
    )


@dataclass(frozen=True, slots=True)
class ProviderAnswer:
    """What a provider judge reads from its SDK's response: the reply text and the tokens.

    Attributes:
        text: The reply text, unparsed.
        input_tokens: Prompt tokens billed, cached and cache-written ones included.
        output_tokens: Completion tokens billed.
        cached_input_tokens: Of ``input_tokens``, those read from the provider's cache.
        cache_write_input_tokens: Of ``input_tokens``, those written to the provider's cache.
    """

    text: str
    input_tokens: int
    output_tokens: int
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0


class ProviderJudge(ABC):
    """The flow every provider judge shares; a subclass says only what its provider does.

    Building the judge imports the SDK and builds its client (unless one is given). A call
    builds the request (:meth:`_options`), makes the SDK call (:meth:`_create`) and times it,
    translates an SDK error (:func:`translate_error`), reads the response (:meth:`_read`) and
    returns the :class:`~tracegrade.judges.JudgeReply`. The constructor's arguments are those
    the subclasses document.
    """

    _provider: ClassVar[str]
    """The provider as messages name it, also its SDK's client class and error base
    (``OpenAI``: ``openai.OpenAI``, ``openai.OpenAIError``)."""
    _sdk_module: ClassVar[str]
    """The SDK's module (``openai``), also the default name's prefix."""
    _key_variable: ClassVar[str]
    """The environment variable the SDK reads the API key from."""

    def __init__(
        self,
        model: str,
        *,
        name: str | None,
        client: object | None,
        api_key: str | None,
        base_url: str | None,
        http_client: object | None,
        timeout: float,
        max_retries: int,
    ) -> None:
        self.model = model
        self._name = name or f"{self._sdk_module}:{model}"
        self._sdk: Any = import_sdk(self._sdk_module, self._name)
        self._sdk_error: type[Exception] = getattr(self._sdk, f"{self._provider}Error")
        if client is not None:
            self._client: Any = client
            return
        try:
            self._client = getattr(self._sdk, self._provider)(
                api_key=api_key,
                base_url=base_url,
                http_client=http_client,
                timeout=timeout,
                max_retries=max_retries,
            )
        except self._sdk_error as exc:
            raise JudgeProviderError(
                f"cannot build the {self._provider} client ({exc})",
                judge=self._name,
                fix=f"set {self._key_variable} or pass api_key",
            ) from exc

    @property
    def name(self) -> str:
        """The judge's name."""
        return self._name

    @abstractmethod
    def _options(self, request: JudgeRequest) -> dict[str, Any]:
        """The SDK call's arguments for a request."""

    @abstractmethod
    def _create(self, options: dict[str, Any]) -> Any:  # noqa: ANN401 - the SDK's response
        """Make the SDK call; its errors are translated by the caller."""

    @abstractmethod
    def _read(self, request: JudgeRequest, response: Any) -> ProviderAnswer:  # noqa: ANN401 - the SDK's response
        """The reply text and the tokens in the SDK's response."""

    def complete(self, request: JudgeRequest) -> JudgeReply:
        """Ask the model; return its reply text with the call's usage and latency.

        Raises:
            InfrastructureError: A rate limit, an overload or server error, a timeout or a
                dropped connection (retried by the runner).
            JudgeProviderError: Bad credentials or a bad request.
        """
        options = self._options(request)
        started = time.perf_counter()
        try:
            response = self._create(options)
        except self._sdk_error as exc:
            raise translate_error(
                self._sdk, exc, judge=self._name, case=request.case, provider=self._provider
            ) from exc
        latency = time.perf_counter() - started
        answer = self._read(request, response)
        return JudgeReply(
            judge=self._name,
            request=request,
            text=answer.text,
            model=str(response.model or self.model),
            input_tokens=answer.input_tokens,
            output_tokens=answer.output_tokens,
            cached_input_tokens=answer.cached_input_tokens,
            cache_write_input_tokens=answer.cache_write_input_tokens,
            latency_seconds=latency,
        )

    async def acomplete(self, request: JudgeRequest) -> JudgeReply:
        """:meth:`complete` in a worker thread, so the event loop is not blocked."""
        return await asyncio.to_thread(self.complete, request)
