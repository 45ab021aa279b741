"""Add shadow comparisons (proposals tried before approval) and auto-apply watches.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the shadow comparisons and the auto-apply watches."""
    op.create_table(
        "shadow_comparisons",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("proposal_id", sa.Integer(), nullable=False),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("base_run", sa.String(200), nullable=False),
        sa.Column("proposed_run", sa.String(200), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("comparison", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "verdict IN ('better', 'worse', 'noise')", name="ck_shadow_comparisons_verdict"
        ),
    )
    op.create_index("ix_shadow_comparisons_proposal_id", "shadow_comparisons", ["proposal_id"])
    op.create_table(
        "auto_apply_watches",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("proposal_id", sa.Integer(), nullable=False),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("prior_version", sa.String(200), nullable=False),
        sa.Column("applied_version", sa.String(200), nullable=False),
        sa.Column("reference", sa.Float(), nullable=True),
        sa.Column("allowed_drop", sa.Float(), nullable=False),
        sa.Column("runs_to_watch", sa.Integer(), nullable=False),
        sa.Column("runs", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("rolled_back_to", sa.String(200), nullable=True),
        sa.Column("rolled_back_by", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('watching', 'kept', 'rolled_back')", name="ck_auto_apply_watches_status"
        ),
    )
    op.create_index(
        "ix_auto_apply_watches_touchpoint", "auto_apply_watches", ["touchpoint", "status"]
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_auto_apply_watches_touchpoint", table_name="auto_apply_watches")
    op.drop_table("auto_apply_watches")
    op.drop_index("ix_shadow_comparisons_proposal_id", table_name="shadow_comparisons")
    op.drop_table("shadow_comparisons")
