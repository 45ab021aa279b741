"""Signals: what went wrong with a touchpoint, recorded for patterns and proposals.

A signal has a kind, a JSON payload and a fingerprint: a hash of what identifies the
problem (the kind with the payload's rule, tool or diagnosis, or a feedback message),
never of timestamps, run ids or case names, so the same problem seen again gets the same
fingerprint. The builders here turn the engine's results into signals (pure);
:func:`record_signal` stores one.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Literal, get_args

from tracegrade.errors import InputError
from tracegrade.store import JsonObject, SignalRecord

if TYPE_CHECKING:
    from tracegrade.contract import ContractFailure
    from tracegrade.evals import SuiteKind
    from tracegrade.guard import GuardDecision
    from tracegrade.store import CaseResultRecord, Store

__all__ = [
    "IDENTIFYING_KEYS",
    "SignalKind",
    "case_signal",
    "contract_signal",
    "fingerprint",
    "guard_signal",
    "record_signal",
]

SignalKind = Literal["gate_failure", "guard_block", "contract_failure", "feedback", "auto_rollback"]
"""``gate_failure``: a failed case of a run; ``guard_block``: the figure guard blocked a call;
``contract_failure``: a grounding-contract breach; ``feedback``: a person's report;
``auto_rollback``: the watch after an auto-apply rolled the change back."""

IDENTIFYING_KEYS = ("rule", "tool", "diagnosis", "message")
"""The payload keys a fingerprint is taken from (with the kind), when present."""

_KIND_OF_SUITE: dict[str, SignalKind] = {"guard": "guard_block", "contract": "contract_failure"}
_NUMBER = re.compile(r"\d+")
_RULE_PREFIX = re.compile(r"(?:^|;\s*)([a-z][a-z0-9-]*):")


def fingerprint(kind: str, payload: JsonObject) -> str:
    """What identifies a problem: 16 hex digits of sha256 over the kind and identifying keys.

    The identifying keys are :data:`IDENTIFYING_KEYS`; a payload with none of them is
    identified by the whole payload.
    """
    chosen = {key: payload[key] for key in IDENTIFYING_KEYS if key in payload} or payload
    text = json.dumps({"kind": kind, **chosen}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _signal(
    touchpoint: str,
    kind: SignalKind,
    payload: JsonObject,
    run_id: str | None,
    given: str | None = None,
) -> SignalRecord:
    return SignalRecord(
        touchpoint=touchpoint,
        kind=kind,
        fingerprint=given or fingerprint(kind, payload),
        payload=payload,
        run_id=run_id,
    )


def record_signal(
    store: Store,
    touchpoint: str,
    kind: SignalKind,
    payload: JsonObject,
    *,
    run_id: str | None = None,
    fingerprint: str | None = None,
) -> int:
    """Store a signal about a touchpoint and return its id.

    Args:
        store: Where it goes.
        touchpoint: The touchpoint it is about.
        kind: ``gate_failure``, ``guard_block``, ``contract_failure`` or ``feedback``.
        payload: The details; its ``rule``, ``tool``, ``diagnosis`` or ``message`` say
            what the problem is.
        run_id: The run it came from, if any.
        fingerprint: What groups it with others; default :func:`fingerprint`.

    Raises:
        InputError: An unknown kind, or a feedback signal without a ``message``.
    """
    if kind not in get_args(SignalKind):
        raise InputError(
            f"unknown signal kind {kind!r}",
            fix=f"use one of {', '.join(get_args(SignalKind))}",
        )
    if kind == "feedback" and not str(payload.get("message") or "").strip():
        raise InputError("a feedback signal needs a message", fix="say what went wrong")
    return store.add_signal(_signal(touchpoint, kind, payload, run_id, fingerprint))


def case_signal(result: CaseResultRecord, suite_kind: SuiteKind) -> SignalRecord:
    """The signal of a case that did not pass in a run (pure).

    The payload keeps the case, its outcome and detail, and what identifies the problem:
    a ``guard`` suite's blocked ``tool``, a ``contract`` suite's failed ``rule`` (several
    joined by commas), or for other suites a ``diagnosis``: the detail with its numbers
    masked, so the same failure in another frame or case groups with it.
    """
    raw = result.payload.get("detail")
    detail = raw if isinstance(raw, str) else ""
    kind = _KIND_OF_SUITE.get(suite_kind, "gate_failure")
    payload: JsonObject = {
        "case": result.case_id,
        "repeat": result.repeat,
        "outcome": result.outcome,
        "suite_kind": suite_kind,
        "detail": detail,
    }
    if kind == "guard_block" and ": unsourced" in detail:
        payload["tool"] = detail.split(": unsourced", 1)[0]
    elif kind == "contract_failure" and _RULE_PREFIX.search(detail):
        payload["rule"] = ",".join(sorted(set(_RULE_PREFIX.findall(detail))))
    else:
        payload["diagnosis"] = _NUMBER.sub("#", detail) if detail else result.outcome
    return _signal(result.touchpoint, kind, payload, result.run_id)


def guard_signal(
    touchpoint: str, decision: GuardDecision, *, run_id: str | None = None
) -> SignalRecord:
    """The signal of a call the figure guard blocked (pure); identified by its tool.

    Raises:
        InputError: The decision allowed the call.
    """
    if decision.allowed:
        raise InputError(
            f"the guard allowed call {decision.call_id} of {decision.tool}; nothing to signal",
            fix="record signals for denied calls only",
        )
    payload: JsonObject = {
        "tool": decision.tool,
        "call_id": decision.call_id,
        "figures": [value.figure.raw for value in decision.unsourced],
        "locations": [value.location for value in decision.unsourced],
        "denial": decision.message or "",
    }
    return _signal(touchpoint, "guard_block", payload, run_id)


def contract_signal(
    touchpoint: str, failure: ContractFailure, *, run_id: str | None = None
) -> SignalRecord:
    """The signal of a grounding-contract breach (pure); identified by its rule."""
    payload: JsonObject = {
        "rule": failure.rule,
        "frame": failure.frame,
        "claim": failure.claim,
        "source": failure.source,
        "detail": failure.detail,
    }
    return _signal(touchpoint, "contract_failure", payload, run_id)
