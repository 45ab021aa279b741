"""LLM judges that can be checked: strict parsing, panels, controls, citations, rubrics.

A pure step builds a :class:`JudgeRequest` (:func:`verdict_request`,
:func:`scoring_request`); a :class:`Judge` answers it with a :class:`JudgeReply`;
:func:`parse_verdict` and :func:`parse_rubric_score` read the reply strictly and raise
:class:`~tracegrade.errors.JudgeOutputError` on anything malformed. :func:`run_panel` (and
:func:`arun_panel`, concurrently) runs K judges x N repeats over open and control cases
(:class:`PanelCase`, :func:`case_from_trace`), takes a strict-plurality verdict (a tie is
``split``), reports stability, mean confidence, control accuracy and citations the run never
observed (:class:`CitationIndex`). :func:`score_tool_description` scores a tool's
description with :data:`TOOL_DESCRIPTION_RUBRIC`. :func:`record_panel_cost` puts the judge
calls in the cost ledger. :class:`FakeJudge` is scripted; :class:`OpenAIJudge` and
:class:`AnthropicJudge` need the ``judges`` extra. See ``docs/judges.md``.
"""

from tracegrade.judges._cases import PanelCase, case_from_trace, render_trace
from tracegrade.judges._citations import CitationCheck, CitationIndex, CitationKind
from tracegrade.judges._cost import record_judge_calls, record_panel_cost
from tracegrade.judges._drive import arun_panel, run_panel
from tracegrade.judges._fake import FakeJudge, ScriptedReply
from tracegrade.judges._model import (
    SPLIT,
    AsyncJudge,
    Judge,
    JudgeReply,
    JudgeRequest,
    JudgeVerdict,
    Message,
    OutputSchema,
)
from tracegrade.judges._panel import (
    CaseVerdict,
    JudgeCall,
    PanelCall,
    PanelResult,
    Vote,
    panel_flow,
    plurality,
)
from tracegrade.judges._parse import parse_verdict
from tracegrade.judges._providers import INSTALL_HINT
from tracegrade.judges._providers_anthropic import AnthropicJudge
from tracegrade.judges._providers_openai import OpenAIJudge
from tracegrade.judges._rubrics import (
    ANSWER_SUPPORT_RUBRIC,
    TOOL_DESCRIPTION_RUBRIC,
    Rubric,
    ScoringRubric,
    scoring_request,
    verdict_request,
)
from tracegrade.judges._scoring import (
    RubricScore,
    parse_rubric_score,
    rubric_score_record,
    score_tool_description,
)

__all__ = [
    "ANSWER_SUPPORT_RUBRIC",
    "INSTALL_HINT",
    "SPLIT",
    "TOOL_DESCRIPTION_RUBRIC",
    "AnthropicJudge",
    "AsyncJudge",
    "CaseVerdict",
    "CitationCheck",
    "CitationIndex",
    "CitationKind",
    "FakeJudge",
    "Judge",
    "JudgeCall",
    "JudgeReply",
    "JudgeRequest",
    "JudgeVerdict",
    "Message",
    "OpenAIJudge",
    "OutputSchema",
    "PanelCall",
    "PanelCase",
    "PanelResult",
    "Rubric",
    "RubricScore",
    "ScoringRubric",
    "ScriptedReply",
    "Vote",
    "arun_panel",
    "case_from_trace",
    "panel_flow",
    "parse_rubric_score",
    "parse_verdict",
    "plurality",
    "record_judge_calls",
    "record_panel_cost",
    "render_trace",
    "rubric_score_record",
    "run_panel",
    "score_tool_description",
    "scoring_request",
    "verdict_request",
]
