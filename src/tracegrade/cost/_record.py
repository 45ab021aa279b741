"""Recording model calls (the edge: the store): into the current run, or straight to a store.

Inside a unit the eval runner executes, :func:`collect_calls` is active: every
:func:`record_ai_call` lands in the unit's collector, tagged with the run and the
touchpoint, and travels back to the runner with the unit's outcomes (from a thread, a
worker process or a Ray task alike); the runner stores the calls with the unit's case
results. Outside a run a call is written to the given store at once, or to the default
one (``TRACEGRADE_STORE_URL``, else ``.tracegrade/tracegrade.db``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError

from tracegrade.cost._files import packaged_prices
from tracegrade.cost._prices import cost_of
from tracegrade.cost._usage import (
    Usage,
    field_of,
    usage_from_anthropic,
    usage_from_mapping,
    usage_from_openai,
)
from tracegrade.errors import InputError
from tracegrade.store import AiCallRecord, CallRole, open_store

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from tracegrade.cost._prices import PriceTable
    from tracegrade.store import JsonObject, Store

__all__ = [
    "STORE_URL_VARIABLE",
    "collect_calls",
    "current_run_id",
    "record_ai_call",
    "record_response",
    "repriced",
]

STORE_URL_VARIABLE = "TRACEGRADE_STORE_URL"
"""The environment variable naming the store calls recorded outside a run go to."""

UNKNOWN_MODEL = "unknown"


@dataclass(slots=True)
class _Collector:
    run_id: str
    touchpoint: str
    prices: PriceTable
    calls: list[AiCallRecord] = field(default_factory=list)


_CURRENT: ContextVar[_Collector | None] = ContextVar("tracegrade_cost_collector", default=None)


@contextmanager
def collect_calls(
    run_id: str, touchpoint: str, prices: PriceTable | None = None
) -> Iterator[list[AiCallRecord]]:
    """Collect every call recorded in this context (and contexts copied from it).

    The eval runner wraps each unit in it; the list it yields fills as calls are recorded.

    Args:
        run_id: The run the calls belong to.
        touchpoint: The touchpoint a call names when it names none.
        prices: The table calls are priced with (default: the packaged one).
    """
    collector = _Collector(run_id, touchpoint, prices or packaged_prices())
    token = _CURRENT.set(collector)
    try:
        yield collector.calls
    finally:
        _CURRENT.reset(token)


def current_run_id() -> str | None:
    """The run whose unit is executing here; ``None`` outside a run."""
    collector = _CURRENT.get()
    return None if collector is None else collector.run_id


def _usage(usage: Usage | Mapping[str, object] | None) -> Usage | None:
    if usage is None or isinstance(usage, Usage):
        return usage
    try:
        return usage_from_mapping(usage)
    except ValueError as exc:
        raise InputError(
            f"record_ai_call got unreadable usage ({exc})",
            fix="pass a Usage, or a dict with input_tokens and output_tokens",
        ) from exc


def _priced(model: str, usage: Usage, table: PriceTable, details: JsonObject) -> float | None:
    """The call's cost at ``table`` (``None``: the model has no price); notes it in ``details``.

    ``details`` gets the table entry the model was priced as and the cache-write tokens
    (which the stored call has no column for), so the call can be priced again later.
    """
    details.pop("priced_as", None)
    if usage.cache_write_input_tokens:
        details["cache_write_input_tokens"] = usage.cache_write_input_tokens
    found = table.lookup(model)
    if found is None:
        return None
    details["priced_as"] = found[0]
    return cost_of(usage, found[1])


def repriced(call: AiCallRecord, prices: PriceTable) -> AiCallRecord:
    """The stored call priced again with ``prices``, from its stored tokens.

    A model priced since the call was recorded gets a cost; a changed price changes it;
    a call whose provider reported no usage stays unpriced. The stored call is unchanged.
    """
    if call.details.get("usage_missing"):
        return call
    written = call.details.get("cache_write_input_tokens")
    usage = Usage(
        input_tokens=call.input_tokens,
        output_tokens=call.output_tokens,
        cached_input_tokens=call.cached_input_tokens,
        cache_write_input_tokens=written if isinstance(written, int) else 0,
    )
    details = dict(call.details)
    cost = _priced(call.model, usage, prices, details)
    return call.model_copy(update={"cost_usd": cost, "details": details})


def record_ai_call(  # noqa: PLR0917 - the agreed signature: what a call is, and where it goes
    touchpoint: str | None,
    model: str | None,
    usage: Usage | Mapping[str, object] | None,
    latency: float | None,
    role: CallRole = "agent",
    run_id: str | None = None,
    *,
    store: Store | None = None,
    prices: PriceTable | None = None,
    details: JsonObject | None = None,
) -> AiCallRecord:
    """Record one model call with its tokens, latency and price.

    Inside a unit of ``tracegrade run`` the call joins the current run and (when
    ``touchpoint`` is ``None``) the unit's touchpoint, and the runner stores it with the
    unit's results. Outside a run it is written to ``store`` now, or to the default store
    (``TRACEGRADE_STORE_URL``, else ``.tracegrade/tracegrade.db``).

    Args:
        touchpoint: The touchpoint the call served; ``None`` inside a run means the unit's.
        model: The model name; ``None`` takes the one ``usage`` names.
        usage: The tokens (a :class:`Usage`, from ``usage_from_openai`` and the like, or a
            dict of counts); ``None`` when the provider reported none: the call is then
            stored with zero tokens and no price, as unpriced.
        latency: Seconds the call took, or ``None``.
        role: ``agent`` or ``judge``.
        run_id: The run it belongs to; inside a run, the current run by default.
        store: Where to write it outside a run.
        prices: The price table; default the run's table, else the packaged one.
        details: Extra JSON to keep with the call.

    Returns:
        The recorded call; its ``cost_usd`` is ``None`` when the model has no price.

    Raises:
        InputError: No touchpoint outside a run, a bad role or unreadable usage (exit 2).
    """
    collector = _CURRENT.get()
    read = _usage(usage)
    name = model or (read.model if read is not None else None) or UNKNOWN_MODEL
    table = prices or (collector.prices if collector is not None else packaged_prices())
    extra: JsonObject = dict(details or {})
    cost: float | None = None
    if read is None:
        extra["usage_missing"] = True
    else:
        cost = _priced(name, read, table, extra)
    chosen = touchpoint or (collector.touchpoint if collector is not None else None)
    if not chosen:
        raise InputError(
            "record_ai_call outside a run needs a touchpoint",
            fix="pass the id of the touchpoint the call served",
        )
    try:
        call = AiCallRecord(
            run_id=run_id or (collector.run_id if collector is not None else None),
            touchpoint=chosen,
            model=name,
            role=role,
            input_tokens=read.input_tokens if read is not None else 0,
            output_tokens=read.output_tokens if read is not None else 0,
            cached_input_tokens=read.cached_input_tokens if read is not None else 0,
            latency_seconds=latency,
            cost_usd=cost,
            details=extra,
        )
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        raise InputError(
            f"record_ai_call: {where}: {problem['msg']}",
            fix="role is 'agent' or 'judge'; latency and token counts are zero or more",
        ) from exc
    if collector is not None:
        collector.calls.append(call)
        return call
    target = store or open_store(os.environ.get(STORE_URL_VARIABLE) or None)
    try:
        target.add_ai_calls([call])
    finally:
        if store is None:
            target.close()
    return call


def record_response(
    response: object,
    touchpoint: str | None = None,
    *,
    latency: float | None = None,
    role: CallRole = "agent",
    run_id: str | None = None,
    store: Store | None = None,
    prices: PriceTable | None = None,
) -> AiCallRecord:
    """Record the call behind an OpenAI or Anthropic SDK response (or its JSON as a dict).

    The provider is told from the response itself (an Anthropic ``Message`` has
    ``type == "message"``; anything else is read as OpenAI Chat Completions or Responses),
    and the model and usage come from it, so capturing a call is one line after it returns::

        started = time.perf_counter()
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
        record_response(response, "search_knowledge", latency=time.perf_counter() - started)

    A response with no usage is recorded as unpriced (see :func:`record_ai_call`).
    """
    anthropic = field_of(response, "type") == "message"
    usage = usage_from_anthropic(response) if anthropic else usage_from_openai(response)
    model = field_of(response, "model")
    return record_ai_call(
        touchpoint,
        model if isinstance(model, str) and model else None,
        usage,
        latency,
        role,
        run_id,
        store=store,
        prices=prices,
        details={"provider": "anthropic" if anthropic else "openai"},
    )
