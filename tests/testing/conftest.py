"""What the plugin tests share: the arguments that load tracegrade's plugin in a pytester run."""

from __future__ import annotations

from importlib.metadata import entry_points


def plugin_args() -> tuple[str, ...]:
    """``-p tracegrade.testing.plugin`` unless the installed package's entry point loads it.

    An editable install made before the ``pytest11`` entry point existed does not load it;
    once reinstalled, loading it a second time by module name would register it twice.
    """
    installed = any(ep.name == "tracegrade" for ep in entry_points(group="pytest11"))
    # pytest-playwright's soft-assertion scope cannot nest inside this outer session.
    return ("-p", "no:playwright") + (() if installed else ("-p", "tracegrade.testing.plugin"))
