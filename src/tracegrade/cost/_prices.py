"""Price tables and pricing arithmetic (pure): usage x USD per million tokens -> cost.

A table maps ``provider/model`` keys to a :class:`ModelPrice` (the shape of Inspect AI's
model-cost files: ``input``, ``output``, ``input_cache_read``, ``input_cache_write``, in
US dollars per million tokens). A model is found by its exact name, then without a
provider prefix (``openai/``, ``anthropic:``), then as the family of a dated snapshot
(``gpt-4o-2024-08-06`` -> ``gpt-4o``, ``claude-sonnet-4-20250514`` -> ``claude-sonnet-4``).
A model found no way has no price: its cost is ``None``, never zero.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tracegrade.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tracegrade.cost._usage import Usage

__all__ = ["ModelPrice", "PriceTable", "cost_of", "parse_price_table"]

_PER_TOKENS = 1_000_000
_PRICE_FIELDS = ("input", "output", "input_cache_read", "input_cache_write")
_SNAPSHOT = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$")
_KNOWN_PROVIDERS = frozenset({"openai", "anthropic"})


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """What one model costs, in US dollars per million tokens.

    Attributes:
        input: Input tokens not read from or written to a cache.
        output: Output tokens.
        input_cache_read: Input tokens read from a prompt cache; ``None`` bills them as input.
        input_cache_write: Input tokens written to a prompt cache; ``None`` bills them as
            input.
    """

    input: float
    output: float
    input_cache_read: float | None = None
    input_cache_write: float | None = None


def cost_of(usage: Usage, price: ModelPrice) -> float:
    """The cost of ``usage`` at ``price``, in US dollars.

    Uncached input at ``input``, cache reads at ``input_cache_read`` and cache writes at
    ``input_cache_write`` (each at ``input`` when the table has no such rate), output at
    ``output``.
    """
    cached = usage.cached_input_tokens
    written = usage.cache_write_input_tokens
    plain = usage.input_tokens - cached - written
    read_rate = price.input if price.input_cache_read is None else price.input_cache_read
    write_rate = price.input if price.input_cache_write is None else price.input_cache_write
    total = (
        plain * price.input
        + cached * read_rate
        + written * write_rate
        + usage.output_tokens * price.output
    )
    return total / _PER_TOKENS


def _split(name: str, providers: frozenset[str]) -> str:
    """``name`` without a known ``provider/`` or ``provider:`` prefix."""
    for separator in ("/", ":"):
        provider, found, rest = name.partition(separator)
        if found and provider in providers and rest:
            return rest
    return name


@dataclass(frozen=True, slots=True)
class PriceTable:
    """Prices by model, with where they came from.

    Attributes:
        prices: ``provider/model`` (or a bare model name) to its price.
        sources: Each file merged into the table, with its ``as_of`` date and ``source``.
    """

    prices: Mapping[str, ModelPrice]
    sources: tuple[str, ...] = ()
    _index: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        providers = self._providers()
        for key in self.prices:  # later keys win: an override comes after what it overrides
            index[key.lower()] = key
            index[_split(key.lower(), providers)] = key
        object.__setattr__(self, "_index", index)

    def _providers(self) -> frozenset[str]:
        found = {key.split("/", 1)[0].lower() for key in self.prices if "/" in key}
        return _KNOWN_PROVIDERS | found

    def lookup(self, model: str) -> tuple[str, ModelPrice] | None:
        """The table key ``model`` is priced as, and its price; ``None`` when unpriced.

        Tried in order: the exact name; the name without a provider prefix; that name
        without a date or ``-latest`` suffix (its family). Case is ignored.
        """
        name = model.strip().lower()
        bare = _split(name, self._providers())
        for candidate in (name, bare, _SNAPSHOT.sub("", bare)):
            key = self._index.get(candidate)
            if key is not None:
                return key, self.prices[key]
        return None

    def price(self, model: str, usage: Usage) -> float | None:
        """The cost of a call in US dollars; ``None`` when ``model`` has no price."""
        found = self.lookup(model)
        return None if found is None else cost_of(usage, found[1])

    def merged(self, other: PriceTable) -> PriceTable:
        """This table with ``other``'s entries added, and replacing entries they match.

        An entry of ``other`` replaces every entry of this table with the same model
        name, with or without a provider prefix (``gpt-4o`` replaces ``openai/gpt-4o``).
        """
        providers = self._providers() | other._providers()
        replaced = {_split(key.lower(), providers) for key in other.prices}
        kept = {
            key: price
            for key, price in self.prices.items()
            if _split(key.lower(), providers) not in replaced
        }
        return PriceTable({**kept, **other.prices}, self.sources + other.sources)


def _bad(origin: str, what: str, fix: str) -> InputError:
    return InputError(what, fix=fix, path=origin)


def _rate(origin: str, model: str, name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad(
            origin,
            f"model {model!r}: {name} must be a number of US dollars per million tokens,"
            f" got {value!r}",
            f'write {name} = 2.5 (a plain number) under [models."{model}"]',
        )
    rate = float(value)
    if not math.isfinite(rate) or rate < 0:
        raise _bad(
            origin,
            f"model {model!r}: {name} must be zero or more, got {value!r}",
            "prices are US dollars per million tokens",
        )
    return rate


def _model_price(origin: str, model: str, entry: object) -> ModelPrice:
    if not isinstance(entry, dict):
        raise _bad(
            origin,
            f"model {model!r} is not a table of prices",
            f'write [models."{model}"] with input = ... and output = ...',
        )
    unknown = sorted(set(entry) - set(_PRICE_FIELDS))
    if unknown:
        raise _bad(
            origin,
            f"model {model!r}: unknown field {unknown[0]!r}",
            f"a model's fields are {', '.join(_PRICE_FIELDS)}",
        )
    for required in ("input", "output"):
        if required not in entry:
            raise _bad(
                origin,
                f"model {model!r} has no {required} price",
                f"add {required} = ... (US dollars per million tokens)",
            )
    rates = {name: _rate(origin, model, name, entry[name]) for name in entry}
    return ModelPrice(**rates)


def parse_price_table(data: Mapping[str, object], origin: str) -> PriceTable:
    """A price table from a parsed price file (pure).

    The file has optional ``as_of`` (a date) and ``source`` (text) at the top, and one
    ``[models."provider/model"]`` table per model with ``input`` and ``output`` (required)
    and ``input_cache_read`` and ``input_cache_write``, in US dollars per million tokens.

    Args:
        data: The parsed file.
        origin: The file's name, for errors and :attr:`PriceTable.sources`.

    Raises:
        InputError: The file breaks that shape; the message names the file and the model.
    """
    unknown = sorted(set(data) - {"as_of", "source", "currency", "models"})
    if unknown:
        raise _bad(
            origin,
            f"unknown top-level key {unknown[0]!r}",
            'put each model under [models."provider/model"]',
        )
    currency = data.get("currency", "USD")
    if currency != "USD":
        raise _bad(origin, f"currency {currency!r} is not USD", "give prices in US dollars")
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise _bad(origin, "models is not a table", 'write [models."provider/model"] tables')
    prices = {
        str(model): _model_price(origin, str(model), entry) for model, entry in models.items()
    }
    as_of = data.get("as_of")
    label = origin if as_of is None else f"{origin} (as of {as_of})"
    return PriceTable(prices, (label,))
