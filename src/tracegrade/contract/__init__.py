"""The grounding contract: tool artifacts that prove what was read, and their validator (pure).

Artifacts (:class:`Touch`, :class:`DocumentRead`) ride on tool results for the program and
never reach the model. :func:`validate_grounding_contract` reads a trace's artifacts and the
citations of its answer, and returns a :class:`ContractFailure` per breach (docs/contract.md).
"""

from tracegrade.contract._artifacts import (
    ARTIFACT_SCHEMA_VERSION,
    Artifact,
    DocumentRead,
    ServedRange,
    Stage,
    Touch,
    merge_ranges,
    parse_artifact,
)
from tracegrade.contract._gate import (
    GATE_SCHEMA_VERSION,
    CaseKind,
    CaseResult,
    ContractFinding,
    Diagnosis,
    DiagnosisKind,
    GateCase,
    GateDelta,
    GateResult,
    GateRun,
    RunResult,
    check_run,
    compare_gate,
    render_gate,
    run_gate,
    summarise_gate,
)
from tracegrade.contract._rules import ContractRules, load_contract_rules, parse_contract_rules
from tracegrade.contract._validate import (
    ContractFailure,
    ContractRule,
    collect_artifacts,
    validate_grounding_contract,
)

__all__ = [
    "ARTIFACT_SCHEMA_VERSION",
    "GATE_SCHEMA_VERSION",
    "Artifact",
    "CaseKind",
    "CaseResult",
    "ContractFailure",
    "ContractFinding",
    "ContractRule",
    "ContractRules",
    "Diagnosis",
    "DiagnosisKind",
    "DocumentRead",
    "GateCase",
    "GateDelta",
    "GateResult",
    "GateRun",
    "RunResult",
    "ServedRange",
    "Stage",
    "Touch",
    "check_run",
    "collect_artifacts",
    "compare_gate",
    "load_contract_rules",
    "merge_ranges",
    "parse_artifact",
    "parse_contract_rules",
    "render_gate",
    "run_gate",
    "summarise_gate",
    "validate_grounding_contract",
]
