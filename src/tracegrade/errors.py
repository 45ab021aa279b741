"""The one error tree of tracegrade.

Every error names where the problem is (file, frame, tool, case) and says how
to fix it. Each leaf also subclasses the builtin a caller would naturally
catch, so ``except ValueError`` keeps working around tracegrade calls.

Tree::

    TracegradeError                       exit code 3 unless a subclass says otherwise
    ├── InputError (ValueError)           bad input or usage: exit code 2
    │   ├── TraceFormatError              a trace file is not valid JSON or breaks the frame schema
    │   ├── UnreadableResultError         a tool result no decoder recognises, or an orphan result
    │   ├── ArtifactError                 a tool artifact breaks the grounding contract's schema
    │   ├── PolicyError                   a guard policy file is invalid
    │   ├── ProjectError                  a project file (tracegrade.toml) or @touchpoint is invalid
    │   ├── SuiteError                    a suite or question file is invalid
    │   │   └── UnknownQuestionError (KeyError)  a case names an undefined question
    │   ├── RegistryError                 a plugin registration is invalid (duplicate name)
    │   ├── MissingExtraError (ImportError)  a command needs an extra that is not installed
    │   ├── JudgeOutputError              a judge's reply is not the JSON its rubric asks for
    │   └── JudgeProviderError            a judge's provider refused (auth, bad request, no SDK)
    └── InfrastructureError (RuntimeError)  something outside the input failed: exit code 3

Pure stages raise without knowing the file; the edge that read the file adds it
with :meth:`TracegradeError.in_file` before re-raising.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "ArtifactError",
    "InfrastructureError",
    "InputError",
    "JudgeOutputError",
    "JudgeProviderError",
    "MissingExtraError",
    "PolicyError",
    "ProjectError",
    "RegistryError",
    "SuiteError",
    "TraceFormatError",
    "TracegradeError",
    "UnknownQuestionError",
    "UnreadableResultError",
]


class TracegradeError(Exception):
    """Base of every error tracegrade raises on purpose.

    Attributes:
        path: The file the error is about, once an edge has added it.
        frame: The 0-based frame index, when the error is about one frame.
        tool: The tool name, when the error is about one tool call or result.
        case: The suite case (its run name), when the error is about one case.
        fix: One sentence on how to fix the input.
    """

    exit_code: ClassVar[int] = 3

    def __init__(
        self,
        what: str,
        *,
        fix: str = "",
        path: str | None = None,
        frame: int | None = None,
        tool: str | None = None,
        case: str | None = None,
    ) -> None:
        super().__init__(what)
        self.what = what
        self.fix = fix
        self.path = path
        self.frame = frame
        self.tool = tool
        self.case = case

    def in_file(self, path: str) -> TracegradeError:
        """Record the file this error is about (kept if one is already set) and return self."""
        if self.path is None:
            self.path = path
        return self

    def __str__(self) -> str:
        where = []
        if self.path is not None:
            where.append(self.path)
        if self.case is not None:
            where.append(f"case {self.case}")
        if self.frame is not None:
            where.append(f"frame {self.frame}")
        if self.tool is not None:
            where.append(f"tool {self.tool!r}")
        message = f"{': '.join(where)}: {self.what}" if where else self.what
        if not self.fix:
            return message
        return f"{message}. {self.fix[0].upper()}{self.fix[1:]}"


class InputError(TracegradeError, ValueError):
    """The input (a file, an argument) is invalid; nothing was graded or written."""

    exit_code: ClassVar[int] = 2


class TraceFormatError(InputError):
    """A trace file is not valid JSON or does not follow the frame schema."""


class UnreadableResultError(InputError):
    """A tool result matches no registered decoder, or answers a call that was never made.

    It is never turned into zero observations: a grade over unread evidence
    would be silently wrong.
    """


class ArtifactError(InputError):
    """A tool artifact is invalid; the message names the tool call.

    Empty or repeated result ids, a served range outside the document, keys the contract
    does not allow.
    """


class PolicyError(InputError):
    """A guard policy file is invalid (unknown key, bad path syntax, wrong type)."""


class ProjectError(InputError):
    """A project file (``tracegrade.toml``) or a ``@touchpoint`` declaration is invalid.

    The message names the file (or the Python function), the touchpoint and the field.
    It is bad input: exit code 2.

    Attributes:
        touchpoint: The touchpoint id (or its position, when it has no valid id).
        field: The contract field at fault, dotted (``baseline.min``).
    """

    def __init__(
        self,
        what: str,
        *,
        fix: str = "",
        path: str | None = None,
        touchpoint: str | None = None,
        field: str | None = None,
    ) -> None:
        where = []
        if touchpoint is not None:
            where.append(f"touchpoint {touchpoint}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {what}" if where else what, fix=fix, path=path)
        self.touchpoint = touchpoint
        self.field = field


class SuiteError(InputError):
    """A suite or question file is invalid."""


class UnknownQuestionError(SuiteError, KeyError):
    """A case names a question id that no question file defines."""

    def __str__(self) -> str:  # KeyError would repr() the message otherwise.
        return SuiteError.__str__(self)


class RegistryError(InputError):
    """A plugin registration is invalid: a duplicate name or an object of the wrong kind."""


class JudgeOutputError(InputError):
    """A judge's reply is not the JSON its rubric asks for; it never becomes a default verdict.

    Not JSON, a missing or an extra field, a verdict outside the rubric's set, a confidence
    outside [0, 1], a score off the rubric's scale. The message names the judge, the case
    and what was wrong.

    Attributes:
        judge: The judge's name.
        problem: What was wrong with the reply, in a few words.
    """

    def __init__(self, what: str, *, judge: str, case: str, problem: str, fix: str = "") -> None:
        super().__init__(f"judge {judge!r}: {what}", fix=fix, case=case)
        self.judge = judge
        self.problem = problem


class MissingExtraError(InputError, ImportError):
    """What was asked needs an optional extra that is not installed.

    Attributes:
        extra: The extra to install (``pip install 'tracegrade[EXTRA]'``).
    """

    def __init__(self, what: str, *, extra: str, path: str | None = None) -> None:
        super().__init__(what, fix=f"install it with: pip install 'tracegrade[{extra}]'", path=path)
        self.extra = extra


class JudgeProviderError(InputError):
    """A judge provider refused the call for a reason retrying cannot fix.

    Bad credentials, a bad request (an unknown model), or the provider's SDK not
    installed. Rate limits, server errors and timeouts are :class:`InfrastructureError`.

    Attributes:
        judge: The judge's name.
    """

    def __init__(self, what: str, *, judge: str, fix: str = "", case: str | None = None) -> None:
        super().__init__(f"judge {judge!r}: {what}", fix=fix, case=case)
        self.judge = judge


class InfrastructureError(TracegradeError, RuntimeError):
    """Something outside the user's input failed (a provider, a database)."""

    exit_code: ClassVar[int] = 3
