"""contributions: the server's seed for a table's next match (and for a table a player is about
to open), and the players' contributions

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("next_seed", sa.String(length=64), nullable=True))
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("contribution", sa.String(length=128), nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("server_seed", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("contributions", sa.JSON(), nullable=True))
    op.create_table(
        "offered_seeds",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id"),
    )


def downgrade() -> None:
    op.drop_table("offered_seeds")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("contributions")
        batch.drop_column("server_seed")
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("contribution")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_seed")
