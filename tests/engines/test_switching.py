"""The engine switch the comparisons use (tests/helpers/engines.py)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from tests.helpers.engines import both_engines, engine
from tracegrade import _core
from tracegrade._engine import ENGINE_VARIABLE, compiled_core
from tracegrade.redact._rules import sensitive_name

if TYPE_CHECKING:
    import pytest


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
