"""actions: one index. An action is unique by its match and version; the separate unique
index on table and version goes (nothing reads actions by table, and every write is fenced by
the table's version step), so each stored action updates one index instead of two.

The unique index is built anew over the whole log (SQLite copies the table): writes to
``actions`` wait until it is built, so a site with a long log runs it in a quiet hour.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op


revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('actions') as batch:
        batch.drop_constraint('uq_actions_table_version', type_='unique')
        batch.drop_index('ix_actions_match_version')
        batch.create_index('uq_actions_match_version', ['match_id', 'version'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('actions') as batch:
        batch.drop_index('uq_actions_match_version')
        batch.create_index('ix_actions_match_version', ['match_id', 'version'], unique=False)
        batch.create_unique_constraint('uq_actions_table_version', ['table_id', 'version'])
