"""Index case outcomes; add the cost ledger, improvement-loop and live-intake tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the cost ledger, the improvement loop's tables and the live-intake table."""
    op.create_index("ix_runs_started_at", "runs", ["started_at", "run_id"])
    op.add_column("touchpoint_versions", sa.Column("recorded_by", sa.String(200), nullable=True))
    op.create_index(
        "ix_case_results_outcomes", "case_results", ["run_id", "touchpoint", "outcome", "repeat"]
    )
    op.create_table(
        "ai_calls",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.String(200), nullable=True),  # calls outside a run are kept too
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("cached_input_tokens", sa.Integer(), nullable=False),
        sa.Column("latency_seconds", sa.Float(), nullable=True),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('agent', 'judge')", name="ck_ai_calls_role"),
    )
    op.create_index("ix_ai_calls_touchpoint", "ai_calls", ["touchpoint"])
    op.create_index("ix_ai_calls_run_id", "ai_calls", ["run_id"])
    op.create_index("ix_ai_calls_recorded_at", "ai_calls", ["recorded_at"])
    op.create_table(
        "signals",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(200), nullable=False),  # what patterns group on
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("run_id", sa.String(200), nullable=True),
        sa.Column("processed", sa.Boolean(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_signals_touchpoint_processed", "signals", ["touchpoint", "processed"])
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("file", sa.String(500), nullable=False),
        sa.Column("base_sha256", sa.String(64), nullable=False),
        sa.Column("proposed_sha256", sa.String(64), nullable=False),  # its content: file_blobs
        sa.Column("diff", sa.Text(), nullable=False),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("drafted_by", sa.String(16), nullable=False),
        sa.Column("pattern", sa.String(200), nullable=True),
        sa.Column("signal_ids", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(200), nullable=True),
        sa.Column("applied_version", sa.String(200), nullable=True),
        sa.Column("applied_by", sa.String(200), nullable=True),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("drafted_by IN ('person', 'judge')", name="ck_proposals_drafted_by"),
        sa.CheckConstraint(
            "status IN ('proposed', 'approved', 'rejected', 'applied')", name="ck_proposals_status"
        ),
    )
    op.create_index("ix_proposals_touchpoint", "proposals", ["touchpoint"])
    op.create_table(
        "file_blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("content", sa.Text(), nullable=False),
    )
    op.create_table(
        "rubric_scores",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("version", sa.String(200), nullable=False),
        sa.Column("rubric", sa.String(200), nullable=False),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rubric_scores_touchpoint", "rubric_scores", ["touchpoint"])
    op.create_table(
        "received_traces",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("trace_id", sa.String(200), nullable=False),
        sa.Column("touchpoint", sa.String(200), nullable=True),
        sa.Column("source_format", sa.String(64), nullable=False),
        sa.Column("trace", sa.JSON(), nullable=False),
        sa.Column("grade", sa.JSON(), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("trace_id", name="uq_received_traces_trace_id"),
    )


def downgrade() -> None:
    """Drop them, newest first."""
    op.drop_index("ix_case_results_outcomes", table_name="case_results")
    op.drop_index("ix_runs_started_at", table_name="runs")
    with op.batch_alter_table("touchpoint_versions") as table:  # SQLite rebuilds the table
        table.drop_column("recorded_by")
    op.drop_table("received_traces")
    op.drop_index("ix_rubric_scores_touchpoint", table_name="rubric_scores")
    op.drop_table("rubric_scores")
    op.drop_table("file_blobs")
    op.drop_index("ix_proposals_touchpoint", table_name="proposals")
    op.drop_table("proposals")
    op.drop_index("ix_signals_touchpoint_processed", table_name="signals")
    op.drop_table("signals")
    op.drop_index("ix_ai_calls_touchpoint", table_name="ai_calls")
    op.drop_index("ix_ai_calls_run_id", table_name="ai_calls")
    op.drop_index("ix_ai_calls_recorded_at", table_name="ai_calls")
    op.drop_table("ai_calls")
