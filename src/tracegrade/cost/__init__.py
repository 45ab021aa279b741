"""What model calls cost: usage x a price table -> US dollars, recorded per touchpoint.

The arithmetic is pure (:class:`PriceTable`, :func:`cost_of`, :func:`cost_breakdown`); an
unknown model's cost is ``None``, never zero, and every sum counts the calls it skipped.
:func:`record_ai_call` records a call (into the current run inside ``tracegrade run``);
:func:`usage_from_openai`, :func:`usage_from_anthropic` and :func:`usage_from_langchain`
read the usage of a response without importing any SDK, and
:class:`tracegrade.cost.langchain.CostCallbackHandler` records LangChain calls as they end;
:func:`record_response` records an OpenAI or Anthropic SDK response in one line;
:func:`repriced` prices a stored call again with today's table.
See ``docs/cost.md``.
"""

from tracegrade.cost._files import load_prices, packaged_prices, project_prices
from tracegrade.cost._prices import ModelPrice, PriceTable, cost_of, parse_price_table
from tracegrade.cost._record import (
    STORE_URL_VARIABLE,
    collect_calls,
    current_run_id,
    record_ai_call,
    record_response,
    repriced,
)
from tracegrade.cost._summary import (
    CostBreakdown,
    CostTotals,
    cost_breakdown,
    describe_breakdown,
    describe_totals,
    format_usd,
    priced_total,
)
from tracegrade.cost._usage import (
    Usage,
    usage_from_anthropic,
    usage_from_langchain,
    usage_from_mapping,
    usage_from_openai,
)

__all__ = [
    "STORE_URL_VARIABLE",
    "CostBreakdown",
    "CostTotals",
    "ModelPrice",
    "PriceTable",
    "Usage",
    "collect_calls",
    "cost_breakdown",
    "cost_of",
    "current_run_id",
    "describe_breakdown",
    "describe_totals",
    "format_usd",
    "load_prices",
    "packaged_prices",
    "parse_price_table",
    "priced_total",
    "project_prices",
    "record_ai_call",
    "record_response",
    "repriced",
    "usage_from_anthropic",
    "usage_from_langchain",
    "usage_from_mapping",
    "usage_from_openai",
]
