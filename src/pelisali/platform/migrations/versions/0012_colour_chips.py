"""colour chips at wheel and dice tables

RAY 1.2.1, 1.2.2 and 1.3.2 "Pelipanokset": a table takes value chips, colour chips or
both (``tables.chips``, value by default, so every existing table plays as before); a
player's stack of colour chips at a table keeps its colour and the value of one chip
(``colour_stacks``), its money on the ledger account ``table:TABLE/chips:PLAYER``.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 13:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('chips', sa.String(length=8), nullable=False,
                                   server_default='value'))
    op.create_table(
        'colour_stacks',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('table_id', sa.Integer(),
                  sa.ForeignKey('tables.id', ondelete='RESTRICT'), nullable=False),
        sa.Column('player', sa.String(length=80), nullable=False),
        sa.Column('colour', sa.String(length=16), nullable=False),
        sa.Column('unit', sa.BigInteger(), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('bought_key', sa.String(length=200), nullable=False),
        sa.Column('closed_key', sa.String(length=200), nullable=True, unique=True),
    )
    op.create_index('ix_colour_stacks_table_player', 'colour_stacks', ['table_id', 'player'])


def downgrade() -> None:
    op.drop_index('ix_colour_stacks_table_player', table_name='colour_stacks')
    op.drop_table('colour_stacks')
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('chips')
