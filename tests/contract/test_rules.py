"""ContractRules: defaults, validation, and loading the [contract] table of a TOML file."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from pydantic import ValidationError

from tracegrade.contract import ContractRules, load_contract_rules, parse_contract_rules
from tracegrade.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path


def test_the_default_marker_is_a_bracketed_key_without_spaces():
    rules = ContractRules()

    assert rules.marker == r"\[([^\[\]\s]+)\]"
    assert "does not mention" in rules.whole_document


def test_rules_are_frozen():
    with pytest.raises(ValidationError):
        ContractRules().marker = "x"  # type: ignore[misc]


def test_rules_load_from_the_contract_table(tmp_path: Path):
    path = tmp_path / "tracegrade.toml"
    path.write_text(
        '[contract]\nmarker = "\\\\(\\\\^([a-z0-9-]+)\\\\)"\nwhole_document = ["omits"]\n'
        '\n[other]\nkept = "for other tools"\n',
        encoding="utf-8",
    )

    rules = load_contract_rules(path)

    assert rules == ContractRules(marker=r"\(\^([a-z0-9-]+)\)", whole_document=("omits",))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "no [contract] table"),
        ({"contract": {"markers": "x"}}, "contract.markers: is not a known key"),
        ({"contract": {"marker": "[unclosed"}}, "contract.marker: not a valid regular expression"),
        ({"contract": {"marker": r"\[\w+\]"}}, "contract.marker: needs a group"),
        ({"contract": {"whole_document": [""]}}, "contract.whole_document.0:"),
        ({"contract": {"whole_document": "nowhere"}}, "contract.whole_document:"),
    ],
)
def test_invalid_rules_name_the_file_and_the_key(data, message):
    with pytest.raises(InputError) as caught:
        parse_contract_rules(data, "rules.toml")

    assert str(caught.value).startswith("rules.toml: ")
    assert message in str(caught.value)


def test_an_unreadable_or_invalid_file_is_an_input_error(tmp_path: Path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[contract\n", encoding="utf-8")

    with pytest.raises(InputError, match="not valid TOML"):
        load_contract_rules(broken)
    with pytest.raises(InputError, match="cannot read the file"):
        load_contract_rules(tmp_path / "missing.toml")
