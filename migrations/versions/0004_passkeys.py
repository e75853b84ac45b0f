"""passkeys: WebAuthn credentials of accounts, and the challenges of their ceremonies

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

Only new tables: existing players, tokens and matches are untouched.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('passkeys',
    sa.Column('id', sa.String(length=1400), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('public_key', sa.LargeBinary(), nullable=False),
    sa.Column('sign_count', sa.BigInteger(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_passkeys_player_id'), ['player_id'], unique=False)

    op.create_table('passkey_challenges',
    sa.Column('challenge', sa.String(length=128), nullable=False),
    sa.Column('purpose', sa.String(length=16), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('handle_key', sa.String(length=64), nullable=True),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('challenge')
    )
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f('ix_passkey_challenges_expires_at'), ['expires_at'], unique=False
        )
        batch_op.create_index(
            batch_op.f('ix_passkey_challenges_player_id'), ['player_id'], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table('passkey_challenges', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_player_id'))
        batch_op.drop_index(batch_op.f('ix_passkey_challenges_expires_at'))
    op.drop_table('passkey_challenges')
    with op.batch_alter_table('passkeys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passkeys_player_id'))
    op.drop_table('passkeys')
