"""The improvement loop: signals → patterns → proposals → a person's approval → versions.

Gate failures, guard blocks, grounding-contract breaches and user feedback are recorded as
signals (:func:`record_signal`; the runner records one per failing case of a failed
``block`` or ``warn`` touchpoint). :func:`find_patterns` groups the unprocessed ones by
what went wrong. A proposal (:func:`propose`) is new content for one of a touchpoint's
files; only a person approves it (:func:`approve_proposal`); applying it
(:func:`apply_proposal`) writes the file and records a touchpoint version, and
:func:`rollback` restores any recorded version. :func:`try_proposal` runs the
touchpoint's suite on the base and on the proposed version (a shadow run) and stores the
paired comparison, before anyone approves. Auto-apply needs a
graduated touchpoint (:func:`tracegrade.evals.measure_graduation`) and a shadow run showing
a significant gain; the next runs are then watched (:func:`watch_run`) and a drop rolls
the change back. See docs/proposals.md.
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
from tracegrade.proposals._trial import improvement_problem, latest_trial, try_proposal
from tracegrade.proposals._versions import Rollback, content_version, keep_files, rollback
from tracegrade.proposals._watch import DEFAULT_WATCH_RUNS, WATCHER, start_watch, watch_run

__all__ = [
    "DEFAULT_WATCH_RUNS",
    "IDENTIFYING_KEYS",
    "WATCHER",
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
    "improvement_problem",
    "keep_files",
    "latest_trial",
    "propose",
    "record_signal",
    "reject_proposal",
    "rollback",
    "start_watch",
    "try_proposal",
    "watch_run",
]
