"""grade_native(): a native trace graded from its bytes, in one call of the compiled core.

The core (rust/src/native) parses, validates, decodes and grades the trace without making a
Python object per frame or observation, then builds the :class:`Grade` once, as
``model_construct`` would (its values are right by construction; rust/src/py_models.rs). For a
trace the core does not cover (another schema version, a result only a user decoder reads,
anything the reference refuses), it answers ``None`` and the Python pipeline grades it, or
raises its own error with its own message: both engines give the same grade
(tests/engines).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from tracegrade._engine import CoreBuildError, compiled_core
from tracegrade.figures._find import compiled_extractor
from tracegrade.observations import only_built_in_decoders
from tracegrade.traces import parse_native_trace
from tracegrade.verdicts._grade import NO_QUESTION, grade
from tracegrade.verdicts._model import (
    Grade,
    GradedAnswerClaim,
    GradedClaim,
    GradedFigure,
    Sighting,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from tracegrade._core import NativeGrader, NativeQuestion, RedactionPatterns
    from tracegrade.claims import Question
    from tracegrade.redact import Redactor

__all__ = [
    "compiled_grade",
    "compiled_grade_file",
    "grade_native",
    "native_grader",
    "prepared_question",
    "redaction_patterns",
]


def compiled_grade(
    data: bytes,
    question: Question | None = None,
    *,
    auto: bool = False,
    redactor: Redactor | None = None,
) -> Grade | None:
    """The compiled core's grade of a native trace's bytes; ``None`` when it leaves it.

    The grade is :func:`grade_native`'s; ``None`` when the core is not selected
    (``TRACEGRADE_CORE=python``), a plugin's decoder is registered, or the core does not
    cover the trace, or (with ``redactor``) redaction would change the trace.
    """
    ready = _ready(question, redactor)
    if ready is None:
        return None
    grader, prepared, patterns = ready
    # With patterns, None also when one of the rules could change a text of the trace.
    answer = grader.grade(data, prepared, auto or question is None, patterns)
    return _unless_a_credential(answer, redactor)


def compiled_grade_file(
    path: str,
    question: Question | None = None,
    *,
    auto: bool = False,
    redactor: Redactor | None = None,
) -> tuple[bool, Grade | None]:
    """:func:`compiled_grade` of the native trace file ``path``, read by the core.

    Returns:
        ``(False, None)`` when the core did not read the file: not a regular file, or not
        surely native by its first bytes (read and detect it as usual); else ``(True, the
        grade)``, the grade ``None`` where :func:`compiled_grade` gives ``None``, without
        reading the file when the reference grades every trace (the core is not selected,
        or a plugin's decoder is registered).
    """
    ready = _ready(question, redactor)
    if ready is None:
        return True, None
    grader, prepared, patterns = ready
    taken, answer = grader.grade_file(path, prepared, auto or question is None, patterns)
    return taken, _unless_a_credential(answer, redactor)


def _ready(
    question: Question | None, redactor: Redactor | None
) -> tuple[NativeGrader, NativeQuestion, RedactionPatterns | None] | None:
    """The core's grader, the question prepared and the redactor's rules.

    ``None`` when the reference grades: the core is not selected, or a plugin's decoder is
    registered.
    """
    core = compiled_core()
    if core is None or not only_built_in_decoders():
        return None
    grader = native_grader(core)
    prepared = prepared_question(grader, NO_QUESTION if question is None else question)
    patterns = None if redactor is None else redaction_patterns(core, redactor)
    return grader, prepared, patterns


def _unless_a_credential(
    answer: tuple[Grade, list[str]] | None, redactor: Redactor | None
) -> Grade | None:
    """The core's grade, unless a key of the trace names a credential (or it gave none)."""
    if answer is None:
        return None
    graded, keys = answer
    if redactor is not None and keys and redactor.names_a_credential(keys):
        return None  # a key's whole value would be redacted: the reference does it
    return graded


# The last question prepared, with its grader, replaced whole (read whole by a thread): a
# suite grades many traces against each question. Questions are frozen, and told by
# identity: their hash walks every fact.
_last_prepared: list[tuple[Question, NativeGrader, NativeQuestion]] = []


def prepared_question(grader: NativeGrader, question: Question) -> NativeQuestion:
    """``question`` as ``grader`` grades with it, kept for the last question asked.

    Its facts' searched forms and the figures they are, made once for every trace.
    """
    if _last_prepared:
        kept, kept_grader, prepared = _last_prepared[0]
        if kept is question and kept_grader is grader:
            return prepared
    facts = [(fact.id, fact.text) for fact in question.facts]
    prepared = grader.question(question.id, facts, question.truth_file, question.tell)
    _last_prepared[:] = [(question, grader, prepared)]
    return prepared


@functools.lru_cache(maxsize=8)  # once per redactor: a run grades with one
def redaction_patterns(core: ModuleType, redactor: Redactor) -> RedactionPatterns:
    """The redactor's rules compiled by the core, to tell whether they change a trace."""
    # Redaction is loaded by what reads a file, not by importing the grader (start-up).
    from tracegrade.redact._rules import NAME_PARTS, NOT_VALUES  # noqa: PLC0415

    rules = [
        (
            rule.kind,
            rule.pattern.pattern,
            rule.pattern.flags,
            rule.fold,
            list(rule.triggers),
            rule.group,
            _accept_name(rule.accept),
            None if rule.beside is None else (rule.beside.pattern, rule.beside.flags),
            rule.bounded,
            rule.after,
        )
        for rule in redactor.rules
    ]
    # Only keys holding a part of a credential's name can name one, unless names are added.
    parts = None if redactor.names else list(NAME_PARTS)
    patterns: RedactionPatterns = core.RedactionPatterns(rules, sorted(NOT_VALUES), parts)
    return patterns


def _accept_name(accept: Callable[[str], bool] | None) -> str | None:
    """The name the core knows a packaged ``accept`` test by; ``"unknown"``: it accepts all."""
    from tracegrade.redact._rules import ACCEPT_NAMES  # noqa: PLC0415 - see redaction_patterns

    if accept is None:
        return None
    return next((name for test, name in ACCEPT_NAMES.items() if test is accept), "unknown")


@functools.cache  # once per core: built from the reference's patterns and word lists
def native_grader(core: ModuleType) -> NativeGrader:
    """The core's grader of native traces: the figure extractor, claim scanner and models.

    Raises:
        CoreBuildError: The core was built for other `Grade` models (the message says which).
    """
    # The scanners' word lists are loaded here, not at import: most commands never grade.
    from tracegrade.claims._scan_core import compiled_scanner  # noqa: PLC0415

    extractor, scanner = compiled_extractor(), compiled_scanner()
    if extractor is None or scanner is None:  # never: the core is selected
        msg = f"the compiled core {core.__name__} gave no figure extractor or claim scanner"
        raise CoreBuildError(msg, fix="rebuild it with `pip install -e .`")
    models = (Grade, GradedClaim, Sighting, GradedFigure, GradedAnswerClaim)
    try:
        grader: NativeGrader = core.NativeGrader(extractor, scanner, models)
    except TypeError as exc:
        raise CoreBuildError(str(exc), fix="rebuild it with `pip install -e .`") from exc
    return grader


def grade_native(
    data: bytes,
    question: Question | None = None,
    *,
    name: str = "<bytes>",
    auto: bool = False,
    strict: bool | None = None,
    redactor: Redactor | None = None,
) -> Grade:
    """Grade the bytes of one native trace, as ``grade(parse_native_trace(data, name), ...)``.

    Args:
        data: The trace file's bytes.
        question: As for :func:`~tracegrade.verdicts.grade` (``None``: no question file).
        name: The file's name, for error messages.
        auto: As for :func:`~tracegrade.verdicts.grade`.
        strict: As for :func:`~tracegrade.verdicts.grade`; the core covers strict grading
            (the default for native traces) with the built-in decoders only.
        redactor: Grade the trace with its secrets redacted by these rules, as
            :func:`~tracegrade.traces.read_traces` gives it; ``None``: as written.

    Raises:
        TraceFormatError: The bytes are not a valid native trace.
        UnreadableResultError: A tool result could not be decoded.
    """
    if strict is not False:
        graded = compiled_grade(data, question, auto=auto, redactor=redactor)
        if graded is not None:
            return graded
    trace = parse_native_trace(data, name)
    if redactor is not None:
        from tracegrade.redact import redact_trace  # noqa: PLC0415 - see redaction_patterns

        trace = redact_trace(trace, redactor)
    return grade(trace, question, auto=auto, strict=strict)
