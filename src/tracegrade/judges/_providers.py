"""What the provider judges share (edge): importing the SDK, translating its errors, timing calls.

Both SDKs raise the same family of errors (``APITimeoutError`` < ``APIConnectionError`` <
``APIError``; ``APIStatusError`` with a ``status_code``). Rate limits, server errors,
timeouts and dropped connections become :class:`~tracegrade.errors.InfrastructureError`,
which the runner retries with backoff and never counts as a quality failure; a refusal that
retrying cannot fix (bad credentials, a bad request, an unknown model) becomes
:class:`~tracegrade.errors.JudgeProviderError`.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from tracegrade.errors import InfrastructureError, JudgeProviderError, TracegradeError

__all__ = ["INSTALL_HINT", "import_sdk", "plain_schema", "translate_error"]

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
