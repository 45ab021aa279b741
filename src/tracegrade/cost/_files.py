"""Price files (the edge: reading them): the packaged table and a user's overrides."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade._toml import read_toml
from tracegrade.cost._prices import PriceTable, parse_price_table
from tracegrade.errors import InputError

if TYPE_CHECKING:
    from tracegrade.evals import Project

__all__ = ["load_prices", "packaged_prices", "project_prices"]

_PACKAGED = "prices.toml"


@lru_cache(maxsize=1)
def packaged_prices() -> PriceTable:
    """The price table shipped with tracegrade (``tracegrade/cost/prices.toml``)."""
    text = resources.files("tracegrade.cost").joinpath(_PACKAGED).read_text(encoding="utf-8")
    return parse_price_table(tomllib.loads(text), f"tracegrade/cost/{_PACKAGED}")


def load_prices(path: str | Path | None = None) -> PriceTable:
    """The packaged price table, with a user's price file merged over it.

    Args:
        path: A price file (TOML, the packaged file's shape) whose models override or
            extend the packaged ones; ``None`` for the packaged table alone.

    Raises:
        InputError: The file is unreadable, not TOML, or a model's prices are malformed;
            the message names the file and the model (exit 2).
    """
    table = packaged_prices()
    if path is None:
        return table
    file = Path(path)
    return table.merged(parse_price_table(read_toml(file, InputError), str(file)))


def project_prices(project: Project, override: str | Path | None = None) -> PriceTable:
    """The prices a project's calls are priced with.

    ``override`` (``--prices FILE``) wins; else the project's ``[cost] prices`` file
    (relative to ``tracegrade.toml``); else the packaged table.

    Raises:
        InputError: The chosen file is unreadable or malformed (exit 2).
    """
    if override is not None:
        return load_prices(override)
    configured = project.config.cost.prices
    return load_prices(None if configured is None else project.resolve(configured))
