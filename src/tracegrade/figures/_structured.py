"""Structured values: which numbers of a JSON tool result may source a money amount.

A tool that returns ``{"price": 466.75}`` has shown the model $466.75, though no currency is
written and the number is under four digits (so not a figure in prose). Which JSON values
count is decided by their key, read as an English compound whose last word is the head
(``total_baggages`` is a count of baggages, ``seat_price`` a price), and inherited from the
nearest enclosing key that has a say (``prices.economy`` is a price, ``available_seats.economy``
a count). The rule, with examples, is in docs/figures.md.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

import orjson

from tracegrade.figures._bare import number_figure

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["amount_values", "key_names_money"]

# Where a value sits: under no key at all, under a money key, under another key, or under
# keys with no say only.
_Standing = Literal["keyless", "money", "other", "unsaid"]

# Head words that make a value an amount of money.
_MONEY_WORDS = frozenset(
    (
        "amount", "amounts", "balance", "balances", "price", "prices", "pricing", "priced", "cost",
        "costs", "fee", "fees", "fare", "fares", "charge", "charges", "charged", "total", "totals",
        "subtotal", "subtotals", "refund", "refunds", "refunded", "payment", "payments", "paid",
        "pay", "payout", "payouts", "credit", "debit", "deposit", "deposits", "tax", "taxes", "vat",
        "tip", "tips", "compensation", "budget", "budgets", "revenue", "revenues", "salary",
        "salaries", "wage", "wages", "income", "spend", "spent", "spending", "money", "cash", "usd",
        "eur", "gbp", "dollars", "euros", "premium", "penalty", "surcharge", "savings", "earnings",
        "profit", "worth", "bill", "billed", "invoice", "due", "owed", "owing", "rent", "expense",
        "expenses"
    )
)  # fmt: skip
# Head words that make a value anything but money: ids, codes, counts, dates, times, sizes.
_OTHER_WORDS = frozenset(
    (
        "id", "ids", "uuid", "guid", "key", "code", "codes", "number", "numbers", "num", "no", "nr",
        "count", "counts", "qty", "quantity", "quantities", "index", "idx", "seat", "seats",
        "available", "availability", "age", "year", "years", "month", "months", "week", "weeks",
        "day", "days", "date", "dates", "dob", "birthday", "time", "times", "timestamp", "created",
        "updated", "modified", "hour", "hours", "minute", "minutes", "second", "seconds",
        "duration", "phone", "zip", "postal", "postcode", "four", "last4", "digits", "version",
        "page", "pages", "limit", "offset", "rank", "rating", "score", "percent", "percentage",
        "pct", "ratio", "status", "port", "bag", "bags", "baggage", "baggages", "items",
        "passengers", "people", "persons", "guests", "adults", "children", "nights", "stops",
        "length", "size", "weight", "height", "width", "distance", "miles", "points", "level",
        "tier", "floor", "room", "gate", "terminal", "line", "lines", "row", "rows", "column",
        "columns", "serial", "sku", "isbn", "account", "reference", "ref", "confirmation", "pin",
        "cvv", "lat", "latitude", "lon", "longitude", "card"
    )
)  # fmt: skip
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


@lru_cache(maxsize=4096)
def key_names_money(key: str) -> bool | None:
    """Whether a JSON key names an amount of money: ``True``, ``False`` or ``None`` (no say).

    The last word that is a money word or an other word decides (``total_baggages``: a count;
    ``amount_paid``: money); words after ``per`` are a rate's unit (``price_per_night``:
    money). A key of neither kind (``economy``, ``value``) has no say.
    """
    words = [word.lower() for word in _WORD.findall(key)]
    if "per" in words:
        words = words[: words.index("per")]
    for word in reversed(words):
        if word in _OTHER_WORDS:
            return False
        if word in _MONEY_WORDS:
            return True
    return None


def _parsed(result: object) -> object:
    """A string result that is JSON (an object, an array or one number) parsed; else as is."""
    if not isinstance(result, str):
        return result
    head = result.lstrip()[:1]
    if head in ("{", "["):
        try:
            return orjson.loads(result)
        except orjson.JSONDecodeError:
            return None  # prose that starts with a bracket: the text rules alone apply
    return result


def amount_values(result: object) -> Iterator[str]:
    """The numbers of a tool result that may source a money amount, as canonical decimals.

    A number (or a string that is only a number) counts when the nearest key above it that
    has a say names money (``"price": 466.75``, ``"prices": {"economy": 122}``), or when no
    key is above it at all (a calculator that returned ``255.0``). Under a key that names an
    id, a code, a count, a date or a time it never counts, nor under keys with no say only.

    Args:
        result: A tool result: any JSON value, or a string holding JSON or one number.
    """
    stack: list[tuple[object, _Standing]] = [(_parsed(result), "keyless")]
    while stack:
        value, standing = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                says = key_names_money(key) if isinstance(key, str) else None
                if says is not None:
                    stack.append((item, "money" if says else "other"))
                else:  # a key with no say keeps an enclosing key's verdict
                    stack.append((item, "unsaid" if standing == "keyless" else standing))
        elif isinstance(value, list):
            stack.extend((item, standing) for item in value)
        elif standing in ("keyless", "money"):
            number = number_figure(value)  # ints, floats, strings that are only a number
            if number is not None:
                yield number.value
