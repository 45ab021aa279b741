"""Run code under one engine, or under both, in this process (TRACEGRADE_CORE).

``tracegrade._engine.compiled_core`` reads the variable at every call, so setting it is
enough to switch; every ``functools`` cache in tracegrade's modules is also emptied at each
switch, so a result one engine computed is never handed to the other (a cache over a rule
that asks for the core would otherwise hide every difference). Under the reference, every
function and class of ``tracegrade._core`` is a tripwire: a call means some module kept the
core from an earlier ``compiled_core()`` (a module-level ``CORE = compiled_core()``), so the
"reference" results would be the core's, and the block fails.
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
def _tripwires(called: list[str]) -> Iterator[None]:
    """Every callable of the core records its name in ``called`` instead of running."""
    originals = {
        name: value
        for name, value in vars(_core).items()
        if callable(value) and not name.startswith("_")
    }

    def tripwire(name: str) -> Callable[..., None]:
        def called_under_the_reference(*args: object, **kwargs: object) -> None:
            called.append(name)
            msg = f"tracegrade._core.{name} was called under {ENGINE_VARIABLE}=python"
            raise AssertionError(msg)

        return called_under_the_reference

    for name in originals:
        setattr(_core, name, tripwire(name))
    try:
        yield
    finally:
        for name, value in originals.items():
            setattr(_core, name, value)


@contextlib.contextmanager
def engine(name: Engine) -> Iterator[None]:
    """Run the block under ``name``; the variable is restored afterwards.

    Raises:
        AssertionError: The engine did not switch, or the core was called under the
            reference (see the module's docstring).
    """
    previous = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = name
    _clear_caches()
    called: list[str] = []
    try:
        selected = compiled_core()
        if selected is not (_core if name == "compiled" else None):
            msg = f"{ENGINE_VARIABLE}={name} did not select the {name} engine"
            raise AssertionError(msg)
        if name == "compiled":
            yield
        else:
            with _tripwires(called):
                yield
    finally:
        if previous is None:
            os.environ.pop(ENGINE_VARIABLE, None)
        else:
            os.environ[ENGINE_VARIABLE] = previous
        _clear_caches()
    if called:
        names = ", ".join(sorted(set(called)))
        msg = (
            f"the reference engine called the compiled core ({names}): a module keeps the core"
            " from an earlier compiled_core(); call compiled_core() where the core is used"
        )
        raise AssertionError(msg)


def both_engines(run: Callable[[], T]) -> tuple[T, T]:
    """``run()`` under the reference, then under the compiled core: ``(reference, compiled)``."""
    with engine("python"):
        reference = run()
    with engine("compiled"):
        compiled = run()
    return reference, compiled
