"""FigureIndex: the sourced figures (the haystack), and unsourced_figures() over it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.figures._find import (
    compiled_extractor,
    extract_figures,
    iter_figures,
    number_values,
)
from tracegrade.figures._structured import amount_values

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tracegrade.figures._model import Figure

__all__ = ["FigureIndex", "approximate_keys", "unsourced_figures"]


class FigureIndex:
    """Incremental set of sourced figures (the haystack): add source texts as they arrive.

    Each :meth:`add` extracts the text's figures once and keeps their keys in a dict, so
    adding costs time linear in the text and a lookup costs the same whatever the history.

    Args:
        bare_numbers: Also keep every number the sources write, of any size, so a bare number
            (:func:`~tracegrade.figures.number_figure`: a cell, an ``amount`` field) can be
            sourced by ``"amount": 250``. Off saves a pass when only prose figures are checked.

    Structured values (:meth:`add_values`) source money: ``"price": 466.75`` in a tool
    result sources ``$466.75`` in an answer, though ``466.75`` in prose is not a figure.

    Example:
        >>> index = FigureIndex()
        >>> index.add("Poseidon grossed $ 181,674,817 on a budget of $ 160 million.", "frame 4")
        >>> [figure.raw for figure in index.unsourced("It grossed $181,674,817 on $150 million.")]
        ['$150 million']
    """

    __slots__ = ("_amounts", "_approximate", "_evidence", "_numbers")

    def __init__(self, *, bare_numbers: bool = True) -> None:
        self._evidence: dict[str, str] = {}
        self._approximate: dict[str, str] = {}
        # Amounts shown as structured values ("466.75"), and their hedged forms ("about:470").
        self._amounts: dict[str, str] = {}
        # Every number of every source, for bare figures; None when none will be looked up.
        self._numbers: dict[str, str] | None = {} if bare_numbers else None

    def add(self, text: str, evidence: str, *, echo_of: str | None = None) -> None:
        """Add the figures of a source text.

        Args:
            text: What a tool returned, or what the human wrote.
            evidence: An id for where the text came from (e.g. ``"frame 4"``); a figure keeps
                the first evidence it was seen in.
            echo_of: Text whose figures and numbers this source must not vouch for: the
                arguments of the call a write or an error answers, which it may only echo.
        """
        echoed = _echoed(echo_of)
        known, approximate, numbers = self._evidence, self._approximate, self._numbers
        extractor = compiled_extractor()
        if extractor is not None and extractor.index(
            text, evidence, known, approximate, numbers, echoed
        ):
            return  # the core ran the loop below (rust/src/py_figures.rs)
        for figure in iter_figures(text):
            key = figure.key
            if key in known or key in echoed:
                continue
            known[key] = evidence
            if figure.kind in ("money", "number"):
                for rounded in approximate_keys(figure.value):
                    approximate.setdefault(rounded, evidence)
        if numbers is not None:
            for value in number_values(text):
                if value not in echoed:
                    numbers.setdefault(value, evidence)

    def add_values(self, result: object, evidence: str, *, echo_of: str | None = None) -> None:
        """Add the money amounts a tool result shows as structured values.

        A number under a key that names money (``"price": 466.75``, ``"prices": {"economy":
        122}``), or a result that is only a number (a calculator's ``255.0``), sources the
        same amount written in prose (``$466.75``, ``$255``); ids, codes, counts, dates and
        times never do (docs/figures.md, "Structured values").

        Args:
            result: The tool result: any JSON value, or a string holding JSON or one number.
            evidence: As for :meth:`add`.
            echo_of: As for :meth:`add`.
        """
        echoed = _echoed(echo_of)
        amounts = self._amounts
        for value in amount_values(result):
            if value in echoed or value in amounts:
                continue
            amounts[value] = evidence
            for rounded in approximate_keys(value):
                amounts.setdefault(rounded, evidence)

    def evidence_for(self, figure: Figure) -> str | None:
        """The first evidence id where this figure was seen; ``None`` if it is unsourced.

        A hedged money amount or number (``about $3 million``, ``over 1,500``) is also
        sourced by a source figure that rounds to it (``about``: 2,956,737), that lies at or
        below it and rounds to it (``under``: nearly 78,000 for 77,984), or that lies at or
        above it and truncates to it (``over``: over $181 million for $181,674,817), at one,
        two or three significant digits. A bare number (:attr:`Figure.bare`) is also sourced
        by the same number written anywhere in a source, whatever its size. A money amount is
        also sourced by an amount a source showed as a structured value (:meth:`add_values`),
        under the same rounding for a hedged one.
        """
        found = self._evidence.get(figure.key)
        if found is None and figure.hedge is not None and figure.kind in ("money", "number"):
            found = self._approximate.get(f"{figure.hedge}:{figure.value}")
        if found is None and figure.kind == "money":
            found = self._amounts.get(figure.value)
            if found is None and figure.hedge is not None:
                found = self._amounts.get(f"{figure.hedge}:{figure.value}")
        if found is None and figure.bare and self._numbers is not None:
            found = self._numbers.get(figure.value)
        return found

    def unsourced(self, text: str) -> tuple[Figure, ...]:
        """The figures of ``text`` (as :func:`extract_figures` gives them) not in the index."""
        return tuple(
            figure for figure in extract_figures(text) if self.evidence_for(figure) is None
        )

    def __len__(self) -> int:
        return len(self._evidence)


def _echoed(echo_of: str | None) -> set[str]:
    """The figure keys and numbers of a call's arguments, which its answer may only echo."""
    if echo_of is None:
        return set()
    echoed = {figure.key for figure in iter_figures(echo_of)}
    echoed.update(number_values(echo_of))
    return echoed


def approximate_keys(value: str) -> list[str]:
    """The hedged forms a source number vouches for, as ``"hedge:value"`` keys.

    For each number of significant digits ``s`` from 1 to 3 (fewer than the integer part
    has): the value truncated (``over``), rounded half up (``about``) and, when rounding
    went up, the rounded value again as ``under``. ``"2956737"`` gives ``over:2000000``,
    ``about:3000000``, ``under:3000000``, ``over:2900000``, ... ``about:2960000``.
    """
    digits = value.split(".", 1)[0]
    keys: list[str] = []
    for significant in range(1, min(3, len(digits) - 1) + 1):
        zeros = "0" * (len(digits) - significant)
        head = digits[:significant]
        keys.append(f"over:{head}{zeros}")
        if digits[significant] >= "5":
            rounded = f"{int(head) + 1}{zeros}"
            keys.append(f"about:{rounded}")
            keys.append(f"under:{rounded}")
        else:
            keys.append(f"about:{head}{zeros}")
    return keys


def unsourced_figures(text: str, sources: Iterable[str]) -> tuple[Figure, ...]:
    """The figures of ``text`` that appear in none of the sources, in order of appearance.

    A figure is sourced when some source holds a figure with the same key, whatever its
    written form: ``$1.5 million`` is sourced by ``1,500,000 dollars``, ``30 days`` by
    ``thirty (30) days`` or ``a 30-day period``; a source that is JSON text also sources
    money by its structured values (``{"price": 466.75}`` sources ``$466.75``).

    Args:
        text: The text to check (an answer, or the arguments of a tool call).
        sources: The texts figures may come from (tool results, human messages).

    Returns:
        The unsourced figures, deduplicated by key, in order of first appearance.
    """
    index = FigureIndex()
    for position, source in enumerate(sources):
        index.add(source, f"source {position}")
        index.add_values(source, f"source {position}")
    return index.unsourced(text)
