"""table chat: messages, reports for an operator, mutes, and each table's word filter

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'chat_messages',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('room', sa.String(length=16), nullable=False),
        sa.Column('sender_id', sa.String(length=32), nullable=False),
        sa.Column('sender_name', sa.String(length=24), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('phrase', sa.String(length=24), nullable=True),
        sa.Column('text', sa.String(length=2000), nullable=True),
        sa.ForeignKeyConstraint(['sender_id'], ['players.id']),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_chat_messages_table_id', 'chat_messages', ['table_id', 'id'])
    op.create_table(
        'chat_reports',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('message_id', sa.Integer(), nullable=False),
        sa.Column('reporter_id', sa.String(length=32), nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('sender_id', sa.String(length=32), nullable=False),
        sa.Column('room', sa.String(length=16), nullable=False),
        sa.Column('phrase', sa.String(length=24), nullable=True),
        sa.Column('text', sa.String(length=2000), nullable=True),
        sa.Column('reported_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['message_id'], ['chat_messages.id']),
        sa.ForeignKeyConstraint(['reporter_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('message_id', 'reporter_id', name='uq_chat_reports_once'),
    )
    op.create_index('ix_chat_reports_message_id', 'chat_reports', ['message_id'])
    op.create_table(
        'chat_mutes',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('muted_id', sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint('table_id', 'player_id', 'muted_id'),
    )
    op.create_table(
        'chat_settings',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('word_filter', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id']),
        sa.PrimaryKeyConstraint('table_id'),
    )


def downgrade() -> None:
    op.drop_table('chat_settings')
    op.drop_table('chat_mutes')
    op.drop_index('ix_chat_reports_message_id', table_name='chat_reports')
    op.drop_table('chat_reports')
    op.drop_index('ix_chat_messages_table_id', table_name='chat_messages')
    op.drop_table('chat_messages')
