"""The eval engine's contracts and decisions: touchpoints, their registry, pass/fail and exit codes.

A project file (``tracegrade.toml``) and ``@touchpoint`` declarations fill one registry of
:class:`Touchpoint` contracts (:func:`load_project`); its version is a hash of every
contract (:func:`registry_version`) and each touchpoint's files are hashed to show drift
(:func:`file_hashes`, :func:`drift`). A suite's results become :class:`CaseOutcome` values,
their :func:`metric_for` and :func:`spread` feed :func:`judge`, and :func:`exit_code` turns
the verdicts into the run's exit code. :func:`run_evals` runs a lane's suites through an
:class:`Executor` and stores every case result; :func:`compare_runs` sets two runs side by
side; :func:`run_shadow` runs a touchpoint's base and a proposed copy interleaved and
:func:`compare_shadow` tests the difference (McNemar, a paired bootstrap). Everything but
the loader and the runners is pure (docs/evals.md, docs/run.md, docs/proposals.md).
"""

from tracegrade.evals._compare import (
    CaseShift,
    RunComparison,
    Shift,
    TouchpointShift,
    compare_runs,
)
from tracegrade.evals._contract import (
    CONTRACT_SCHEMA_VERSION,
    DEFAULT_STORE_URL,
    Baseline,
    GroundingShape,
    Lane,
    OutputFormat,
    ProjectConfig,
    RedactPattern,
    RedactSettings,
    Severity,
    StoreSettings,
    SuiteKind,
    Touchpoint,
    TouchpointKind,
    WebSettings,
    registry_version,
)
from tracegrade.evals._dispatch import (
    COMMAND_SUITE_VARIABLE,
    INFRA_EXIT_CODES,
    PreparedSuite,
    WorkUnit,
    prepare_suite,
)
from tracegrade.evals._drift import Change, FileDrift, drift
from tracegrade.evals._executor import (
    Executor,
    LocalExecutor,
    ProcessExecutor,
    RayExecutor,
    UnitWork,
)
from tracegrade.evals._graduation import (
    WILSON_Z,
    Graduation,
    GraduationPolicy,
    RunTally,
    graduation,
    measure_graduation,
    wilson_lower_bound,
)
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
from tracegrade.evals._recorded import record_outcomes
from tracegrade.evals._registry import (
    SuiteFunction,
    TouchpointEntry,
    registered_touchpoints,
    touchpoint,
    unregister_touchpoint,
)
from tracegrade.evals._retry import infra_status, is_infra, retry_infra
from tracegrade.evals._run_report import RUN_SCHEMA_VERSION, RunReport, TouchpointReport
from tracegrade.evals._runner import run_evals
from tracegrade.evals._shadow import (
    CaseFlip,
    Flip,
    ShadowComparison,
    ShadowVerdict,
    compare_shadow,
    describe_verdict,
)
from tracegrade.evals._shadow_run import SHADOW_LANE, run_shadow
from tracegrade.evals._shadow_stats import mcnemar_exact, paired_bootstrap

__all__ = [
    "COMMAND_SUITE_VARIABLE",
    "CONFIDENCE",
    "CONTRACT_SCHEMA_VERSION",
    "DEFAULT_STORE_URL",
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "EXIT_HELD",
    "EXIT_INFRA",
    "INFRA_EXIT_CODES",
    "METRIC_NAMES",
    "PROJECT_FILE",
    "RUN_SCHEMA_VERSION",
    "SHADOW_LANE",
    "VERDICT_SCHEMA_VERSION",
    "WILSON_Z",
    "Baseline",
    "CaseFlip",
    "CaseOutcome",
    "CaseShift",
    "Change",
    "Executor",
    "ExitDecision",
    "FileDrift",
    "Flip",
    "Graduation",
    "GraduationPolicy",
    "GroundingShape",
    "Lane",
    "LocalExecutor",
    "Metric",
    "Outcome",
    "OutputFormat",
    "PreparedSuite",
    "ProcessExecutor",
    "Project",
    "ProjectConfig",
    "RayExecutor",
    "RedactPattern",
    "RedactSettings",
    "RunComparison",
    "RunReport",
    "RunTally",
    "Severity",
    "ShadowComparison",
    "ShadowVerdict",
    "Shift",
    "Spread",
    "Status",
    "StoreSettings",
    "SuiteFunction",
    "SuiteKind",
    "Touchpoint",
    "TouchpointEntry",
    "TouchpointKind",
    "TouchpointReport",
    "TouchpointShift",
    "TouchpointVerdict",
    "UnitWork",
    "WebSettings",
    "WorkUnit",
    "compare_runs",
    "compare_shadow",
    "contract_outcomes",
    "describe_verdict",
    "drift",
    "exit_code",
    "file_hashes",
    "gate_outcomes",
    "graduation",
    "infer_suite_kind",
    "infra_status",
    "is_infra",
    "judge",
    "load_project",
    "mcnemar_exact",
    "measure_graduation",
    "metric_for",
    "paired_bootstrap",
    "parse_command_output",
    "prepare_suite",
    "record_outcomes",
    "registered_touchpoints",
    "registry_version",
    "replay_outcomes",
    "retry_infra",
    "run_evals",
    "run_shadow",
    "spread",
    "suite_outcomes",
    "touchpoint",
    "unregister_touchpoint",
    "wilson_lower_bound",
]
