"""The seven built-in result shapes, registered in the order they are tried.

The order decides: a result with both ``matches`` and ``files`` is a search.
Every shape needs a JSON object whose own ``ok`` is exactly ``true``; extra keys
never stop a match and field types are checked strictly (a JSON boolean is not
a number, the string ``"7"`` is not a line number).
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING, Any

from tracegrade.observations._model import Document, Lines, Names, Ranked
from tracegrade.observations._registry import decoder, mark_built_in

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.observations._model import Source

__all__: list[str] = []


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# Whole-list type checks run in C (map, set) rather than one Python test per entry: a search
# result can hold hundreds of matches. Subclasses (rare: orjson makes exact types) fall back.
def _all_of(values: list[Any], kind: type) -> bool:
    return set(map(type, values)) <= {kind} or all(isinstance(value, kind) for value in values)


def _all_numbers(values: list[Any]) -> bool:
    kinds = set(map(type, values))
    return kinds <= {int, float} or (
        bool not in kinds and all(isinstance(value, int | float) for value in values)
    )


def _ok_object(result: object) -> dict[str, Any] | None:
    if isinstance(result, dict) and result.get("ok") is True:
        return result
    return None


@decoder("search", description="{ok: true, matches: [{file, line, text}]} (search_files)")
def decode_search(result: object) -> Sequence[Source] | None:
    """One line per match, in order."""
    body = _ok_object(result)
    if body is None:
        return None
    matches = body.get("matches")
    if not isinstance(matches, list) or not _all_of(matches, dict):
        return None
    files = list(map(dict.get, matches, repeat("file")))
    numbers = list(map(dict.get, matches, repeat("line")))
    texts = list(map(dict.get, matches, repeat("text")))
    if _all_of(files, str) and _all_numbers(numbers) and _all_of(texts, str):
        return [Lines(tuple(files), tuple(numbers), tuple(texts))]  # type: ignore[arg-type]  # checked above
    return None


@decoder("listing", description="{ok: true, files: [string]} (list_files)")
def decode_listing(result: object) -> Sequence[Source] | None:
    """One path per entry, in order."""
    body = _ok_object(result)
    if body is None:
        return None
    files = body.get("files")
    if not isinstance(files, list) or not _all_of(files, str):
        return None
    return [Names(tuple(files))]


@decoder("read", description="{ok: true, file, lines: number, content} (read_file)")
def decode_read(result: object) -> Sequence[Source] | None:
    """The content split into lines numbered from 1; the ``lines`` field is not trusted."""
    body = _ok_object(result)
    if body is None:
        return None
    file, lines, content = body.get("file"), body.get("lines"), body.get("content")
    if isinstance(file, str) and _is_number(lines) and isinstance(content, str):
        return [Document(file, content)]
    return None


@decoder("web_search", description="{ok: true, results: [{title, url, snippet}]} (web_search)")
def decode_web_search(result: object) -> Sequence[Source] | None:
    """Per result: its URL as a name, then its snippet as a line numbered by rank."""
    body = _ok_object(result)
    if body is None:
        return None
    results = body.get("results")
    if not isinstance(results, list) or not _all_of(results, dict):
        return None
    titles = list(map(dict.get, results, repeat("title")))
    urls = list(map(dict.get, results, repeat("url")))
    snippets = list(map(dict.get, results, repeat("snippet")))
    if _all_of(titles, str) and _all_of(urls, str) and _all_of(snippets, str):
        return [Ranked(tuple(urls), tuple(snippets))]  # type: ignore[arg-type]  # checked above
    return None


@decoder("fetched_page", description="{ok: true, url, title, chars: number, content} (fetch_page)")
def decode_fetched_page(result: object) -> Sequence[Source] | None:
    """The page content split into lines, the URL as their source."""
    body = _ok_object(result)
    if body is None:
        return None
    url, title, chars = body.get("url"), body.get("title"), body.get("chars")
    content = body.get("content")
    if (
        isinstance(url, str)
        and isinstance(title, str)
        and _is_number(chars)
        and isinstance(content, str)
    ):
        return [Document(url, content)]
    return None


@decoder("command", description="{ok: true, command, stdout, stderr} (run_command)")
def decode_command(result: object) -> Sequence[Source] | None:
    """Stdout then stderr, each a source named after the command; empty streams are skipped."""
    body = _ok_object(result)
    if body is None:
        return None
    command, stdout, stderr = body.get("command"), body.get("stdout"), body.get("stderr")
    if not (isinstance(command, str) and isinstance(stdout, str) and isinstance(stderr, str)):
        return None
    sources: list[Source] = []
    if stdout != "":
        sources.append(Document(f"$ {command}", stdout))
    if stderr != "":
        sources.append(Document(f"$ {command} [stderr]", stderr))
    return sources


@decoder(
    "mutation",
    description="{ok: true, file, bytes: number, created: boolean} (write_file, edit_file)",
)
def decode_mutation(result: object) -> Sequence[Source] | None:
    """Recognised, nothing observed: a write says a file changed, not what it says."""
    body = _ok_object(result)
    if body is None:
        return None
    file, size, created = body.get("file"), body.get("bytes"), body.get("created")
    if isinstance(file, str) and _is_number(size) and isinstance(created, bool):
        return []
    return None


mark_built_in()
