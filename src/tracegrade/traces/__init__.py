"""Read recorded agent runs into :class:`Trace` values (the reading edge of the pipeline).

Each input format is a registered reader; :func:`read_traces` picks one by file
name and first bytes. The frame model is shared by every later stage.
"""

# Importing a reader module registers its reader.
# Importing a format module registers its reader.
from tracegrade.traces import _anthropic as _anthropic
from tracegrade.traces import _atif as _atif
from tracegrade.traces import _inspect as _inspect
from tracegrade.traces import _langchain as _langchain
from tracegrade.traces import _native as _native
from tracegrade.traces import _openai as _openai
from tracegrade.traces import _openinference as _openinference
from tracegrade.traces import _otel_genai as _otel_genai
from tracegrade.traces import _swe_agent as _swe_agent
from tracegrade.traces import _tau2 as _tau2
from tracegrade.traces import _tau_bench as _tau_bench
from tracegrade.traces._model import (
    ApprovalFrame,
    AssistantFrame,
    CompactionFrame,
    Frame,
    Outcome,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    Trace,
    UserFrame,
)
from tracegrade.traces._native import parse_native_trace, validate_native_trace
from tracegrade.traces._registry import TraceReader, read_trace, read_traces, reader, trace_readers

__all__ = [
    "ApprovalFrame",
    "AssistantFrame",
    "CompactionFrame",
    "Frame",
    "Outcome",
    "SystemFrame",
    "ToolCallFrame",
    "ToolResultFrame",
    "Trace",
    "TraceReader",
    "UserFrame",
    "parse_native_trace",
    "read_trace",
    "read_traces",
    "reader",
    "trace_readers",
    "validate_native_trace",
]
