"""The results UI and JSON API over the store (edge: HTTP).

:func:`create_app` builds a FastAPI app over a store (and optionally the project
registry): server-rendered pages for the registry, touchpoints, runs, cases with their
traces, and costs, and a JSON API returning the same models. ``tracegrade serve`` runs it
with uvicorn on 127.0.0.1. See ``docs/web.md``.
"""

from tracegrade.web._app import CONTENT_SECURITY_POLICY, create_app
from tracegrade.web._models import (
    AnswerPiece,
    CaseRow,
    CaseView,
    ClaimView,
    CostRow,
    CostView,
    DayCost,
    EvidenceView,
    ExtractedClaimView,
    FigureView,
    FrameMark,
    FrameView,
    PatternView,
    RunHeader,
    RunListItem,
    RunTouchpoint,
    RunView,
    TouchpointDetail,
    TouchpointSummary,
    TraceView,
)
from tracegrade.web._security import TOKEN_ENV

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "TOKEN_ENV",
    "AnswerPiece",
    "CaseRow",
    "CaseView",
    "ClaimView",
    "CostRow",
    "CostView",
    "DayCost",
    "EvidenceView",
    "ExtractedClaimView",
    "FigureView",
    "FrameMark",
    "FrameView",
    "PatternView",
    "RunHeader",
    "RunListItem",
    "RunTouchpoint",
    "RunView",
    "TouchpointDetail",
    "TouchpointSummary",
    "TraceView",
    "create_app",
]
