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
    sa.UniqueConstraint("touchpoint", "version", name="uq_touchpoint_versions_version"),
)
