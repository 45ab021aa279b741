"""Third-party plugins: modules named in the ``tracegrade`` entry-point group.

A plugin is a module that registers trace readers or observation decoders with the
decorators when imported, or a function (``module:function``) that registers them when
called with no arguments. In a plugin's ``pyproject.toml``::

    [project.entry-points.tracegrade]
    my_tools = "my_package.tracegrade_plugin"

Plugins load once, the first time a registry is asked for its entries.
"""

from __future__ import annotations

from importlib.metadata import distributions, entry_points

from tracegrade.errors import RegistryError

__all__ = ["ENTRY_POINT_GROUP", "load_plugins"]

ENTRY_POINT_GROUP = "tracegrade"

_loaded = False


def load_plugins() -> None:
    """Import every plugin of the entry-point group, once.

    Raises:
        RegistryError: A plugin failed to import; the message names it and its module.
    """
    global _loaded  # noqa: PLW0603 - a process-wide "done once" flag
    if _loaded:
        return
    _loaded = True
    if not _group_declared():
        return
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
            if entry.attr and callable(loaded):
                loaded()
        except Exception as exc:  # any plugin failure becomes one clear error
            raise RegistryError(
                f"plugin {entry.name!r} ({entry.value}) failed to load: {exc}",
                fix="fix or uninstall the package that declares it in the 'tracegrade'"
                " entry-point group",
            ) from exc


def _group_declared() -> bool:
    """Whether some distribution's ``entry_points.txt`` may hold the group: a substring test.

    ``entry_points(group=...)`` parses every installed distribution's entry points into
    objects (3 ms of every command's start-up with 150 installed); a file without the
    ``[tracegrade]`` header holds none of the group's (its section lines are ``[name]``
    once stripped), so that parse runs only when some distribution may declare a plugin.
    """
    header = f"[{ENTRY_POINT_GROUP}]"
    return any(header in (dist.read_text("entry_points.txt") or "") for dist in distributions())
