"""Names a package imports on first use, so a command pays at start-up only for what it reads."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def lazy_names(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of a package that imports names on first use.

    ``homes`` maps each such name to the module defining it. A name once imported is kept in
    ``namespace`` (the package's ``globals()``), so later lookups no longer reach
    ``__getattr__``.
    """

    def __getattr__(name: str) -> Any:  # noqa: ANN401, N807 - whichever name is asked for
        home = homes.get(name)
        if home is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807 - the module protocol's name
        return sorted(namespace["__all__"])

    return __getattr__, __dir__
