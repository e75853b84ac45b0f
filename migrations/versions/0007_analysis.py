"""analysis of finished matches: asked for by a player, computed in the background

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.String(length=32), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("moves", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.ForeignKeyConstraint(["requested_by"], ["players.id"]),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index(
        "ix_match_analyses_requested_by", "match_analyses", ["requested_by", "requested_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_match_analyses_requested_by", table_name="match_analyses")
    op.drop_table("match_analyses")
