"""Run code under one engine, or under both, in this process (TRACEGRADE_CORE).

``tracegrade._engine.compiled_core`` reads the variable at every call, so setting it is
enough to switch; every ``functools`` cache in tracegrade's modules is also emptied at each
switch, so a result one engine computed is never handed to the other (a cache over a rule
that asks for the core would otherwise hide every difference).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TYPE_CHECKING, Literal, TypeVar

from tracegrade import _core
from tracegrade._engine import ENGINE_VARIABLE, compiled_core

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["ENGINES", "Engine", "both_engines", "engine"]

Engine = Literal["python", "compiled"]
ENGINES: tuple[Engine, Engine] = ("python", "compiled")
"""The reference first: a comparison reads ``(reference, compiled)``."""

T = TypeVar("T")

_caches: list[Callable[[], None]] = []
_modules_seen = 0


def _clear_caches() -> None:
    global _modules_seen  # noqa: PLW0603 - the list is rebuilt only when modules were imported
    if len(sys.modules) != _modules_seen:
        _modules_seen = len(sys.modules)
        _caches.clear()
        for name, module in list(sys.modules.items()):
            if not (name == "tracegrade" or name.startswith("tracegrade.")):
                continue
            for value in list(getattr(module, "__dict__", {}).values()):  # None: import failed
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and getattr(value, "__module__", None) == name:
                    _caches.append(clear)
    for clear in _caches:
        clear()


@contextlib.contextmanager
def engine(name: Engine) -> Iterator[None]:
    """Run the block under ``name``; the variable is restored afterwards.

    Raises:
        AssertionError: The engine did not switch (the variable is no longer what selects it).
    """
    previous = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = name
    _clear_caches()
    try:
        selected = compiled_core()
        if selected is not (_core if name == "compiled" else None):
            msg = f"{ENGINE_VARIABLE}={name} did not select the {name} engine"
            raise AssertionError(msg)
        yield
    finally:
        if previous is None:
            os.environ.pop(ENGINE_VARIABLE, None)
        else:
            os.environ[ENGINE_VARIABLE] = previous
        _clear_caches()


def both_engines(run: Callable[[], T]) -> tuple[T, T]:
    """``run()`` under the reference, then under the compiled core: ``(reference, compiled)``."""
    with engine("python"):
        reference = run()
    with engine("compiled"):
        compiled = run()
    return reference, compiled
