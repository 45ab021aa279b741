"""Declarative decoders: a user's tool decoded from a TOML table, without writing Python.

In a suite or question file::

    [decoders.search_knowledge]
    kind = "excerpt"          # excerpt | line | path | text
    items = "results[*]"      # where the items are in the result (a path, see below)
    id = "id"                 # excerpt: the item's id
    source = "title"          # excerpt / text: where it comes from (a source name)
    text = "excerpt"          # excerpt / line / text: what the model saw

Field values are paths (``key``, ``a.b``, ``rows[0]``, ``items[*].name``), read inside each
item (or the whole result for ``text``). A result that is a JSON string (chat formats send
tool output as text) is parsed first. A result the table does not fit is not decoded by it:
the next decoder is tried, and in lenient mode the result is read as plain text, said so.

| kind | yields | fields |
|---|---|---|
| excerpt | a line per item: source, rank, text, and the item's id | items, id, source, text |
| line | a line per item | items, file, line (optional: the rank), text |
| path | a name per item | items, file (optional when items are strings) |
| text | the text, split into lines | text (optional: the whole result), source (optional) |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

from tracegrade._paths import ArgPath, PathSyntaxError
from tracegrade.observations._model import Document, Lines, Names
from tracegrade.observations._registry import Decoder

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations._model import Source

__all__ = ["DeclaredDecoder", "declared_decoders"]

DeclaredKind = Literal["excerpt", "line", "path", "text"]
_Path = Annotated[StrictStr, Field(min_length=1)]
_NEEDS: dict[str, tuple[str, ...]] = {
    "excerpt": ("items", "id", "source", "text"),
    "line": ("items", "file", "text"),
    "path": ("items",),
    "text": (),
}


class DeclaredDecoder(BaseModel):
    """One ``[decoders.TOOL]`` table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: DeclaredKind
    items: _Path | None = None
    id: _Path | None = None
    source: _Path | None = None
    file: _Path | None = None
    line: _Path | None = None
    text: _Path | None = None

    @model_validator(mode="after")
    def _fields_for_kind(self) -> DeclaredDecoder:
        missing = [name for name in _NEEDS[self.kind] if getattr(self, name) is None]
        if missing:
            msg = f"kind {self.kind!r} needs {', '.join(repr(name) for name in missing)}"
            raise ValueError(msg)
        for name in ("items", "id", "source", "file", "line", "text"):
            value = getattr(self, name)
            if value is not None:
                try:
                    ArgPath.parse(value)
                except PathSyntaxError as exc:
                    raise ValueError(f"{name}: {exc}") from exc
        return self

    def decoder(self, tool: str) -> Decoder:
        """The decoder this table describes, limited to ``tool``."""
        return Decoder(
            f"declared:{tool}", _Decode(self, tool), (tool,), f"[decoders.{tool}] {self.kind}"
        )


def _first(value: object, path: str | None) -> object:
    if path is None:
        return None
    return next((found for _, found in ArgPath.parse(path).select(value)), None)


def _items(result: object, path: str) -> list[object]:
    """The values a path selects, whole (objects stay objects, unlike ``ArgPath.select``)."""
    found: list[object] = []
    _collect(result, ArgPath.parse(path).steps, found)
    return found


def _collect(value: object, steps: tuple[str | int, ...], found: list[object]) -> None:
    if not steps:
        found.append(value)
        return
    step, rest = steps[0], steps[1:]
    if isinstance(step, str):
        if isinstance(value, dict):
            if step == "*":
                for item in value.values():
                    _collect(item, rest, found)
            elif step in value:
                _collect(value[step], rest, found)
    elif isinstance(value, list):
        if step == -1:
            for item in value:
                _collect(item, rest, found)
        elif step < len(value):
            _collect(value[step], rest, found)


class _Decode:
    """The callable behind a declared decoder."""

    __slots__ = ("spec", "tool")

    def __init__(self, spec: DeclaredDecoder, tool: str) -> None:
        self.spec = spec
        self.tool = tool

    def __call__(self, result: object, /) -> Sequence[Source] | None:
        if isinstance(result, str) and (self.spec.kind != "text" or self.spec.text is not None):
            try:
                result = orjson.loads(result)
            except orjson.JSONDecodeError:
                return None
        if self.spec.kind == "text":
            return self._text(result)
        items = _items(result, self.spec.items or "")
        return self._names(items) if self.spec.kind == "path" else self._lines(items)

    def _text(self, result: object) -> Sequence[Source] | None:
        spec = self.spec
        text = result if spec.text is None else _first(result, spec.text)
        if not isinstance(text, str):
            return None
        source = _first(result, spec.source)
        return [Document(source if isinstance(source, str) else self.tool, text)]

    def _names(self, items: list[object]) -> Sequence[Source] | None:
        names = [item if self.spec.file is None else _first(item, self.spec.file) for item in items]
        if not all(isinstance(name, str) for name in names):
            return None
        return [Names(tuple(names))]  # type: ignore[arg-type]  # checked above

    def _lines(self, items: list[object]) -> Sequence[Source] | None:
        spec = self.spec
        excerpt = spec.kind == "excerpt"
        files: list[str] = []
        numbers: list[int | float] = []
        texts: list[str] = []
        refs: list[str | None] = []
        for rank, item in enumerate(items, start=1):
            file = _first(item, spec.source if excerpt else spec.file)
            text = _first(item, spec.text)
            line = _first(item, spec.line) if spec.line else rank
            number_ok = isinstance(line, int | float) and not isinstance(line, bool)
            if not (isinstance(file, str) and isinstance(text, str) and number_ok):
                return None
            files.append(file)
            numbers.append(line)  # type: ignore[arg-type]  # checked above
            texts.append(text)
            ref = _first(item, spec.id) if excerpt else None
            refs.append(None if ref is None else str(ref))
        return [Lines(tuple(files), tuple(numbers), tuple(texts), tuple(refs) if excerpt else None)]


def declared_decoders(tables: dict[str, DeclaredDecoder]) -> tuple[Decoder, ...]:
    """The decoders of a file's ``[decoders.*]`` tables, one per tool."""
    return tuple(spec.decoder(tool) for tool, spec in tables.items())
