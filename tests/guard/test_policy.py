"""Guard policy files: sources, scanned slices per tool, and clear errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tracegrade.errors import PolicyError
from tracegrade.guard import load_policy

if TYPE_CHECKING:
    from pathlib import Path

POLICY = """
[sources]
system = true
calculators = ["run_calculation", "compute_dates"]
tools = ["create_tracker"]

[tools.create_spreadsheet]
scan = ["sheets[*].rows[*][*]"]

[tools."update_reservation_*"]
scan = ["payment_methods[*].amount"]

[tools.create_tracker]
scan = ["items[*].*"]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "guard.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_full_policy_loads(tmp_path: Path):
    policy = load_policy(_write(tmp_path, POLICY))

    assert policy.sources.system is True
    assert policy.sources.calculators == ("run_calculation", "compute_dates")
    assert policy.rule_for("create_spreadsheet") is not None
    assert policy.rule_for("update_reservation_flights") is policy.tools["update_reservation_*"]
    assert policy.rule_for("search_flights") is None


def test_guarded_tools_results_are_not_sources_unless_opted_in(tmp_path: Path):
    policy = load_policy(_write(tmp_path, POLICY))

    assert policy.results_are_sources("search_flights") is True
    assert policy.results_are_sources("create_spreadsheet") is False
    assert policy.results_are_sources("create_tracker") is True


def test_defaults_are_human_and_tool_results_only(tmp_path: Path):
    policy = load_policy(_write(tmp_path, '[tools.w]\nscan = ["x"]\n'))
    assert (policy.sources.system, policy.sources.tools, policy.sources.calculators) == (
        False,
        (),
        (),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[sources]\nsytem = true\n", "sources.sytem: is not a known key"),
        ("[tools.w]\nscan = []\n", "tools.w.scan"),
        ("[tools.w]\n", "tools.w.scan: is missing"),
        ('[tools.w]\nscan = ["rows[x]"]\n', "tools.w.scan: segment 'rows[x]'"),
        ("[sources]\nsystem = 'yes'\n", "sources.system"),
        ("[tools.w\n", "not valid TOML"),
    ],
)
def test_bad_policies_name_the_file_and_the_key(tmp_path: Path, text: str, expected: str):
    path = _write(tmp_path, text)
    with pytest.raises(PolicyError) as info:
        load_policy(path)
    assert str(path) in str(info.value)
    assert expected in str(info.value)
    assert info.value.exit_code == 2


def test_missing_policy_file(tmp_path: Path):
    with pytest.raises(PolicyError, match="cannot read the file"):
        load_policy(tmp_path / "absent.toml")
