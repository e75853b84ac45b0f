"""event tables: the event a table was opened for (no computer takes a seat over there, its
match cannot be aborted and is not replayed)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('tournament_id', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('tournament_id')
