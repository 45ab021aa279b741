"""A regular expression compiled on first use, so importing its module costs nothing.

Compiling the large patterns (the figure shapes, the claim scanners) takes milliseconds
each; at module level every command pays for them at start-up, including the commands
that never run them. A module-level ``LazyPattern`` reads like the ``re.Pattern`` it
stands for (``_HEDGE.search(text)``) and compiles on its first call. A hot loop can take
the compiled pattern once with :attr:`LazyPattern.compiled`.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["LazyPattern"]

_END = sys.maxsize  # re's own default for endpos


class LazyPattern:
    """``re.compile(pattern, flags)``, done on the first match, search or substitution."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        """Keep the pattern; nothing is compiled (or checked) until it is first used."""
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if this is its first use)."""
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    @property
    def is_compiled(self) -> bool:
        """Whether it has been compiled (tests/cli/test_startup.py checks what a command uses)."""
        return self._compiled is not None

    @property
    def pattern(self) -> str:
        """The pattern's source text."""
        return self._pattern

    @property
    def flags(self) -> int:
        """The flags it is compiled with (as given; ``re`` adds ``re.UNICODE`` to its own)."""
        return self._flags

    def search(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """As :meth:`re.Pattern.search`."""
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """As :meth:`re.Pattern.match`."""
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        """As :meth:`re.Pattern.fullmatch`."""
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        """As :meth:`re.Pattern.finditer`."""
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """As :meth:`re.Pattern.sub`."""
        return self.compiled.sub(repl, string, count)

    def __repr__(self) -> str:
        """As the compiled pattern's, marked lazy."""
        return f"LazyPattern({self._pattern!r}, {self._flags!r})"
