"""tournaments: arena and Swiss events with their lease, entrants (players, teams of two,
computers), members, Swiss rounds, games (pairings, with their table) and results

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('format', sa.String(length=8), nullable=False),
        sa.Column('variant', sa.String(length=32), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('clock', sa.String(length=16), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('access', sa.String(length=16), nullable=False),
        sa.Column('computers', sa.Boolean(), nullable=False),
        sa.Column('streak', sa.Boolean(), nullable=False),
        sa.Column('bye_points', sa.Float(), nullable=False),
        sa.Column('starts_at', sa.Float(), nullable=False),
        sa.Column('ends_at', sa.Float(), nullable=True),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_by', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.Float(), nullable=False),
        sa.Column('finished_at', sa.Float(), nullable=True),
        sa.Column('owner', sa.String(length=32), nullable=True),
        sa.Column('lease_until', sa.Float(), nullable=True),
        sa.Column('lease_epoch', sa.Integer(), server_default='0', nullable=False),
        sa.ForeignKeyConstraint(['created_by'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_tournaments_starts_at', 'tournaments', ['starts_at'])
    op.create_index('ix_tournaments_status', 'tournaments', ['status'])
    op.create_table(
        'tournament_entrants',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('members', sa.JSON(), nullable=False),
        sa.Column('computer', sa.String(length=16), nullable=True),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('joined_at', sa.Float(), nullable=False),
        sa.Column('withdrawn', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'id'),
    )
    op.create_table(
        'tournament_members',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('entrant_id', sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'player_id'),
    )
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('paired_at', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.PrimaryKeyConstraint('tournament_id', 'round'),
    )
    op.create_table(
        'tournament_games',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('a', sa.String(length=32), nullable=False),
        sa.Column('b', sa.String(length=32), nullable=True),
        sa.Column('table_id', sa.String(length=32), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('paired_at', sa.Float(), nullable=False),
        sa.Column('finished_at', sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_tournament_games_status', 'tournament_games', ['tournament_id', 'status'])
    op.create_index('ix_tournament_games_table_id', 'tournament_games', ['table_id'])
    op.create_table(
        'tournament_results',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('entrant_id', sa.String(length=32), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('opponent', sa.String(length=32), nullable=True),
        sa.Column('outcome', sa.String(length=16), nullable=False),
        sa.Column('points', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id']),
        sa.ForeignKeyConstraint(['game_id'], ['tournament_games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'entrant_id', name='uq_tournament_results_game_entrant'),
    )
    op.create_index(
        'ix_tournament_results_tournament', 'tournament_results', ['tournament_id', 'entrant_id']
    )


def downgrade() -> None:
    op.drop_index('ix_tournament_results_tournament', table_name='tournament_results')
    op.drop_table('tournament_results')
    op.drop_index('ix_tournament_games_table_id', table_name='tournament_games')
    op.drop_index('ix_tournament_games_status', table_name='tournament_games')
    op.drop_table('tournament_games')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_members')
    op.drop_table('tournament_entrants')
    op.drop_index('ix_tournaments_status', table_name='tournaments')
    op.drop_index('ix_tournaments_starts_at', table_name='tournaments')
    op.drop_table('tournaments')
