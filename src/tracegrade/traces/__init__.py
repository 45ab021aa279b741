"""Read recorded agent runs into :class:`Trace` values (the reading edge of the pipeline).

Each input format is a registered reader; :func:`read_traces` picks one by file
name and first bytes. The frame model is shared by every later stage.
"""

# Importing a format module registers its reader. Native is registered now; the other
# formats when a file first needs them (traces/_registry.py, _LAZY_FORMATS).
from tracegrade.traces import _native as _native
from tracegrade.traces._model import (
    ApprovalFrame,
    AssistantFrame,
    CompactionFrame,
    Frame,
    Outcome,
    ReplyStatus,
    SystemFrame,
    ToolCallFrame,
    ToolResultFrame,
    Trace,
    UserFrame,
)
from tracegrade.traces._native import parse_native_trace, validate_native_trace
from tracegrade.traces._registry import (
    TraceReader,
    default_redactor,
    detect_format,
    read_trace,
    read_traces,
    reader,
    trace_readers,
)

__all__ = [
    "ApprovalFrame",
    "AssistantFrame",
    "CompactionFrame",
    "Frame",
    "Outcome",
    "ReplyStatus",
    "SystemFrame",
    "ToolCallFrame",
    "ToolResultFrame",
    "Trace",
    "TraceReader",
    "UserFrame",
    "default_redactor",
    "detect_format",
    "parse_native_trace",
    "read_trace",
    "read_traces",
    "reader",
    "trace_readers",
    "validate_native_trace",
]
