"""Redaction: secrets in traces replaced before anything is stored or shown (pure).

:class:`Redactor` replaces every secret its rules find by ``[REDACTED:kind]`` and records
each replacement as a :class:`Redaction` (the kind and the place, never the secret).
:data:`PACKAGED_RULES` knows the API keys of the common providers, bearer and basic
credentials, private key blocks, JWTs, ``password=``-style pairs and values under
credential names (``Authorization``, ``Cookie``, ``api_key``); a project adds its own
patterns in ``tracegrade.toml`` (``[redact]``, docs/security.md). :func:`redact_trace`
redacts a whole trace; every trace reader's output passes through it.
"""

from tracegrade.redact._redactor import Redaction, Redactor
from tracegrade.redact._rules import (
    PACKAGED_RULES,
    RedactionRule,
    pattern_problem,
    replacement,
    sensitive_name,
    user_rule,
)
from tracegrade.redact._trace import REDACTIONS_KEY, redact_trace, trace_redactions

__all__ = [
    "PACKAGED_RULES",
    "REDACTIONS_KEY",
    "Redaction",
    "RedactionRule",
    "Redactor",
    "pattern_problem",
    "redact_trace",
    "replacement",
    "sensitive_name",
    "trace_redactions",
    "user_rule",
]
