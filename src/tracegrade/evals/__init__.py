"""The eval engine's contracts and decisions: touchpoints, their registry, pass/fail and exit codes.

A project file (``tracegrade.toml``) and ``@touchpoint`` declarations fill one registry of
:class:`Touchpoint` contracts (:func:`load_project`); its version is a hash of every
contract (:func:`registry_version`) and each touchpoint's files are hashed to show drift
(:func:`file_hashes`, :func:`drift`). A suite's results become :class:`CaseOutcome` values,
their :func:`metric_for` and :func:`spread` feed :func:`judge`, and :func:`exit_code` turns
the verdicts into the run's exit code. Everything but the loader is pure (docs/evals.md).
"""

from tracegrade.evals._contract import (
    CONTRACT_SCHEMA_VERSION,
    DEFAULT_STORE_URL,
    Baseline,
    GroundingShape,
    Lane,
    OutputFormat,
    ProjectConfig,
    Severity,
    StoreSettings,
    SuiteKind,
    Touchpoint,
    TouchpointKind,
    registry_version,
)
from tracegrade.evals._drift import Change, FileDrift, drift
from tracegrade.evals._judge import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_HELD,
    EXIT_INFRA,
    VERDICT_SCHEMA_VERSION,
    ExitDecision,
    Status,
    TouchpointVerdict,
    exit_code,
    judge,
)
from tracegrade.evals._load import (
    PROJECT_FILE,
    Project,
    file_hashes,
    infer_suite_kind,
    load_project,
)
from tracegrade.evals._metric import CONFIDENCE, METRIC_NAMES, Metric, Spread, metric_for, spread
from tracegrade.evals._outcomes import (
    CaseOutcome,
    Outcome,
    contract_outcomes,
    gate_outcomes,
    parse_command_output,
    replay_outcomes,
    suite_outcomes,
)
from tracegrade.evals._registry import (
    SuiteFunction,
    TouchpointEntry,
    registered_touchpoints,
    touchpoint,
    unregister_touchpoint,
)
from tracegrade.evals._retry import infra_status, is_infra, retry_infra

__all__ = [
    "CONFIDENCE",
    "CONTRACT_SCHEMA_VERSION",
    "DEFAULT_STORE_URL",
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_HELD",
    "EXIT_INFRA",
    "METRIC_NAMES",
    "PROJECT_FILE",
    "VERDICT_SCHEMA_VERSION",
    "Baseline",
    "CaseOutcome",
    "Change",
    "ExitDecision",
    "FileDrift",
    "GroundingShape",
    "Lane",
    "Metric",
    "Outcome",
    "OutputFormat",
    "Project",
    "ProjectConfig",
    "Severity",
    "Spread",
    "Status",
    "StoreSettings",
    "SuiteFunction",
    "SuiteKind",
    "Touchpoint",
    "TouchpointEntry",
    "TouchpointKind",
    "TouchpointVerdict",
    "contract_outcomes",
    "drift",
    "exit_code",
    "file_hashes",
    "gate_outcomes",
    "infer_suite_kind",
    "infra_status",
    "is_infra",
    "judge",
    "load_project",
    "metric_for",
    "parse_command_output",
    "registered_touchpoints",
    "registry_version",
    "replay_outcomes",
    "retry_infra",
    "spread",
    "suite_outcomes",
    "touchpoint",
    "unregister_touchpoint",
]
