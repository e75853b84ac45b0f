"""turn clocks: each table's clock mode and timeout consequence, the running clock, the seats
a computer player took over, and which players of a match abandoned it

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(
            sa.Column('clock', sa.String(length=16), server_default='none', nullable=False)
        )
        batch.add_column(
            sa.Column(
                'on_timeout', sa.String(length=16), server_default='takeover', nullable=False
            )
        )
        batch.add_column(sa.Column('turn_clock', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('clock_deadline', sa.Float(), nullable=True))
        batch.create_index('ix_tables_clock_deadline', ['clock_deadline'])
        batch.add_column(sa.Column('abandoned', sa.JSON(), nullable=True))
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('abandoned', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('abandoned')
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('abandoned')
        batch.drop_index('ix_tables_clock_deadline')
        batch.drop_column('clock_deadline')
        batch.drop_column('turn_clock')
        batch.drop_column('on_timeout')
        batch.drop_column('clock')
