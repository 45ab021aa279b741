"""Choosing the engine: TRACEGRADE_CORE, and what a missing or mismatched core says."""

from __future__ import annotations

import os
import sys
import unicodedata
from typing import TYPE_CHECKING

import pytest

import tracegrade
from tests.cli.runner import run_cli
from tests.conftest import REPO
from tracegrade import _core, _engine
from tracegrade._engine import compiled_core
from tracegrade.errors import InfrastructureError, InputError

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(autouse=True)
def _unchecked_core() -> Iterator[None]:
    """Each test imports and checks the core afresh (it is checked once per process)."""
    _engine._checked_core.cache_clear()
    yield
    _engine._checked_core.cache_clear()


def test_the_compiled_core_is_the_default(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)
    assert compiled_core() is _core
    monkeypatch.setenv("TRACEGRADE_CORE", "")
    assert compiled_core() is _core


def test_python_selects_the_reference(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRACEGRADE_CORE", "python")
    assert compiled_core() is None


def test_the_choice_follows_the_environment_as_it_changes(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)
    assert compiled_core() is _core
    os.environ["TRACEGRADE_CORE"] = "python"  # restored by monkeypatch
    assert compiled_core() is None
    del os.environ["TRACEGRADE_CORE"]
    assert compiled_core() is _core


def test_an_environment_mapping_of_another_kind_is_read_too(monkeypatch: pytest.MonkeyPatch):
    # Only CPython's os._Environ is read through its dict; any other mapping through get.
    monkeypatch.setattr(os, "environ", {"TRACEGRADE_CORE": "python"})
    assert compiled_core() is None
    monkeypatch.setattr(os, "environ", {"TRACEGRADE_CORE": "rust"})
    with pytest.raises(InputError):
        compiled_core()


def test_an_unknown_engine_is_a_usage_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRACEGRADE_CORE", "rust")
    with pytest.raises(InputError) as raised:
        compiled_core()
    assert str(raised.value) == (
        "TRACEGRADE_CORE='rust' names no engine. Set it to one of compiled, python or unset it"
    )


def test_a_missing_core_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)
    # What an unbuilt tree does: no submodule to import.
    monkeypatch.setitem(sys.modules, "tracegrade._core", None)
    monkeypatch.delattr(tracegrade, "_core")
    with pytest.raises(InfrastructureError) as raised:
        compiled_core()
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("tracegrade's compiled core (tracegrade._core) is not built")
    assert "pip install -e ." in message
    assert "TRACEGRADE_CORE=python" in message


def test_a_core_built_for_another_unicode_is_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TRACEGRADE_CORE", raising=False)
    monkeypatch.setattr(_core, "UNICODE_VERSION", "1.1.0")
    with pytest.raises(InfrastructureError) as raised:
        compiled_core()
    assert str(raised.value) == (
        "tracegrade's compiled core was built for Unicode 1.1.0, this Python has"
        f" {unicodedata.unidata_version}. Rebuild it with `pip install -e .` in this Python"
    )


def test_the_cli_reports_a_bad_engine_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    monkeypatch.setenv("TRACEGRADE_CORE", "fast")
    result = run_cli(capsys, "grade", str(REPO / "examples" / "suite.toml"))
    assert result.code == 2
    # The message names the variable, not the trace file being read when it surfaced.
    expected = (
        "tracegrade: error: TRACEGRADE_CORE='fast' names no engine. Set it to one of compiled,"
        " python or unset it"
    )
    assert result.err.strip().splitlines() == [expected]
