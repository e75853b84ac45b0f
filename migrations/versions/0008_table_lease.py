"""the lease on each table: which worker owns it, until when, and its fencing epoch

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('owner', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('lease_until', sa.Float(), nullable=True))
        batch.add_column(
            sa.Column('lease_epoch', sa.Integer(), server_default='0', nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('lease_epoch')
        batch.drop_column('lease_until')
        batch.drop_column('owner')
