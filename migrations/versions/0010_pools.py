"""pools: the players waiting in each pool, the table a pool last seated each player at, and
each pool's lease

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'pool_entries',
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('pool_id', sa.String(length=32), nullable=False),
        sa.Column('account', sa.Boolean(), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('family', sa.String(length=16), nullable=False),
        sa.Column('joined_at', sa.Float(), nullable=False),
        sa.Column('last_opponents', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id'),
        sa.UniqueConstraint('id', name='uq_pool_entries_id'),
    )
    op.create_index('ix_pool_entries_pool_id', 'pool_entries', ['pool_id'])
    op.create_table(
        'pool_seatings',
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('pool_id', sa.String(length=32), nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('seated_at', sa.Float(), nullable=False),
        sa.Column('waited', sa.Float(), nullable=False),
        sa.Column('opponents', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id']),
        sa.PrimaryKeyConstraint('player_id'),
    )
    op.create_table(
        'pool_leases',
        sa.Column('pool_id', sa.String(length=32), nullable=False),
        sa.Column('owner', sa.String(length=32), nullable=True),
        sa.Column('lease_until', sa.Float(), nullable=True),
        sa.Column('lease_epoch', sa.Integer(), server_default='0', nullable=False),
        sa.PrimaryKeyConstraint('pool_id'),
    )


def downgrade() -> None:
    op.drop_table('pool_leases')
    op.drop_table('pool_seatings')
    op.drop_index('ix_pool_entries_pool_id', table_name='pool_entries')
    op.drop_table('pool_entries')
