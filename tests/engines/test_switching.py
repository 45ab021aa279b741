"""The engine switch the comparisons use (tests/helpers/engines.py)."""

from __future__ import annotations

import contextlib
import os

import pytest

from tests.helpers.engines import both_engines, engine
from tracegrade import _core
from tracegrade._engine import ENGINE_VARIABLE, compiled_core
from tracegrade.redact._rules import sensitive_name


def test_each_engine_is_selected_and_the_variable_restored(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(ENGINE_VARIABLE, "compiled")
    assert both_engines(compiled_core) == (None, _core)
    assert os.environ[ENGINE_VARIABLE] == "compiled"
    monkeypatch.delenv(ENGINE_VARIABLE)
    with engine("python"):
        assert compiled_core() is None
    assert ENGINE_VARIABLE not in os.environ


def test_the_switch_empties_tracegrade_caches():
    # A cache over a rule that asks for the core would hand one engine's result to the other.
    sensitive_name("api_key")
    assert sensitive_name.cache_info().currsize > 0
    with engine("compiled"):
        assert sensitive_name.cache_info().currsize == 0


def test_a_module_that_keeps_the_core_fails_the_reference_run():
    # What `CORE = compiled_core()` at import would do: the "reference" would run the core.
    kept = compiled_core()
    assert kept is not None
    expected = r"called the compiled core \(lower\)"
    with (
        pytest.raises(AssertionError, match=expected),
        engine("python"),
        contextlib.suppress(AssertionError),  # the caller may catch the first one
    ):
        kept.lower("A")
    assert kept.lower("A") == "a"  # restored
