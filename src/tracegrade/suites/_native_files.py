"""A native trace file graded by the compiled core in one call, straight from its bytes.

``tracegrade grade DIR``, a suite's cases and ``tracegrade grade TRACE --question-file``
try this first: for a native file the core covers, the grade is the one reading the file
(secrets redacted) and grading its run gives, without a Python object per frame. Anything
else (another format, a file that cannot be read, a trace the core leaves to the reference)
answers ``None`` and goes the usual way, which also gives every error.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from tracegrade.errors import TracegradeError
from tracegrade.traces import default_redactor, detect_format
from tracegrade.traces._registry import SNIFF_BYTES
from tracegrade.verdicts import compiled_grade

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.claims import Question
    from tracegrade.observations import Decoder
    from tracegrade.verdicts import Grade

__all__ = ["core_may_grade", "graded_by_core"]


def core_may_grade(
    format_name: str | None, *, strict: bool | None, decoders: Sequence[Decoder] = ()
) -> bool:
    """Whether a file read this way may be graded by the core.

    It may when the file is native or its format is to be detected, the strictness is the
    default and no decoder is declared (the core decodes the built-in shapes only).
    """
    return format_name in (None, "native") and strict is not False and not decoders


def graded_by_core(name: str, question: Question | None = None, *, auto: bool) -> Grade | None:
    """The core's grade of the native trace file ``name``; ``None``: read it as usual.

    Args:
        name: The file's path.
        question: The question to grade against; ``None``: the answer's claims alone.
        auto: Also extract the answer's claims (see :func:`~tracegrade.verdicts.grade`).
    """
    if not name.lower().endswith(".json"):
        return None
    data = regular_file_bytes(name)
    if data is None:
        return None
    try:
        if detect_format(name, data[:SNIFF_BYTES]) != "native":
            return None
    except TracegradeError:
        return None
    return compiled_grade(data, question, auto=auto, redactor=default_redactor())


# Opened without waiting for a writer: a file replaced by a FIFO after its stat reads empty.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def regular_file_bytes(name: str) -> bytes | None:
    """The bytes of a regular file; ``None`` for anything else, or when it cannot be read.

    ``None`` leaves the file to :func:`~tracegrade.traces.read_traces`, which refuses a FIFO,
    socket, device or folder (``refuse_special_file``) and names every other problem itself.
    Anything but a regular file is never opened here: opening a device may act on it.
    """
    try:
        info = os.stat(name)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    try:
        handle = os.open(name, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        # The whole file in one read of one byte more than its size: a regular file reads
        # short only at its end, so a short read is the whole file (a file that has grown
        # since its stat is read on to its new end). A file cut short by some odd file
        # system is left to the usual reading when its bytes do not parse.
        data = os.read(handle, info.st_size + 1)
        if len(data) > info.st_size:
            while more := os.read(handle, 1 << 20):
                data += more
    except OSError:
        return None
    finally:
        os.close(handle)
    return data
