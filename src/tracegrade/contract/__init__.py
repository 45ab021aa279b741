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
from tracegrade.contract._rules import ContractRules, load_contract_rules, parse_contract_rules
from tracegrade.contract._validate import (
    ContractFailure,
    ContractRule,
    collect_artifacts,
    validate_grounding_contract,
)

__all__ = [
    "ARTIFACT_SCHEMA_VERSION",
    "Artifact",
    "ContractFailure",
    "ContractRule",
    "ContractRules",
    "DocumentRead",
    "ServedRange",
    "Stage",
    "Touch",
    "collect_artifacts",
    "load_contract_rules",
    "merge_ranges",
    "parse_artifact",
    "parse_contract_rules",
    "validate_grounding_contract",
]
