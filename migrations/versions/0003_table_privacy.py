"""table privacy: whether spectators may watch, and when strangers see the history

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(
            sa.Column('spectators', sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch.add_column(
            sa.Column('history', sa.String(length=16), nullable=False, server_default='after_match')
        )


def downgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('history')
        batch.drop_column('spectators')
