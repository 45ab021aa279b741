"""A native trace file graded by the compiled core in one call, straight from its bytes.

``tracegrade grade DIR``, a suite's cases and ``tracegrade grade TRACE --question-file``
try this first: for a native file the core covers, the grade is the one reading the file
(secrets redacted) and grading its run gives, without a Python object per frame; the core
reads the file too (rust/src/native/file.rs). Anything else (another format, a file that
cannot be read, a trace the core leaves to the reference) answers ``None`` and goes the
usual way, which also gives every error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade.traces import default_redactor
from tracegrade.traces._registry import asked_first
from tracegrade.verdicts._native import compiled_grade_file

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

    The core reads the file itself when it is a regular file whose first bytes surely hold a
    native trace and no reader is asked before the native one (a plugin's may be); any other
    file is read and detected as usual.

    Args:
        name: The file's path.
        question: The question to grade against; ``None``: the answer's claims alone.
        auto: Also extract the answer's claims (see :func:`~tracegrade.verdicts.grade`).
    """
    if not name.lower().endswith(".json") or asked_first() != "native":
        return None
    taken, graded = compiled_grade_file(name, question, auto=auto, redactor=default_redactor())
    return graded if taken else None
