"""The store's tables in SQLAlchemy Core: what the migrations build, and what queries use.

A change here needs a new migration in ``migrations/versions``; a test compares this
schema with the migrated database.
"""

from __future__ import annotations

import sqlalchemy as sa

METADATA = sa.MetaData()

_NAME = 200  # touchpoint, lane and version names
_CASE = 500  # case ids can be paths

runs = sa.Table(
    "runs",
    METADATA,
    sa.Column("run_id", sa.String(_NAME), primary_key=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("lane", sa.String(_NAME), nullable=False),
    sa.Column("registry_version", sa.String(_NAME), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("summary", sa.JSON(), nullable=False),
    sa.CheckConstraint("status IN ('running', 'finished', 'killed')", name="ck_runs_status"),
)

case_results = sa.Table(
    "case_results",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column(
        "run_id",
        sa.String(_NAME),
        sa.ForeignKey("runs.run_id", name="fk_case_results_run_id"),
        nullable=False,
    ),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("case_id", sa.String(_CASE), nullable=False),
    sa.Column("repeat", sa.Integer(), nullable=False),
    sa.Column("outcome", sa.String(16), nullable=False),
    sa.Column("metric", sa.Float(), nullable=True),
    sa.Column("payload", sa.JSON(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("run_id", "touchpoint", "case_id", "repeat", name="uq_case_results_key"),
    sa.CheckConstraint(
        "outcome IN ('passed', 'failed', 'infra', 'error')", name="ck_case_results_outcome"
    ),
)

baselines = sa.Table(
    "baselines",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column(
        "run_id",
        sa.String(_NAME),
        sa.ForeignKey("runs.run_id", name="fk_baselines_run_id"),
        nullable=False,
    ),
    sa.Column("metric", sa.Float(), nullable=True),
    sa.Column("promoted_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("outcomes", sa.JSON(), nullable=False),
    sa.Index("ix_baselines_touchpoint", "touchpoint"),
)

touchpoint_versions = sa.Table(
    "touchpoint_versions",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("version", sa.String(_NAME), nullable=False),
    sa.Column("registry_version", sa.String(_NAME), nullable=False),
    sa.Column("hashes", sa.JSON(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    # Who made it (applied a proposal, rolled back); None when a run saw it. Migration 0002.
    sa.Column("recorded_by", sa.String(_NAME), nullable=True),
    sa.UniqueConstraint("touchpoint", "version", name="uq_touchpoint_versions_version"),
)

# Listing runs newest first, a page at a time. Added by migration 0002.
sa.Index("ix_runs_started_at", runs.c.started_at, runs.c.run_id)

# Counting a run's outcomes (judging, the run page's tallies, its failures filter) reads this
# index alone, not the result rows. Added by migration 0002.
sa.Index(
    "ix_case_results_outcomes",
    case_results.c.run_id,
    case_results.c.touchpoint,
    case_results.c.outcome,
    case_results.c.repeat,
)

# Every model call an agent or a judge made, with its price (None when the model is unpriced).
ai_calls = sa.Table(
    "ai_calls",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(_NAME), nullable=True),  # calls outside a run are kept too
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("model", sa.String(_NAME), nullable=False),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("input_tokens", sa.Integer(), nullable=False),
    sa.Column("output_tokens", sa.Integer(), nullable=False),
    sa.Column("cached_input_tokens", sa.Integer(), nullable=False),
    sa.Column("latency_seconds", sa.Float(), nullable=True),
    sa.Column("cost_usd", sa.Float(), nullable=True),
    sa.Column("details", sa.JSON(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("role IN ('agent', 'judge')", name="ck_ai_calls_role"),
    sa.Index("ix_ai_calls_touchpoint", "touchpoint"),
    sa.Index("ix_ai_calls_run_id", "run_id"),
    sa.Index("ix_ai_calls_recorded_at", "recorded_at"),
)

# Gate failures, guard blocks, user feedback: the raw material of patterns and proposals.
signals = sa.Table(
    "signals",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("fingerprint", sa.String(_NAME), nullable=False),  # what patterns group on
    sa.Column("payload", sa.JSON(), nullable=False),
    sa.Column("run_id", sa.String(_NAME), nullable=True),
    sa.Column("processed", sa.Boolean(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_signals_touchpoint_processed", "touchpoint", "processed"),
)

# A change to a touchpoint's file, proposed by a person or a judge; only a person approves.
proposals = sa.Table(
    "proposals",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("file", sa.String(_CASE), nullable=False),
    sa.Column("base_sha256", sa.String(64), nullable=False),
    sa.Column("proposed_sha256", sa.String(64), nullable=False),  # its content: file_blobs
    sa.Column("diff", sa.Text(), nullable=False),
    sa.Column("rationale", sa.Text(), nullable=False),
    sa.Column("author", sa.String(_NAME), nullable=False),
    sa.Column("drafted_by", sa.String(16), nullable=False),
    sa.Column("pattern", sa.String(_NAME), nullable=True),
    sa.Column("signal_ids", sa.JSON(), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("decided_by", sa.String(_NAME), nullable=True),
    sa.Column("applied_version", sa.String(_NAME), nullable=True),
    sa.Column("applied_by", sa.String(_NAME), nullable=True),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("drafted_by IN ('person', 'judge')", name="ck_proposals_drafted_by"),
    sa.CheckConstraint(
        "status IN ('proposed', 'approved', 'rejected', 'applied')", name="ck_proposals_status"
    ),
    sa.Index("ix_proposals_touchpoint", "touchpoint"),
)

# File contents by sha256, so a touchpoint version can be restored (rollback).
file_blobs = sa.Table(
    "file_blobs",
    METADATA,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("content", sa.Text(), nullable=False),
)

# A judge rubric's scores of a touchpoint version (the tool-description rubric).
rubric_scores = sa.Table(
    "rubric_scores",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("touchpoint", sa.String(_NAME), nullable=False),
    sa.Column("version", sa.String(_NAME), nullable=False),
    sa.Column("rubric", sa.String(_NAME), nullable=False),
    sa.Column("judge", sa.String(_NAME), nullable=False),
    sa.Column("scores", sa.JSON(), nullable=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rubric_scores_touchpoint", "touchpoint"),
)

# Traces received live (OTLP/HTTP), normalised to the native model, with their grade.
received_traces = sa.Table(
    "received_traces",
    METADATA,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("trace_id", sa.String(_NAME), nullable=False),
    sa.Column("touchpoint", sa.String(_NAME), nullable=True),
    sa.Column("source_format", sa.String(64), nullable=False),
    sa.Column("trace", sa.JSON(), nullable=False),
    sa.Column("grade", sa.JSON(), nullable=True),
    sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("trace_id", name="uq_received_traces_trace_id"),
)
