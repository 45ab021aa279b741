"""What the API returns and the pages render: one set of frozen pydantic models."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict

from tracegrade.store import (
    BaselineRecord,
    CaseResultRecord,
    ProposalRecord,
    RunRecord,
    RunStatus,
    SignalRecord,
    TouchpointRunPoint,
    TouchpointVersionRecord,
    WatchRecord,
)

__all__ = [
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
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TouchpointSummary(_Model):
    """One row of the registry: a touchpoint's contract and how it stands now.

    Attributes:
        id: The touchpoint id.
        kind: ``tool``, ``prompt``, ``skill``, ``inline_call`` or ``agent_recipe``.
        owner: Who owns it.
        severity: Its ``severity_on_fail``.
        suite_kind: How its suite runs.
        description: Its description.
        in_registry: It is in the served project's registry (else only seen in stored runs).
        registry_version: The registry version of its latest run (or of the project).
        version: Its newest recorded version (hash of contract and files).
        last: Its verdict in the newest finished run that judged it.
        drift: Files changed since its baseline run (or its latest run when no baseline);
            ``None`` when there is nothing to compare with.
        unprocessed_signals: Signals not yet processed; ``None`` when not counted.
        graduation: Its graduation verdict in one line; ``None`` when not measured.
        cost_usd: What its model calls cost in the window; ``None`` when unknown.
        cost_calls: How many model calls it made in the window.
        unpriced_calls: How many of those had no price.
    """

    id: str
    kind: str
    owner: str
    severity: str
    suite_kind: str
    description: str = ""
    in_registry: bool = True
    registry_version: str | None = None
    version: str | None = None
    last: TouchpointRunPoint | None = None
    drift: tuple[str, ...] | None = None
    unprocessed_signals: int | None = None
    graduation: str | None = None
    cost_usd: float | None = None
    cost_calls: int = 0
    unpriced_calls: int = 0


class PatternView(_Model):
    """Unprocessed signals of a touchpoint that share a kind and a fingerprint.

    Attributes:
        touchpoint: The touchpoint.
        kind: The signals' kind.
        fingerprint: What they share.
        count: How many signals.
        first_seen: The oldest signal's time.
        last_seen: The newest signal's time.
        signal_ids: Their ids, oldest first.
        example: The newest signal's payload.
    """

    touchpoint: str
    kind: str
    fingerprint: str
    count: int
    first_seen: AwareDatetime
    last_seen: AwareDatetime
    signal_ids: tuple[int, ...]
    example: dict[str, Any]


class DayCost(_Model):
    """A day's model cost of one touchpoint, agent and judge calls apart (USD)."""

    day: str
    agent_usd: float | None
    judge_usd: float | None


class TouchpointDetail(_Model):
    """Everything the touchpoint page shows.

    Attributes:
        summary: The registry row.
        baseline: The current baseline, if any.
        history: Its verdict per finished run, newest first.
        cost_by_day: Its model cost per day, agent vs judge, oldest first.
        signals: Its signals, oldest first (as stored).
        patterns: Patterns found in its unprocessed signals.
        proposals: Proposed changes, newest first.
        versions: Its recorded versions with file hashes, newest first.
        watches: Its auto-apply watches and the rollbacks they made, newest first.
    """

    summary: TouchpointSummary
    baseline: BaselineRecord | None
    history: tuple[TouchpointRunPoint, ...]
    cost_by_day: tuple[DayCost, ...] = ()
    signals: tuple[SignalRecord, ...] = ()
    patterns: tuple[PatternView, ...] = ()
    proposals: tuple[ProposalRecord, ...] = ()
    versions: tuple[TouchpointVersionRecord, ...] = ()
    watches: tuple[WatchRecord, ...] = ()


class RunHeader(_Model):
    """A run as listed: who and when, without its stored report (``/api/runs/{id}`` has it)."""

    run_id: str
    started_at: AwareDatetime
    finished_at: AwareDatetime | None
    lane: str
    registry_version: str
    status: RunStatus


class RunListItem(_Model):
    """A run in the run list, with its per-touchpoint verdict statuses."""

    run: RunHeader
    exit_code: int | None
    statuses: dict[str, str]


class RunTouchpoint(_Model):
    """A touchpoint's part of a run: verdict, counts and change against its baseline."""

    touchpoint: str
    severity: str | None
    status: str | None
    failed: bool
    metric: float | None
    baseline: float | None
    delta: float | None
    sentence: str
    outcomes: dict[str, int]


class CaseRow(_Model):
    """A case result as the run page lists it, with the baseline's outcome for the case.

    Attributes:
        id: The result's row id (``/cases/{id}``).
        touchpoint: The touchpoint.
        case_id: The case.
        repeat: The repeat.
        outcome: How it ended.
        metric: Its metric value.
        diagnosis: Why it did not pass, in one line; empty when it passed.
        baseline_outcome: The case's outcome in the same repeat of the baseline run.
        changed: ``better``, ``worse`` or ``same`` against the baseline; ``None``: unknown.
    """

    id: int
    touchpoint: str
    case_id: str
    repeat: int
    outcome: str
    metric: float | None
    diagnosis: str
    baseline_outcome: str | None
    changed: Literal["better", "worse", "same"] | None


class CostRow(_Model):
    """One group of a cost rollup (USD; ``None`` when every call was unpriced)."""

    key: str
    calls: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    unpriced_calls: int


class RunView(_Model):
    """Everything the run page shows: the run, its touchpoints, a page of cases, its cost."""

    run: RunRecord
    touchpoints: tuple[RunTouchpoint, ...]
    cases: tuple[CaseRow, ...]
    total: int
    offset: int
    limit: int
    outcome: str | None
    touchpoint: str | None
    cost: tuple[CostRow, ...]


class FrameMark(_Model):
    """Something said about a frame: a guard block, a contract failure, an evidence use."""

    kind: Literal["guard-block", "guard-allow", "contract", "evidence", "unsourced"]
    text: str


class FrameView(_Model):
    """One frame of a trace, as text to show (never markup).

    Attributes:
        index: Its index in the trace.
        type: The frame type.
        title: A short label (the tool called, the call id, ``ok``/``failed``).
        text: Its content: prose, arguments or result, pretty JSON when JSON.
        marks: What the grader, guard or contract said about it.
    """

    index: int
    type: str
    title: str
    text: str
    marks: tuple[FrameMark, ...] = ()


class EvidenceView(_Model):
    """An observation behind a claim, and the frame it came from."""

    id: str
    frame: int
    tool: str
    kind: str
    file: str
    line: float | None = None
    text: str = ""


class ClaimView(_Model):
    """A claim with its support and the observations behind it."""

    id: str
    text: str
    in_answer: bool
    support: Literal["read", "named-only", "unsupported"]
    evidence: tuple[EvidenceView, ...]


class FigureView(_Model):
    """A figure of the answer, and the frame that showed it (``None`` when unsourced)."""

    raw: str
    value: str
    kind: str
    start: int
    end: int
    support: Literal["read", "unsupported"]
    frame: int | None


class ExtractedClaimView(_Model):
    """A claim extracted from the answer with no question file, and what showed it.

    Attributes:
        kind: ``figure``, ``path``, ``url``, ``email``, ``identifier``, ``quote``, ``id``,
            ``date``, ``name`` or ``quantity``.
        raw: As written in the final answer.
        text: Normalised.
        start: Where it starts in the final answer.
        end: Where it ends (exclusive).
        given: The user's own messages said it (never counted as unsupported).
        hedged: The answer only guesses it.
        support: ``read``, ``named-only`` or ``unsupported``.
        evidence_ids: The grade's evidence ids: observations (``f4.2``), or for a figure
            the frame that showed it (``f4``).
        evidence: The observations among those ids, with their text.
        frames: The frames its evidence came from, in order.
    """

    kind: str
    raw: str
    text: str
    start: int
    end: int
    given: bool
    hedged: bool
    support: Literal["read", "named-only", "unsupported"]
    evidence_ids: tuple[str, ...]
    evidence: tuple[EvidenceView, ...]
    frames: tuple[int, ...]


class AnswerPiece(_Model):
    """A run of the final answer's text, with what it asserts (nothing: plain text).

    Attributes:
        text: The text.
        claim: The expected fact it states, if any.
        support: That fact's support.
        figure: The index of the figure it is, if any (in ``TraceView.figures``).
        unsourced: It is a figure no source showed.
        extracted: The index of the extracted claim it is, if any (in
            ``TraceView.extracted``).
    """

    text: str
    claim: str | None = None
    support: str | None = None
    figure: int | None = None
    unsourced: bool = False
    extracted: int | None = None


class TraceView(_Model):
    """A graded trace: read again and graded at view time, or as stored when received.

    Attributes:
        file: Where the trace came from.
        trace_id: Its recorded id.
        task: Its first user message.
        model: The model that ran it, when recorded.
        source_format: The reader that read it.
        frames: Its frames as text, with their marks.
        answer: The final answer.
        pieces: The final answer split at its facts, figures and extracted claims.
        claims: The question's expected facts, with support and evidence.
        figures: The answer's figures, read or unsourced.
        extracted: Every claim extracted from the answer with no question file, in answer
            order (``Grade.extracted``), with its evidence.
        grounded_share: Read extracted claims over those the user did not give; ``None``
            when there are none.
        grade: The rest of the grade (without claims, figures and extracted claims).
        mismatches: How the grade differs from the case's expectation.
    """

    file: str
    trace_id: str
    task: str
    model: str | None
    source_format: str
    frames: tuple[FrameView, ...]
    answer: str
    pieces: tuple[AnswerPiece, ...]
    claims: tuple[ClaimView, ...]
    figures: tuple[FigureView, ...]
    extracted: tuple[ExtractedClaimView, ...] = ()
    grounded_share: float | None = None
    grade: dict[str, Any] | None = None
    mismatches: tuple[str, ...] = ()


class CaseView(_Model):
    """Everything the case page shows.

    Attributes:
        id: The result's row id.
        result: The stored case result.
        suite_kind: How its touchpoint's suite runs, when the registry knows it.
        diagnosis: Why it did not pass, in one line.
        trace: The trace behind it, when the case is one trace file and it can be read.
        no_trace: Why there is no trace to show.
    """

    id: int
    result: CaseResultRecord
    suite_kind: str | None
    diagnosis: str
    trace: TraceView | None
    no_trace: str = ""


class CostView(_Model):
    """Cost rollups by touchpoint, model, day and role; empty when nothing is recorded.

    Attributes:
        since: The first day counted (ISO date); ``None``: every recorded call.
        by_touchpoint: Per touchpoint.
        by_model: Per model.
        by_day: Per UTC day.
        by_role: Agent calls and judge calls.
    """

    since: str | None
    by_touchpoint: tuple[CostRow, ...]
    by_model: tuple[CostRow, ...]
    by_day: tuple[CostRow, ...]
    by_role: tuple[CostRow, ...]
