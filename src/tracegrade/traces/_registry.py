"""Trace readers: each format registers what it can read and how.

A reader says which inputs it recognises from the file name and the first
bytes; :func:`read_traces` asks the readers by priority (highest first, ties in
registration order) and the first match wins. Specific formats have a higher
priority than catch-alls such as the native reader (which accepts any JSON
object). No match is an error naming the input and the known formats.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tracegrade._plugins import load_plugins
from tracegrade.errors import RegistryError, TraceFormatError
from tracegrade.traces._limits import refuse_special_file
from tracegrade.traces._placing import gc_paused

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from tracegrade.redact import Redactor
    from tracegrade.traces._model import Trace

__all__ = ["TraceReader", "read_trace", "read_traces", "reader", "trace_readers"]

SNIFF_BYTES = 4096
"""How many leading bytes a reader sees to decide whether it can read a file."""
_READ_BUFFER = 1 << 16
"""Bytes read at a time from a JSONL file read a line at a time: with the default 8 KB each
few lines of a few KB cost a read of their own (half of iterating them)."""


@dataclass(frozen=True, slots=True)
class TraceReader:
    """A registered trace format.

    Attributes:
        name: The format's name, as given to ``--from``.
        description: One line shown in errors and ``--help``.
        read: Turns a file's bytes (and its name, for errors) into traces.
        can_read: Decides from the file name and its first bytes whether ``read`` applies.
        priority: Readers with a higher priority are asked first; ties keep registration order.
        read_lines: For ``.jsonl`` files: turns the file's lines, read one at a time, into
            traces, so memory stays flat however long the file.
        fallback: A broader check, tried only after every reader's ``can_read`` said no (the
            native reader takes any remaining JSON object, to report what it lacks).
    """

    name: str
    description: str
    read: Callable[[bytes, str], Iterator[Trace]]
    can_read: Callable[[str, bytes], bool]
    priority: int = 0
    read_lines: Callable[[Iterable[bytes], str], Iterator[Trace]] | None = None
    fallback: Callable[[str, bytes], bool] | None = None


_READERS: dict[str, TraceReader] = {}


def reader(
    name: str,
    *,
    description: str,
    can_read: Callable[[str, bytes], bool],
    priority: int = 0,
    read_lines: Callable[[Iterable[bytes], str], Iterator[Trace]] | None = None,
    fallback: Callable[[str, bytes], bool] | None = None,
) -> Callable[[Callable[[bytes, str], Iterator[Trace]]], Callable[[bytes, str], Iterator[Trace]]]:
    """Register a trace reader under ``name``.

    Args:
        name: The format's name; must be unique.
        description: One line describing the inputs it reads.
        can_read: ``(file name, first bytes) -> bool``.
        priority: Higher is asked first (ties in registration order). Give a reader that
            accepts broad inputs a negative priority so specific formats are asked before it.
        read_lines: Streams a ``.jsonl`` file line by line (see :class:`TraceReader`).
        fallback: A broader check tried after every ``can_read`` said no.

    Returns:
        A decorator that registers the read function and returns it unchanged.
    """

    def register(
        read: Callable[[bytes, str], Iterator[Trace]],
    ) -> Callable[[bytes, str], Iterator[Trace]]:
        if name in _READERS:
            raise RegistryError(
                f"a trace reader named {name!r} is already registered",
                fix="choose another name for the new reader",
            )
        _READERS[name] = TraceReader(
            name, description, read, can_read, priority, read_lines, fallback
        )
        return read

    return register


# The built-in formats other than native, imported when first needed: a native trace, whose
# own signature is asked first, never needs them, and importing all of them costs ~50 ms of a
# command's start-up. None of them registers above _LAZY_MAX_PRIORITY.
_LAZY_FORMATS = (
    "_ai_sdk",
    "_anthropic",
    "_atif",
    "_claude_code",
    "_codex",
    "_inspect",
    "_langchain",
    "_mini_swe_agent",
    "_openai",
    "_openhands",
    "_openinference",
    "_otel_genai",
    "_swe_agent",
    "_tau2",
    "_tau_bench",
)
_LAZY_MAX_PRIORITY = 10
_lazy_loaded = False


def _load_lazy_formats() -> None:
    global _lazy_loaded  # noqa: PLW0603 - a process-wide "done once" flag
    if _lazy_loaded:
        return
    _lazy_loaded = True
    for module in _LAZY_FORMATS:
        importlib.import_module(f"tracegrade.traces.{module}")


def trace_readers() -> tuple[TraceReader, ...]:
    """Every registered reader, in the order they are asked."""
    load_plugins()
    _load_lazy_formats()
    return _ordered()


# The readers as last sorted, and their order: each file read asks for the order, and a
# folder of 10,000 traces sorted the readers 10,000 times. Keyed by the readers themselves
# (tests and plugins may change the table directly); comparing them is by identity first.
_last_order: tuple[tuple[TraceReader, ...], tuple[TraceReader, ...]] = ((), ())


def _ordered() -> tuple[TraceReader, ...]:
    global _last_order  # noqa: PLW0603 - replaced whole, read whole
    readers = tuple(_READERS.values())
    kept, ordered = _last_order
    if readers != kept:
        # sorted() is stable, so readers of equal priority keep their registration order.
        ordered = tuple(sorted(readers, key=lambda r: -r.priority))
        _last_order = (readers, ordered)
    return ordered


def asked_first() -> str:
    """The name of the reader asked first whether it reads a file (plugins loaded)."""
    load_plugins()
    ordered = _ordered()
    return ordered[0].name if ordered else ""


def _choose(name: str, file_name: str, head: bytes, format_name: str | None) -> TraceReader:
    load_plugins()
    if format_name is None:
        # Readers asked before every lazily loaded one decide without loading them.
        for candidate in _ordered():
            if candidate.priority <= _LAZY_MAX_PRIORITY:
                break
            if candidate.can_read(file_name, head):
                return candidate
    _load_lazy_formats()
    if format_name is not None:
        try:
            return _READERS[format_name]
        except KeyError:
            known = ", ".join(r.name for r in _ordered())
            raise TraceFormatError(
                f"unknown trace format {format_name!r}", fix=f"use one of: {known}", path=name
            ) from None
    ordered = _ordered()
    for candidate in ordered:
        if candidate.can_read(file_name, head):
            return candidate
    for candidate in ordered:
        if candidate.fallback is not None and candidate.fallback(file_name, head):
            return candidate
    # Short on purpose: the formats, each with what it reads, are `tracegrade formats`.
    what = "the file is empty" if not head.strip() else "no trace reader recognises this file"
    raise TraceFormatError(
        what,
        fix="`tracegrade formats` lists the formats read and what each looks like; pass"
        " --from FORMAT to skip detection",
        path=name,
    )


def detect_format(name: str, head: bytes) -> str:
    """The reader :func:`read_traces` chooses for a file of this name and first bytes.

    Args:
        name: The file's name (its suffix counts).
        head: Its first :data:`SNIFF_BYTES` bytes.

    Raises:
        TraceFormatError: No reader recognises the file (as :func:`read_traces` says).
    """
    return _choose(name, name, head, None).name


def read_traces(
    source: str | Path | bytes,
    *,
    format_name: str | None = None,
    redactor: Redactor | None = None,
) -> Iterator[Trace]:
    """Read every trace in a file (or in bytes already read), its secrets redacted.

    Every trace a reader returns passes through :func:`tracegrade.redact.redact_trace`
    before it is yielded: API keys, tokens, passwords and credential headers become
    ``[REDACTED:kind]`` and each replacement is listed in ``metadata["redactions"]``.

    Args:
        source: A path, or the bytes of a file (named ``<bytes>`` in errors).
        format_name: Skip detection and use this reader.
        redactor: The redaction rules (a project's ``Project.redactor`` adds its own
            patterns); default the packaged rules.

    Yields:
        Each trace, in file order.

    Raises:
        TraceFormatError: The file cannot be read, no reader recognises it, or it
            breaks its format; the message names the file (and the frame).
    """
    if isinstance(source, bytes):
        chosen = _choose("<bytes>", "", source[:SNIFF_BYTES], format_name)
        yield from _traces(chosen, lambda: chosen.read(source, "<bytes>"), "<bytes>", redactor)
        return
    name = str(source)
    try:
        refuse_special_file(Path(source), name)
        with Path(source).open("rb") as file:
            head = file.read(SNIFF_BYTES)
            chosen = _choose(name, name, head, format_name)
            read_lines = chosen.read_lines
            if read_lines is not None and name.lower().endswith(".jsonl"):
                # Opened again, with a buffer for reading a line at a time (_READ_BUFFER); a
                # whole document is read below at once, which a bigger buffer slows.
                with Path(source).open("rb", buffering=_READ_BUFFER) as lines:
                    yield from _traces(chosen, lambda: read_lines(lines, name), name, redactor)
                return
            # Read from the start again rather than joining the head on: that copied the
            # whole file once more (a sixth of reading a 50 MB span export).
            data = file.read() if file.seekable() and file.seek(0) == 0 else head + file.read()
    except OSError as exc:
        raise TraceFormatError(
            f"cannot read the file ({exc.strerror or exc})",
            fix="check that the path exists and is readable",
            path=name,
        ) from exc
    yield from _traces(chosen, lambda: chosen.read(data, name), name, redactor)


def _traces(
    chosen: TraceReader,
    read: Callable[[], Iterator[Trace]],
    name: str,
    redactor: Redactor | None,
) -> Iterator[Trace]:
    """Run a reader: each trace marked with its format and redacted, each error with the file.

    The reader runs with the collector paused, a trace at a time (see ``gc_paused``); the
    caller's code between two traces runs with it on. Reading every trace in one pause
    instead was slower: holding them all until the end costs more than the pauses save.
    """
    try:
        traces = read()
        while True:
            with gc_paused():
                trace = next(traces, None)
            if trace is None:
                return
            yield _redacted(_marked(trace, chosen), redactor)
    except TraceFormatError as exc:
        exc.in_file(name)
        raise


def _marked(trace: Trace, chosen: TraceReader) -> Trace:
    if trace.source_format == chosen.name:
        return trace
    if chosen.name == "native" and trace.source_format:
        # A converted trace (schema_version 2) keeps the format it was read from, so it is
        # graded exactly as its source was (strict decoding is the native default).
        return trace
    return trace.model_copy(update={"source_format": chosen.name})


_DEFAULT_REDACTOR: list[Redactor] = []  # the packaged rules, built once (not per trace)


def default_redactor() -> Redactor:
    """The packaged redaction rules, which :func:`read_traces` applies by default."""
    # Imported here: tracegrade.redact reads the frame model, whose package imports this one.
    from tracegrade.redact import Redactor  # noqa: PLC0415

    if not _DEFAULT_REDACTOR:
        _DEFAULT_REDACTOR.append(Redactor())
    return _DEFAULT_REDACTOR[0]


def _redacted(trace: Trace, redactor: Redactor | None) -> Trace:
    from tracegrade.redact import redact_trace  # noqa: PLC0415 - see default_redactor

    return redact_trace(trace, default_redactor() if redactor is None else redactor)


def read_trace(
    source: str | Path | bytes,
    *,
    format_name: str | None = None,
    redactor: Redactor | None = None,
) -> Trace:
    """Read a file that holds exactly one trace (its secrets redacted, as :func:`read_traces`).

    Raises:
        TraceFormatError: As :func:`read_traces`, or when the file holds no trace or several.
    """
    traces = list(read_traces(source, format_name=format_name, redactor=redactor))
    if len(traces) != 1:
        name = "<bytes>" if isinstance(source, bytes) else str(source)
        raise TraceFormatError(
            f"expected one trace, found {len(traces)}",
            fix="use read_traces() for files that hold several runs",
            path=name,
        )
    return traces[0]
