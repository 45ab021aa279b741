"""Touchpoint contracts: what each AI surface is evaluated by, and how its failure counts.

A contract is data (a ``[[touchpoints]]`` table of ``tracegrade.toml`` or a ``@touchpoint``
declaration). Its fields are checked here; the loader (:mod:`tracegrade.evals._load`) words
the errors with the file, the touchpoint and the field.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator
from pydantic_core import PydanticCustomError

from tracegrade.evals._graduation import GraduationPolicy
from tracegrade.redact import Redactor, pattern_problem, user_rule

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "CONTRACT_SCHEMA_VERSION",
    "DEFAULT_STORE_URL",
    "Baseline",
    "GroundingShape",
    "Lane",
    "OutputFormat",
    "ProjectConfig",
    "RedactPattern",
    "RedactSettings",
    "Severity",
    "StoreSettings",
    "SuiteKind",
    "Touchpoint",
    "TouchpointKind",
    "WebSettings",
    "registry_version",
]

CONTRACT_SCHEMA_VERSION = 1
DEFAULT_STORE_URL = "sqlite:///.tracegrade/tracegrade.db"

TouchpointKind = Literal["tool", "prompt", "skill", "inline", "agent_recipe"]
SuiteKind = Literal["grade", "guard", "contract", "gate", "command", "callable"]
GroundingShape = Literal["structured_output", "forced_tool_strict", "citations", "n/a"]
Severity = Literal["block", "warn", "info", "infra"]
Lane = Literal["pr", "nightly"]
OutputFormat = Literal["junit", "json"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_NonEmpty = Annotated[StrictStr, Field(min_length=1)]
_Share = Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)]
_Repeats = Annotated[StrictInt, Field(ge=1)]
_Id = Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:\-]*$")]
# module:qualname; a decorated local function or lambda shows <locals> / <lambda>.
_Call = Annotated[StrictStr, Field(pattern=r"^[A-Za-z_][\w.]*:[\w.<>]+$")]

# Which optional fields each suite kind needs (True) or allows (False); any other is an error.
_SUITE_FIELDS: dict[str, dict[str, bool]] = {
    "grade": {"suite": True},
    "guard": {"suite": True, "traces": True},
    "contract": {"suite": False, "traces": True},
    "gate": {"call": True},
    "callable": {"call": True},
    "command": {"command": True, "output_format": True, "output": False},
}
_WHAT = {
    "suite": "the suite file",
    "traces": "a glob of the trace files",
    "call": "the suite function, as 'module:function'",
    "command": "the command to run, as a list of arguments",
    "output_format": "'junit' or 'json'",
    "output": "the file the command writes",
}


class Baseline(BaseModel):
    """The pass bar of a touchpoint's metric (a share in [0, 1]).

    Attributes:
        min: The metric must be at least this, with or without a stored baseline.
        max_drop: How far the metric may fall below its stored baseline, on top of the
            touchpoint's variance band, before it counts as a regression.
    """

    model_config = _FROZEN
    min: _Share = 0.0
    max_drop: _Share = 0.0


class Touchpoint(BaseModel):
    """The eval contract of one touchpoint (an AI surface: tool, prompt, skill, ...).

    Attributes:
        id: Unique in the registry; letters, digits and ``_.:-``.
        kind: What the surface is.
        owner: Who answers for it (a team or person).
        suite_kind: How its suite runs: ``grade`` (a trace-grader suite file), ``guard`` (a
            figure audit: a guard policy over ``traces``), ``contract`` (grounding-contract
            checks over ``traces``, with an optional rules file), ``gate`` (an agent gate,
            a Python function), ``command`` (an existing eval script whose JUnit XML or
            JSON output is read), ``callable`` (a Python function returning case outcomes).
        suite: The suite file, relative to the project file (grade, guard, contract).
        traces: A glob of trace files relative to the project file (guard, contract).
        call: ``module:function`` of a Python suite (gate, callable).
        command: The command's arguments (no shell), run from the project folder.
        output_format: How the command reports cases: ``junit`` or ``json``.
        output: The file the command writes its report to; its standard output if unset.
        grounding_shape: How the surface grounds its output.
        severity_on_fail: ``block`` fails the run (exit 1), ``warn`` prints, ``info`` only
            records, ``infra`` counts the failure as an infrastructure problem (exit 3).
        variance_band: The noise tolerated across repeats, in metric units; also added to
            ``baseline.max_drop``.
        repeats: How many times the suite runs in the ``pr`` lane.
        nightly_repeats: How many times it runs in the ``nightly`` lane (``repeats`` if
            unset).
        lanes: The lanes it runs in.
        files: Files that define the surface (prompts, skills), relative to the project
            file; their sha256 is stored with every run to show drift.
        baseline: The pass bar.
        graduation: What earns it auto-apply of approved proposals (``window`` runs,
            ``threshold`` on the Wilson lower bound of the pass rate).
        description: One line for reports.
    """

    model_config = _FROZEN
    id: _Id
    kind: TouchpointKind
    owner: _NonEmpty
    suite_kind: SuiteKind
    suite: _NonEmpty | None = None
    traces: _NonEmpty | None = None
    call: _Call | None = None
    command: Annotated[tuple[_NonEmpty, ...], Field(min_length=1)] | None = None
    output_format: OutputFormat | None = None
    output: _NonEmpty | None = None
    grounding_shape: GroundingShape = "n/a"
    severity_on_fail: Severity
    variance_band: _Share = 0.0
    repeats: _Repeats = 1
    nightly_repeats: _Repeats | None = None
    lanes: Annotated[tuple[Lane, ...], Field(min_length=1)] = ("pr", "nightly")
    files: tuple[_NonEmpty, ...] = ()
    baseline: Baseline = Baseline()
    graduation: GraduationPolicy = GraduationPolicy()
    description: StrictStr = ""

    @model_validator(mode="after")
    def _fields_fit_the_suite_kind(self) -> Touchpoint:
        fields = _SUITE_FIELDS[self.suite_kind]
        for name, what in _WHAT.items():
            value = getattr(self, name)
            if fields.get(name) and value is None:
                raise PydanticCustomError(
                    "suite_field_missing",
                    "is missing: suite_kind '{kind}' needs {what}",
                    {"field": name, "kind": self.suite_kind, "what": what},
                )
            if name not in fields and value is not None:
                raise PydanticCustomError(
                    "suite_field_unused",
                    "is not used by suite_kind '{kind}'; remove it or change suite_kind",
                    {"field": name, "kind": self.suite_kind},
                )
        for name in ("lanes", "files"):
            values = getattr(self, name)
            if len(set(values)) != len(values):
                raise PydanticCustomError(
                    "duplicate_entry", "lists an entry twice", {"field": name}
                )
        return self

    def repeats_in(self, lane: Lane) -> int:
        """How many times the suite runs in ``lane``."""
        if lane == "nightly" and self.nightly_repeats is not None:
            return self.nightly_repeats
        return self.repeats


class StoreSettings(BaseModel):
    """The ``[store]`` table.

    Attributes:
        url: A SQLAlchemy URL: ``sqlite:///path`` (relative to the project folder) or
            ``postgresql+psycopg://...``.
    """

    model_config = _FROZEN
    url: _NonEmpty = DEFAULT_STORE_URL


class CostSettings(BaseModel):
    """The ``[cost]`` table.

    Attributes:
        prices: A price file (relative to the project file) whose models override or
            extend tracegrade's packaged price table; see ``docs/cost.md``.
    """

    model_config = _FROZEN
    prices: _NonEmpty | None = None


class WebSettings(BaseModel):
    """The ``[web]`` table: settings of ``tracegrade serve``.

    Attributes:
        admin_token_file: A file (relative to the project file) holding the admin token that
            allows approving and rejecting proposals in the web UI; the token itself never
            goes in tracegrade.toml. ``$TRACEGRADE_ADMIN_TOKEN`` is used when this is unset.
    """

    model_config = _FROZEN
    admin_token_file: _NonEmpty | None = None


class RedactPattern(BaseModel):
    """One ``[[redact.patterns]]`` entry: a regular expression whose matches are secrets.

    Attributes:
        kind: What the secret is; the replacement is ``[REDACTED:kind]``.
        pattern: A Python regular expression; every match is replaced.
    """

    model_config = _FROZEN
    kind: _NonEmpty
    pattern: _NonEmpty

    @model_validator(mode="after")
    def _usable(self) -> RedactPattern:
        problem = pattern_problem(self.kind, self.pattern)
        if problem is not None:
            raise PydanticCustomError("redact_pattern", problem)
        return self


class RedactSettings(BaseModel):
    """The ``[redact]`` table: secrets of this project's own, beside the packaged rules.

    Attributes:
        patterns: Regular expressions whose matches are replaced (docs/security.md).
        names: Key and span attribute names whose values are replaced whole (matched
            case-insensitively: the whole name, or its last dotted segment).
    """

    model_config = _FROZEN
    patterns: tuple[RedactPattern, ...] = ()
    names: tuple[_NonEmpty, ...] = ()

    def redactor(self) -> Redactor:
        """The packaged rules with this project's patterns and names added."""
        rules = [user_rule(item.kind, item.pattern) for item in self.patterns]
        return Redactor().with_rules(rules, names=self.names)


class ProjectConfig(BaseModel):
    """A whole ``tracegrade.toml``: the store and the touchpoint contracts.

    Attributes:
        store: Where runs and baselines are kept.
        cost: Where the prices of model calls come from.
        web: Settings of the results UI.
        redact: The project's own secrets to redact, beside the packaged rules.
        touchpoints: The contracts, ids unique, in file order.
    """

    model_config = _FROZEN
    store: StoreSettings = StoreSettings()
    cost: CostSettings = CostSettings()
    web: WebSettings = WebSettings()
    redact: RedactSettings = RedactSettings()
    touchpoints: tuple[Touchpoint, ...] = ()

    @model_validator(mode="after")
    def _unique_ids(self) -> ProjectConfig:
        seen: set[str] = set()
        for touchpoint in self.touchpoints:
            if touchpoint.id in seen:
                raise PydanticCustomError(
                    "duplicate_touchpoint",
                    "is declared twice; touchpoint ids must be unique",
                    {"field": "id", "touchpoint": touchpoint.id},
                )
            seen.add(touchpoint.id)
        return self

    def in_lane(self, lane: Lane) -> tuple[Touchpoint, ...]:
        """The touchpoints that run in ``lane``, in file order."""
        return tuple(t for t in self.touchpoints if lane in t.lanes)


def registry_version(touchpoints: Iterable[Touchpoint]) -> str:
    """The registry's version: sha256 (hex) of the canonical JSON of every contract.

    Canonical: contracts sorted by id, keys sorted, no whitespace, defaults written out,
    so the order of keys or of tables in the file does not change it; any field's value
    does. The contract schema version is part of the hashed text.
    """
    contracts = sorted((t.model_dump(mode="json") for t in touchpoints), key=lambda c: c["id"])
    text = json.dumps(
        {"schema_version": CONTRACT_SCHEMA_VERSION, "touchpoints": contracts},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
