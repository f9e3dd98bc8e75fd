"""table jackpots

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 23:05:54.852081
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('jackpots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('fee', sa.BigInteger(), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.Column('odds', sa.Integer(), nullable=False),
    sa.Column('share_percent', sa.Integer(), nullable=False),
    sa.Column('minimum', sa.BigInteger(), nullable=False),
    sa.Column('faces', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('jackpot_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('jackpot_id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=80), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('paid', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['jackpot_id'], ['jackpots.id'], ),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('jackpot_entries', schema=None) as batch_op:
        batch_op.create_index('ix_jackpot_entries_round', ['round_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('jackpot_entries', schema=None) as batch_op:
        batch_op.drop_index('ix_jackpot_entries_round')

    op.drop_table('jackpot_entries')
    op.drop_table('jackpots')
