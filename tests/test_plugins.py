"""Plugins named in the 'tracegrade' entry-point group load once, or fail with one clear error."""

from __future__ import annotations

import sys
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


def _install(folder: Path, entry_points: str) -> None:
    """A distribution on sys.path (``folder`` is on it) declaring ``entry_points.txt``."""
    info = folder / "tg_example_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tg-example-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_a_plugin_module_registers_its_decoder(fresh_plugins: Path):
    (fresh_plugins / "tg_example_plugin.py").write_text(
        "from tracegrade.observations import decoder\n"
        "@decoder('example-plugin-shape', tools=['ticket'])\n"
        "def decode(result):\n"
        "    return None\n",
        encoding="utf-8",
    )
    _install(
        fresh_plugins,
        "[console_scripts]\nexample = x:y\n\n[tracegrade]\nexample = tg_example_plugin\n",
    )

    names = [d.name for d in decoders()]

    assert "example-plugin-shape" in names
    assert names.index("example-plugin-shape") > names.index("mutation")


def test_a_broken_plugin_is_one_registry_error_naming_it(fresh_plugins: Path):
    (fresh_plugins / "tg_example_plugin.py").write_text("raise ImportError('boom')\n", "utf-8")
    _install(fresh_plugins, "[tracegrade]\nexample = tg_example_plugin:setup\n")

    with pytest.raises(RegistryError, match=r"plugin 'example' \(tg_example_plugin:setup\).*boom"):
        decoders()


def test_a_distribution_without_the_group_loads_no_plugin(fresh_plugins: Path):
    # Another group naming the same module: not a tracegrade plugin, so never imported.
    (fresh_plugins / "tg_example_plugin.py").write_text("raise ImportError('boom')\n", "utf-8")
    _install(fresh_plugins, "[tracegrade.other]\nexample = tg_example_plugin\n")

    assert "example-plugin-shape" not in [d.name for d in decoders()]
    assert "tg_example_plugin" not in sys.modules
