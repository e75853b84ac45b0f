"""challenges: one player's challenge to another (or to anyone holding its link), pending
until accepted, declined, cancelled or expired

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'challenges',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('challenger_id', sa.String(length=32), nullable=False),
        sa.Column('challenged_id', sa.String(length=32), nullable=True),
        sa.Column('variant', sa.String(length=32), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('clock', sa.String(length=16), nullable=True),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('expires_at', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('accepted_by', sa.String(length=32), nullable=True),
        sa.Column('table_id', sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(['challenger_id'], ['players.id']),
        sa.ForeignKeyConstraint(['challenged_id'], ['players.id']),
        sa.ForeignKeyConstraint(['accepted_by'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        'ix_challenges_challenger_status', 'challenges', ['challenger_id', 'status']
    )
    op.create_index(
        'ix_challenges_challenged_status', 'challenges', ['challenged_id', 'status']
    )


def downgrade() -> None:
    op.drop_index('ix_challenges_challenged_status', table_name='challenges')
    op.drop_index('ix_challenges_challenger_status', table_name='challenges')
    op.drop_table('challenges')
