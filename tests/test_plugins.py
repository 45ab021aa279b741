"""Plugins named in the 'tracegrade' entry-point group load once, or fail with one clear error."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint
from typing import TYPE_CHECKING

import pytest

from tracegrade import _plugins
from tracegrade.errors import RegistryError
from tracegrade.observations import decoders, unregister_decoder

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def fresh_plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(_plugins, "_loaded", False)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("tg_example_plugin", None)
    unregister_decoder("example-plugin-shape")


def _entry_points(*points: EntryPoint):
    def select(group: str) -> tuple[EntryPoint, ...]:
        return points if group == "tracegrade" else ()

    return select


def test_a_plugin_module_registers_its_decoder(
    fresh_plugins: Path, monkeypatch: pytest.MonkeyPatch
):
    (fresh_plugins / "tg_example_plugin.py").write_text(
        "from tracegrade.observations import decoder\n"
        "@decoder('example-plugin-shape', tools=['ticket'])\n"
        "def decode(result):\n"
        "    return None\n",
        encoding="utf-8",
    )
    point = EntryPoint("example", "tg_example_plugin", "tracegrade")
    monkeypatch.setattr(_plugins, "entry_points", _entry_points(point))

    names = [d.name for d in decoders()]

    assert "example-plugin-shape" in names
    assert names.index("example-plugin-shape") > names.index("mutation")


def test_a_broken_plugin_is_one_registry_error_naming_it(
    fresh_plugins: Path, monkeypatch: pytest.MonkeyPatch
):
    (fresh_plugins / "tg_example_plugin.py").write_text("raise ImportError('boom')\n", "utf-8")
    point = EntryPoint("example", "tg_example_plugin:setup", "tracegrade")
    monkeypatch.setattr(_plugins, "entry_points", _entry_points(point))

    with pytest.raises(RegistryError, match=r"plugin 'example' \(tg_example_plugin:setup\).*boom"):
        decoders()
