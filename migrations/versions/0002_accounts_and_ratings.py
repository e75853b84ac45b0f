"""accounts, several tokens per player, rated tables and ratings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Every existing guest keeps its token: the hash moves from ``players.token_hash`` to a row of
``player_tokens``. Existing tables and matches are casual (``rated`` false).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('player_tokens',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('token_hash')
    )
    with op.batch_alter_table('player_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_tokens_player_id'), ['player_id'], unique=False)
    op.execute(
        "INSERT INTO player_tokens (token_hash, player_id, created_at) "
        "SELECT token_hash, id, created_at FROM players"
    )

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('handle', sa.String(length=24), nullable=True))
        batch_op.add_column(sa.Column('handle_key', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('password_hash', sa.String(length=256), nullable=True))
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_unique_constraint('uq_players_handle_key', ['handle_key'])
        if op.get_context().dialect.name != 'sqlite':  # SQLite's copy leaves it out anyway
            batch_op.drop_constraint('players_token_hash_key', type_='unique')
        batch_op.drop_column('token_hash')

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))

    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('rating_applied', sa.Boolean(), server_default=sa.false(), nullable=False))

    op.create_table('ratings',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('family', sa.String(length=16), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('matches', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id', 'family')
    )
    with op.batch_alter_table('ratings', schema=None) as batch_op:
        batch_op.create_index('ix_ratings_family_mu', ['family', 'mu'], unique=False)

    op.create_table('rating_changes',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('family', sa.String(length=16), nullable=False),
    sa.Column('mu_before', sa.Float(), nullable=False),
    sa.Column('sigma_before', sa.Float(), nullable=False),
    sa.Column('mu_after', sa.Float(), nullable=False),
    sa.Column('sigma_after', sa.Float(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'player_id')
    )
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_changes_player_id'), ['player_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_changes_player_id'))
    op.drop_table('rating_changes')
    with op.batch_alter_table('ratings', schema=None) as batch_op:
        batch_op.drop_index('ix_ratings_family_mu')
    op.drop_table('ratings')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('rating_applied')
        batch_op.drop_column('rated')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('rated')
    # A player keeps one token going down: the oldest of its devices.
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = (SELECT MIN(t.token_hash) FROM player_tokens t "
        "WHERE t.player_id = players.id)"
    )
    op.execute(
        "UPDATE players SET token_hash = 'revoked-' || id WHERE token_hash IS NULL"
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('token_hash', nullable=False)
        batch_op.create_unique_constraint('players_token_hash_key', ['token_hash'])
        batch_op.drop_constraint('uq_players_handle_key', type_='unique')
        batch_op.drop_column('deleted_at')
        batch_op.drop_column('password_hash')
        batch_op.drop_column('handle')
        batch_op.drop_column('handle_key')
    with op.batch_alter_table('player_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_tokens_player_id'))
    op.drop_table('player_tokens')
