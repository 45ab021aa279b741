"""The guard policy: which frames are sources of figures, and which argument slices to scan.

A policy file (TOML)::

    [sources]
    system = false                      # opt in: the system prompt is a source
    tools = []                          # opt in: results of these guarded tools are sources
    calculators = ["run_calculation"]   # tools that compute derived figures

    [tools.create_spreadsheet]          # a tool name, or a glob such as "update_*"
    scan = ["sheets[*].rows[*][*]"]

Human messages and tool results are always sources; assistant text and tool-call
arguments never are. A guarded tool's own results are not sources unless named in
``sources.tools``: a write that echoes what it wrote must not source the next write.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError

from tracegrade._paths import ArgPath, PathSyntaxError
from tracegrade._toml import read_toml
from tracegrade._validation import error_message, first_error
from tracegrade.errors import PolicyError

__all__ = ["GuardPolicy", "SourcePolicy", "ToolRule", "load_policy", "parse_policy"]

_NonEmpty = Annotated[StrictStr, Field(min_length=1)]
_FROZEN = ConfigDict(frozen=True, extra="forbid")


class SourcePolicy(BaseModel):
    """Which frames count as sources of figures, beyond human messages and tool results.

    Attributes:
        system: The system prompt counts (policy documents quote figures).
        tools: Guarded tools whose own results count as sources.
        calculators: Tools that compute figures; a derived figure is sourced only once one
            of them returned it, and denial messages point the agent at them.
    """

    model_config = _FROZEN
    system: StrictBool = False
    tools: tuple[_NonEmpty, ...] = ()
    calculators: tuple[_NonEmpty, ...] = ()


class ToolRule(BaseModel):
    """The argument slices of one guarded tool that carry artifact values.

    Attributes:
        scan: Argument paths (see :mod:`tracegrade.guard._paths`); nothing outside them is
            scanned, so headers, file names and ids are left alone.
    """

    model_config = _FROZEN
    scan: Annotated[tuple[_NonEmpty, ...], Field(min_length=1)]

    @property
    def paths(self) -> tuple[ArgPath, ...]:
        """The parsed paths."""
        return tuple(ArgPath.parse(text) for text in self.scan)


class GuardPolicy(BaseModel):
    """A whole policy: sources and the guarded tools.

    Attributes:
        sources: Which frames are sources.
        tools: Rules by tool name or glob (``fnmatch``, case-sensitive); an exact name wins,
            then the first glob in file order.
    """

    model_config = _FROZEN
    sources: SourcePolicy = SourcePolicy()
    tools: dict[str, ToolRule] = Field(default_factory=dict)

    def rule_for(self, tool: str) -> ToolRule | None:
        """The rule that guards ``tool``, or ``None`` when the tool is not guarded."""
        rule = self.tools.get(tool)
        if rule is not None:
            return rule
        return next(
            (rule for pattern, rule in self.tools.items() if fnmatchcase(tool, pattern)), None
        )

    def results_are_sources(self, tool: str) -> bool:
        """Whether ``tool``'s results count as sources."""
        return self.rule_for(tool) is None or tool in self.sources.tools


def parse_policy(data: dict[str, Any], name: str = "<policy>") -> GuardPolicy:
    """Validate a policy given as a dict (the parsed TOML).

    Raises:
        PolicyError: Unknown key, wrong type, or a scan path with bad syntax; the message
            names the file, the tool and the path.
    """
    try:
        policy = GuardPolicy.model_validate(data)
    except ValidationError as exc:
        error = first_error(exc)
        where = ".".join(str(part) for part in error["loc"]) or "policy"
        raise PolicyError(
            f"{where}: {error_message(error, unknown='key')}",
            fix="see docs/guard.md for the policy format",
            path=name,
        ) from exc
    for tool, rule in policy.tools.items():
        for text in rule.scan:
            try:
                ArgPath.parse(text)
            except PathSyntaxError as exc:
                raise PolicyError(
                    f"tools.{tool}.scan: {exc}",
                    fix="a path is keys joined by '.', each optionally followed by [*] or [N]",
                    path=name,
                ) from exc
    return policy


def load_policy(path: str | Path) -> GuardPolicy:
    """Read and validate a policy file.

    Raises:
        PolicyError: The file is unreadable, not TOML, not a valid policy, or guards no tool.
    """
    file = Path(path)
    data = read_toml(file, PolicyError)
    policy = parse_policy(data, str(file))
    if not policy.tools:
        raise PolicyError(
            "the policy guards no tool, so every call would pass unchecked",
            fix='add a [tools.NAME] table with scan = ["ARG.PATH"] (docs/guard.md)',
            path=str(file),
        )
    return policy
