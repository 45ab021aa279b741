"""Create runs, case_results, baselines and touchpoint_versions.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "runs",
        sa.Column("run_id", sa.String(200), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lane", sa.String(200), nullable=False),
        sa.Column("registry_version", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.CheckConstraint("status IN ('running', 'finished', 'killed')", name="ck_runs_status"),
    )
    op.create_table(
        "case_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "run_id",
            sa.String(200),
            sa.ForeignKey("runs.run_id", name="fk_case_results_run_id"),
            nullable=False,
        ),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("case_id", sa.String(500), nullable=False),
        sa.Column("repeat", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("metric", sa.Float(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "run_id", "touchpoint", "case_id", "repeat", name="uq_case_results_key"
        ),
        sa.CheckConstraint(
            "outcome IN ('passed', 'failed', 'infra', 'error')", name="ck_case_results_outcome"
        ),
    )
    op.create_table(
        "baselines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column(
            "run_id",
            sa.String(200),
            sa.ForeignKey("runs.run_id", name="fk_baselines_run_id"),
            nullable=False,
        ),
        sa.Column("metric", sa.Float(), nullable=True),
        sa.Column("promoted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcomes", sa.JSON(), nullable=False),
    )
    op.create_index("ix_baselines_touchpoint", "baselines", ["touchpoint"])
    op.create_table(
        "touchpoint_versions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("touchpoint", sa.String(200), nullable=False),
        sa.Column("version", sa.String(200), nullable=False),
        sa.Column("registry_version", sa.String(200), nullable=False),
        sa.Column("hashes", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("touchpoint", "version", name="uq_touchpoint_versions_version"),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("touchpoint_versions")
    op.drop_index("ix_baselines_touchpoint", table_name="baselines")
    op.drop_table("baselines")
    op.drop_table("case_results")
    op.drop_table("runs")
