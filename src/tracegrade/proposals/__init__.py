"""The improvement loop: signals → patterns → proposals → a person's approval → versions.

Gate failures, guard blocks, grounding-contract breaches and user feedback are recorded as
signals (:func:`record_signal`; the runner records one per failing case of a failed
``block`` or ``warn`` touchpoint). :func:`find_patterns` groups the unprocessed ones by
what went wrong. A proposal (:func:`propose`) is new content for one of a touchpoint's
files; only a person approves it (:func:`approve_proposal`); applying it
(:func:`apply_proposal`) writes the file and records a touchpoint version, and
:func:`rollback` restores any recorded version. Auto-apply needs a graduated touchpoint
(:func:`tracegrade.evals.measure_graduation`). See docs/proposals.md.
"""

from tracegrade.proposals._patterns import Pattern, find_patterns
from tracegrade.proposals._proposals import (
    apply_proposal,
    approve_proposal,
    propose,
    reject_proposal,
)
from tracegrade.proposals._signals import (
    IDENTIFYING_KEYS,
    SignalKind,
    case_signal,
    contract_signal,
    fingerprint,
    guard_signal,
    record_signal,
)
from tracegrade.proposals._versions import Rollback, content_version, keep_files, rollback

__all__ = [
    "IDENTIFYING_KEYS",
    "Pattern",
    "Rollback",
    "SignalKind",
    "apply_proposal",
    "approve_proposal",
    "case_signal",
    "content_version",
    "contract_signal",
    "find_patterns",
    "fingerprint",
    "guard_signal",
    "keep_files",
    "propose",
    "record_signal",
    "reject_proposal",
    "rollback",
]
