r"""The grounding contract's rules: how answers cite, and which claims speak for a whole document.

A rules file is TOML; only its ``[contract]`` table is read, so it can live in a project's
shared configuration::

    [contract]
    marker = '\[([^\[\]\s]+)\]'     # a citation marker; group 1 is the key or result id
    whole_document = ["does not mention", "is silent on"]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError, field_validator

from tracegrade._toml import read_toml
from tracegrade._validation import error_message
from tracegrade.errors import InputError

__all__ = ["ContractRules", "load_contract_rules", "parse_contract_rules"]

_NonEmpty = Annotated[StrictStr, Field(min_length=1)]
_FIX = "see docs/contract.md for the [contract] table"


class ContractRules(BaseModel):
    r"""How the validator reads an answer's citations.

    Attributes:
        marker: A regular expression for one citation; group 1 is the cited document key,
            document title or search result id. The default, ``[key]``, takes no spaces, so
            citing titles with spaces needs a wider marker such as ``\[([^\[\]]+)\]``.
        whole_document: Phrases (matched case-insensitively) that make a claim speak for a
            whole document, such as ``"does not mention"``: such a claim needs a complete read.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    marker: StrictStr = r"\[([^\[\]\s]+)\]"
    whole_document: tuple[_NonEmpty, ...] = (
        "does not mention",
        "does not contain",
        "no mention of",
        "nowhere",
        "is silent on",
        "does not include",
        "not mentioned",
    )

    @field_validator("marker")
    @classmethod
    def _compiles_with_a_group(cls, value: str) -> str:
        try:
            pattern = re.compile(value)
        except re.error as exc:
            msg = f"not a valid regular expression ({exc})"
            raise ValueError(msg) from exc
        if pattern.groups < 1:
            msg = "needs a group: group 1 is the cited key"
            raise ValueError(msg)
        return value

    @property
    def marker_pattern(self) -> re.Pattern[str]:
        """The compiled marker."""
        return re.compile(self.marker)  # the re module caches compiled patterns


def parse_contract_rules(data: dict[str, Any], name: str = "<rules>") -> ContractRules:
    """Validate the rules of a parsed TOML document (its ``[contract]`` table).

    Raises:
        InputError: No ``[contract]`` table, an unknown key, a marker that is not a regular
            expression with a group, or a wrong type; the message names the file and the key.
    """
    table = data.get("contract")
    if not isinstance(table, dict):
        raise InputError("no [contract] table", fix=_FIX, path=name)
    try:
        return ContractRules.model_validate(table)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        where = ".".join(["contract", *(str(part) for part in error["loc"])])
        message = error_message(error, unknown="key")
        raise InputError(f"{where}: {message}", fix=_FIX, path=name) from exc


def load_contract_rules(path: str | Path) -> ContractRules:
    """Read the ``[contract]`` table of a TOML file.

    Raises:
        InputError: The file is unreadable, not TOML, or its rules are invalid.
    """
    file = Path(path)
    data = read_toml(file, InputError)
    return parse_contract_rules(data, str(file))
