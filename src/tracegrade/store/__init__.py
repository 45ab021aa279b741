"""The results store: runs, case results, baselines and touchpoint versions.

:class:`Store` is the protocol the runner, CLI and web UI use. :func:`open_store` opens
the SQL implementation (a SQLite file by default, PostgreSQL by URL) and migrates it to
the newest schema; :class:`InMemoryStore` is that same SQL store on SQLite in memory.
See ``docs/store.md``.
"""

from tracegrade.store._browse import (
    BrowseStore,
    CaseResultPage,
    CaseResultRow,
    TouchpointRunPoint,
)
from tracegrade.store._costs import (
    AiCallRecord,
    CallRole,
    CostRollup,
    CostStore,
    RollupKey,
    rollup_calls,
)
from tracegrade.store._intake import (
    ReceivedTraceRecord,
    ReceivedTraceStore,
    swap_received_trace,
)
from tracegrade.store._loop import (
    DraftedBy,
    LoopStore,
    ProposalRecord,
    ProposalStatus,
    RubricScoreRecord,
    SignalRecord,
)
from tracegrade.store._memory import InMemoryStore
from tracegrade.store._protocol import Store
from tracegrade.store._records import (
    BaselineRecord,
    CaseKey,
    CaseResultRecord,
    JsonObject,
    Outcome,
    RunRecord,
    RunStatus,
    TouchpointVersionRecord,
    build_baselines,
)
from tracegrade.store._shadow import (
    ShadowComparisonRecord,
    ShadowStore,
    WatchRecord,
    WatchStatus,
)
from tracegrade.store._sql import SqlStore, open_store
from tracegrade.store._url import DEFAULT_URL

__all__ = [
    "DEFAULT_URL",
    "AiCallRecord",
    "BaselineRecord",
    "BrowseStore",
    "CallRole",
    "CaseKey",
    "CaseResultPage",
    "CaseResultRecord",
    "CaseResultRow",
    "CostRollup",
    "CostStore",
    "DraftedBy",
    "InMemoryStore",
    "JsonObject",
    "LoopStore",
    "Outcome",
    "ProposalRecord",
    "ProposalStatus",
    "ReceivedTraceRecord",
    "ReceivedTraceStore",
    "RollupKey",
    "RubricScoreRecord",
    "RunRecord",
    "RunStatus",
    "ShadowComparisonRecord",
    "ShadowStore",
    "SignalRecord",
    "SqlStore",
    "Store",
    "TouchpointRunPoint",
    "TouchpointVersionRecord",
    "WatchRecord",
    "WatchStatus",
    "build_baselines",
    "open_store",
    "rollup_calls",
    "swap_received_trace",
]
