"""Which engine runs the hot path: the compiled core (default) or the Python reference.

``TRACEGRADE_CORE=python`` selects the Python implementation, the executable specification
of every rule the core ports; unset (or ``compiled``) selects the extension
``tracegrade._core`` (rust/). tests/observations/test_index_engines.py,
test_engines_corpus.py and tests/claims/test_scan_engines.py hold both to the same
results. The extension is imported on first use only, so commands that never search a
trace do not load it.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from typing import TYPE_CHECKING

from tracegrade.errors import InfrastructureError, InputError

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["ENGINE_VARIABLE", "CoreBuildError", "EngineChoiceError", "compiled_core"]

ENGINE_VARIABLE = "TRACEGRADE_CORE"
_ENGINES = ("compiled", "python")
_ENCODED_VARIABLE = os.environ.encodekey(ENGINE_VARIABLE)


class EngineChoiceError(InputError):
    """``TRACEGRADE_CORE`` names no engine (about the environment, never about a file)."""

    def in_file(self, path: str) -> EngineChoiceError:
        """Keep the message free of the file being read when the error surfaced."""
        return self


class CoreBuildError(InfrastructureError):
    """The compiled core is missing or was built for another Python (never about a file)."""

    def in_file(self, path: str) -> CoreBuildError:
        """Keep the message free of the file being read when the error surfaced."""
        return self


def compiled_core() -> ModuleType | None:
    """The compiled core, or ``None`` when ``TRACEGRADE_CORE=python`` selects the reference.

    Raises:
        EngineChoiceError: ``TRACEGRADE_CORE`` names no engine (an InputError: exit 2).
        CoreBuildError: The extension is not built, or was built for another Python (an
            InfrastructureError: exit 3).
    """
    choice = _engine_choice() or "compiled"
    if choice == "python":
        return None
    if choice != "compiled":
        msg = f"{ENGINE_VARIABLE}={choice!r} names no engine"
        raise EngineChoiceError(msg, fix=f"set it to one of {', '.join(_ENGINES)} or unset it")
    return _checked_core()


def _engine_choice() -> str | None:
    """``TRACEGRADE_CORE`` as ``os.environ`` holds it now (it may change at run time)."""
    environ = os.environ
    # CPython's os._Environ keeps the encoded variables in one dict: a lookup there costs a
    # twentieth of os.environ.get on an unset variable (Mapping.get raises and catches
    # KeyError twice), and the core is asked for once per JSON line read.
    data = getattr(environ, "_data", None)
    if type(data) is not dict:
        return environ.get(ENGINE_VARIABLE)
    raw = data.get(_ENCODED_VARIABLE)
    return None if raw is None else environ.decodevalue(raw)


@functools.cache  # asked once per JSON line read: the import and the check are done once
def _checked_core() -> ModuleType:
    """The compiled core, imported and its Unicode version checked (a failure is not kept)."""
    try:
        from tracegrade import _core  # noqa: PLC0415 (loaded only where a trace is searched)
    except ImportError as error:
        msg = f"tracegrade's compiled core (tracegrade._core) is not built ({error})"
        raise CoreBuildError(
            msg,
            fix=(
                "build it with `pip install -e .` (needs cargo, https://rustup.rs) or "
                f"`maturin develop --release`, or set {ENGINE_VARIABLE}=python"
            ),
        ) from error
    # The core lower-cases with tables read off the interpreter it was built for (build.rs).
    if unicodedata.unidata_version != _core.UNICODE_VERSION:
        msg = (
            f"tracegrade's compiled core was built for Unicode {_core.UNICODE_VERSION}, "
            f"this Python has {unicodedata.unidata_version}"
        )
        raise CoreBuildError(msg, fix="rebuild it with `pip install -e .` in this Python")
    return _core
