"""The decoder registry: how each tool's results become observations.

Decoders are tried in order and the first that recognises a result decides.
A decoder returns ``None`` for "not my shape", or the sources it found (an
empty list means "recognised, nothing to observe", as for a file write).
Decoders limited to named tools are tried before the general ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tracegrade._plugins import load_plugins
from tracegrade.errors import RegistryError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tracegrade.observations._model import Source

__all__ = [
    "Decoder",
    "DecoderFunction",
    "decoder",
    "decoders",
    "decoders_for",
    "unregister_decoder",
]


class DecoderFunction(Protocol):
    """Turns one successful tool result into sources, or ``None`` when the shape is not its own."""

    def __call__(self, result: object, /) -> Sequence[Source] | None: ...


@dataclass(frozen=True, slots=True)
class Decoder:
    """A registered decoder.

    Attributes:
        name: Unique name, shown in errors and reports.
        decode: The function.
        tools: The tools it applies to; empty means any tool.
        description: One line on the shape it reads.
    """

    name: str
    decode: DecoderFunction
    tools: tuple[str, ...]
    description: str


_DECODERS: dict[str, Decoder] = {}
_BY_TOOL: dict[str, tuple[Decoder, ...]] = {}  # decoders_for() answers; cleared on any change
_BUILT_IN: tuple[Decoder, ...] = ()  # the seven shapes of _decoders.py, as registered


def decoder(
    name: str, *, tools: Sequence[str] = (), description: str = ""
) -> Callable[[DecoderFunction], DecoderFunction]:
    """Register a decoder for tool results.

    Example:
        >>> from tracegrade.observations import Document, decoder
        >>> @decoder("ticket", tools=["get_ticket"], description="{ok, ticket: {key, body}}")
        ... def decode_ticket(result):
        ...     if isinstance(result, dict) and isinstance(result.get("ticket"), dict):
        ...         ticket = result["ticket"]
        ...         return [Document(ticket["key"], ticket["body"])]
        ...     return None

    Args:
        name: Unique decoder name.
        tools: Tool names this decoder is limited to (tried before general decoders).
        description: The result shape it reads, for error messages.

    Returns:
        A decorator that registers the function and returns it unchanged.
    """

    def register(function: DecoderFunction) -> DecoderFunction:
        if name in _DECODERS:
            raise RegistryError(
                f"a decoder named {name!r} is already registered",
                fix="choose another name, or unregister the old one first",
            )
        _DECODERS[name] = Decoder(name, function, tuple(tools), description or name)
        _BY_TOOL.clear()
        return function

    return register


def unregister_decoder(name: str) -> None:
    """Remove a decoder (for tests and plugins that replace a built-in)."""
    _DECODERS.pop(name, None)
    _BY_TOOL.clear()


def mark_built_in() -> None:
    """Remember the decoders registered so far as the built-in ones (``_decoders.py`` calls it)."""
    global _BUILT_IN  # noqa: PLW0603 - set once, when the built-in shapes are registered
    _BUILT_IN = tuple(_DECODERS.values())


def only_built_in_decoders() -> bool:
    """Whether the registry holds the built-in decoders and no other (no plugin's, no user's).

    The compiled core decodes the built-in shapes only (rust/src/native).
    """
    return decoders() == _BUILT_IN


def decoders() -> tuple[Decoder, ...]:
    """Every registered decoder, in registration order."""
    load_plugins()
    return tuple(_DECODERS.values())


def decoders_for(tool: str) -> tuple[Decoder, ...]:
    """The decoders tried for ``tool``'s results: its own first, then the general ones."""
    found = _BY_TOOL.get(tool)
    if found is None:
        load_plugins()
        own = tuple(d for d in _DECODERS.values() if tool in d.tools)
        general = tuple(d for d in _DECODERS.values() if not d.tools)
        found = _BY_TOOL[tool] = own + general
    return found
