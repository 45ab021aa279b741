"""The grounding contract: tool artifacts that prove what was read, and their validator (pure).

Artifacts (:class:`Touch`, :class:`DocumentRead`) ride on tool results for the program and
never reach the model. The validator reads a trace's artifacts and answer citations.
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

__all__ = [
    "ARTIFACT_SCHEMA_VERSION",
    "Artifact",
    "DocumentRead",
    "ServedRange",
    "Stage",
    "Touch",
    "merge_ranges",
    "parse_artifact",
]
